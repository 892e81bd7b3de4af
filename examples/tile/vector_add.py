"""Vector add and a fused elementwise chain as tile kernels (any tile size, masked edges for free)."""
import numpy as np

import tegula.tile as tt


@tt.kernel
def vector_add(x, y, out, T: tt.Constant[int]):
    i = tt.bid(0)
    tt.store(out, index=(i,), tile=tt.load(x, index=(i,), shape=(T,)) + tt.load(y, index=(i,), shape=(T,)))


@tt.kernel
def chain(x, y, out, T: tt.Constant[int]):
    i = tt.bid(0)
    a = tt.load(x, index=(i,), shape=(T,))
    tt.store(out, index=(i,), tile=tt.exp(-a * a) * tt.load(y, index=(i,), shape=(T,)) + 0.5 * a)


if __name__ == "__main__":
    n, T = 100_000, 1000
    x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    out = np.empty_like(x)
    tt.launch(vector_add, grid=-(-n // T), args=(x, y, out, T), interpret=True)
    print("vector_add error", np.abs(out - (x + y)).max())
    tt.launch(chain, grid=-(-n // T), args=(x, y, out, T), interpret=True)
    print("chain error", np.abs(out - (np.exp(-x * x) * y + 0.5 * x)).max())
