"""Matrix products as tile kernels: a @ b, act(a @ b + bias) with the epilogue fused, and a batched product.
On an H100/H200 the K loop runs on the tensor cores (wgmma fed by the bulk copy engine, a persistent
warp-specialised kernel); elsewhere, and with interpret=True, the same kernels run on the CPU interpreter.

    python examples/tile/matmul.py
"""
import os
import sys

import numpy as np

import tegula.core as tc
import tegula.tile as tt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "common"))
import matmul_kernels as K  # noqa: E402  (the kernels, shared with the tests and the bench)


def main():
    rng = np.random.default_rng()
    gpu = tc.driver_info()["available"]
    m, n, k = (2048, 2048, 2048) if gpu else (192, 160, 128)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    runs = [("a @ b", K.matmul, (a, b, c, 128, 256, 64, 8), a.astype(np.float64) @ b),
            ("gelu(a @ b + bias)", K.matmul_bias_act, (a, b, bias, c, 128, 256, 64, 8, "gelu"),
             K.gelu_ref(a.astype(np.float64) @ b + bias))]
    where = "the GPU" if gpu else "the CPU interpreter"
    for label, kern, args, ref in runs:
        if gpu:
            import torch

            dev = [torch.as_tensor(x, device="cuda") if isinstance(x, np.ndarray) else x for x in args]
            tt.launch(kern, grid=K.grid(m, n, 128, 256), args=tuple(dev))
            out = dev[3 if kern is K.matmul_bias_act else 2].cpu().numpy()
        else:
            tt.launch(kern, grid=K.grid(m, n, 128, 256), args=args, interpret=True)
            out = args[3 if kern is K.matmul_bias_act else 2]
        print(f"{label:20s} {m}x{n}x{k} float16 on {where}: relative error {K.rel_error(out, ref):.1e}")
    batch = 4
    A = rng.standard_normal((batch, 128, 64)).astype(np.float16)
    B = rng.standard_normal((batch, 64, 96)).astype(np.float16)
    C = np.full((batch, 128, 96), np.nan, np.float16)
    tt.launch(K.bmm, grid=(K.grid(128, 96, 64, 32), batch),
              args=(A.reshape(-1, 64), B.reshape(-1, 96), C.reshape(-1, 96), 128, 64, 32, 64), interpret=True)
    print(f"batched {batch}x(128x64 @ 64x96) on the CPU interpreter: relative error "
          f"{K.rel_error(C, A.astype(np.float64) @ B):.1e}")
    print(K.matmul.compile((a, b, c, 128, 256, 64, 8), interpret=True).ir)


if __name__ == "__main__":
    main()
