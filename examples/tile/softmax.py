"""Row softmax as a tile kernel: one block per row, the row in registers, one pass over memory.

    python examples/tile/softmax.py            # on the GPU (needs torch for the arrays), else the CPU interpreter
"""
import numpy as np

import tegula.core as tc
import tegula.tile as tt


@tt.kernel
def softmax(x, out, C: tt.Constant[int]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C), padding="neg_inf")   # C need not be a power of two
    e = tt.exp(v - tt.max(v, axis=1, keepdims=True))
    tt.store(out, index=(row, 0), tile=e / tt.sum(e, axis=1, keepdims=True))


def main():
    rows, cols = 1024, 1000
    x = np.random.default_rng().standard_normal((rows, cols)).astype(np.float32)
    gpu = tc.driver_info()["available"]
    if gpu:
        import torch

        xd, yd = torch.from_numpy(x).cuda(), torch.empty(rows, cols, device="cuda")
        tt.launch(softmax, grid=rows, args=(xd, yd, cols))
        y = yd.cpu().numpy()
    else:
        y = np.empty_like(x)
        tt.launch(softmax, grid=rows, args=(x, y, cols), interpret=True)
    e = np.exp(x - x.max(1, keepdims=True))
    print(f"softmax {rows}x{cols} on {'the GPU' if gpu else 'the CPU interpreter'}: max error "
          f"{np.abs(y - e / e.sum(1, keepdims=True)).max():.2e}")
    print(softmax.ir(x, y, cols))


if __name__ == "__main__":
    main()
