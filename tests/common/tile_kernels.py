"""Tile kernels shared by the CPU (interpreter) and GPU test suites, with NumPy references."""
import numpy as np

import tegula.tile as tt


@tt.kernel
def vadd(x, y, out, T: tt.Constant[int]):
    i = tt.bid(0)
    tt.store(out, index=(i,), tile=tt.load(x, index=(i,), shape=(T,)) + tt.load(y, index=(i,), shape=(T,)))


@tt.kernel
def chain(x, y, out, T: tt.Constant[int]):
    i = tt.bid(0)
    a = tt.load(x, index=(i,), shape=(T,))
    b = tt.load(y, index=(i,), shape=(T,))
    tt.store(out, index=(i,), tile=tt.exp(-a * a) * b + 0.5 * a)


def chain_ref(x, y):
    x64 = x.astype(np.float64)
    return np.exp(-x64 * x64) * y + 0.5 * x64


@tt.kernel
def softmax(x, out, C: tt.Constant[int]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C), padding="neg_inf")
    e = tt.exp(v - tt.max(v, axis=1, keepdims=True))
    tt.store(out, index=(row, 0), tile=e / tt.sum(e, axis=1, keepdims=True))


def softmax_ref(x):
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


@tt.kernel
def layernorm(x, w, b, out, C: tt.Constant[int], eps: tt.Constant[float]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C))
    mean = tt.sum(v, axis=1, keepdims=True) / C
    d = v - mean
    var = tt.sum(d * d, axis=1, keepdims=True) / C
    y = d * tt.rsqrt(var + eps) * tt.load(w, index=(0, 0), shape=(1, C)) + tt.load(b, index=(0, 0), shape=(1, C))
    tt.store(out, index=(row, 0), tile=y)


def layernorm_ref(x, w, b, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(1, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps) * w + b


@tt.kernel
def total(x, out, T: tt.Constant[int]):
    acc = tt.zeros((T,), tt.float32)
    for t in range(tt.bid(0), tt.num_tiles(x, 0, (T,)), tt.num_blocks(0)):
        acc += tt.load(x, index=(t,), shape=(T,))
    tt.atomic_add(out, (tt.arange(1),), tt.sum(acc, keepdims=True))


@tt.kernel
def row_cumsum(x, out, C: tt.Constant[int]):
    row = tt.bid(0)
    tt.store(out, index=(row, 0), tile=tt.cumsum(tt.load(x, index=(row, 0), shape=(1, C)), axis=1))


@tt.kernel
def clamp_rows(x, out, limit, C: tt.Constant[int]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C))
    m = tt.max(v)
    if m > limit:
        v = tt.minimum(v, limit)
    else:
        v = v * 2
    n = 0
    while n < 3:
        n += 1
    tt.store(out, index=(row, 0), tile=v + n)


def clamp_rows_ref(x, limit):
    out = np.where(x.max(1, keepdims=True) > limit, np.minimum(x, limit), x * 2)
    return out + 3


def combine_max_abs(a, b):
    # associative and commutative, as reduce requires (the GPU combines partial results in a tree)
    return tt.maximum(tt.abs(a), tt.abs(b))


@tt.kernel
def custom_reduce_scan(x, out_r, out_s, C: tt.Constant[int]):
    row = tt.bid(0)
    v = tt.load(x, index=(row, 0), shape=(1, C))
    tt.store(out_r, index=(row, 0), tile=tt.reduce(v, 1, combine_max_abs, 0.0, keepdims=True))
    tt.store(out_s, index=(row, 0), tile=tt.scan(v, 1, lambda a, b: tt.maximum(a, b), -1e30))


@tt.kernel
def permute_gather(x, idx, out, hist, T: tt.Constant[int]):
    i = tt.bid(0)
    offs = tt.arange(T) + i * T
    mask = offs < x.shape[0]
    src = tt.gather(idx, (offs,), mask=mask)
    vals = tt.gather(x, (src,), mask=mask)
    tt.scatter(out, (offs,), vals * 2, mask=mask)
    tt.atomic_add(hist, (src % 4,), tt.full((T,), 1, tt.int32), mask=mask)
