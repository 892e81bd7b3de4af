"""Layernorm per row and a row-wise cumulative sum as tile kernels (run on the CPU interpreter here)."""
import numpy as np

import tegula.tile as tt


@tt.kernel
def layernorm(x, w, b, out, C: tt.Constant[int], eps: tt.Constant[float]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C))
    mean = tt.sum(v, axis=1, keepdims=True) / C
    d = v - mean
    var = tt.sum(d * d, axis=1, keepdims=True) / C
    y = d * tt.rsqrt(var + eps) * tt.load(w, index=(0, 0), shape=(1, C)) + tt.load(b, index=(0, 0), shape=(1, C))
    tt.store(out, index=(row, 0), tile=y)


@tt.kernel
def row_cumsum(x, out, C: tt.Constant[int]):
    row = tt.bid(0)
    tt.store(out, index=(row, 0), tile=tt.cumsum(tt.load(x, index=(row, 0), shape=(1, C)), axis=1))


if __name__ == "__main__":
    x = np.random.randn(16, 300).astype(np.float32)
    w, b = np.ones((1, 300), np.float32), np.zeros((1, 300), np.float32)
    out = np.empty_like(x)
    tt.launch(layernorm, grid=16, args=(x, w, b, out, 300, 1e-5), interpret=True)
    ref = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    print("layernorm error", np.abs(out - ref).max())
    tt.launch(row_cumsum, grid=16, args=(x, out, 300), interpret=True)
    print("cumsum error", np.abs(out - np.cumsum(x, 1)).max())
