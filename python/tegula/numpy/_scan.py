"""Long scans (cumsum/cumprod over few rows of many elements) spread over the whole GPU: each row is cut into
chunks; one tile kernel reduces every chunk, a small scan of those totals gives each chunk its starting value, and
a second tile kernel scans the chunks again from there. The array engine's own scan gives each row to one block,
which is right for many rows and leaves most of the GPU idle for one long row. Tile kernels, so the interpreter
runs the same code on the CPU.

Which scan a cumsum takes (this one, the engine's, or a single-pass library scan): _scan_engines.

scan_by_doubling: a running combination of any elementwise function in log2(n) fused steps (complex cumprod, the
running max/min/logical ufunc accumulates), for scans the engine has no op for."""
from __future__ import annotations

import math

import tegula.tile as _tt

from . import _core
from ._creation import ascontiguousarray, empty
from ._indexing import _launch
from ._manipulation import concatenate, moveaxis
from ._scan_engines import result_dtype

_T = 4096           # elements per tile
_TARGET_CHUNKS = 2048


@_tt.kernel
def _totals(x, totals, C: _tt.int64, TILES: _tt.int64, MUL: _tt.Constant[bool], T: _tt.Constant[int]):
    """totals[r, c]: the sum (product) of chunk c of row r: tiles c*TILES .. (c+1)*TILES-1."""
    c = _tt.bid(0)
    r = _tt.bid(1)
    acc = _tt.full((1, 1), 1 if MUL else 0, totals.dtype)
    for t in range(TILES):
        i = c.astype(_tt.int64) * TILES + t
        v = _tt.load(x, index=(r, i), shape=(1, T)).astype(totals.dtype)
        if MUL:
            inside = _tt.expand_dims(_tt.arange(T).astype(_tt.int64), 0) + i * T < C
            acc = acc * _tt.prod(_tt.where(inside, v, 1), axis=1, keepdims=True)
        else:
            acc = acc + _tt.sum(v, axis=1, keepdims=True)
    _tt.store(totals, index=(r, c), tile=acc)


@_tt.kernel
def _scan_chunks(x, starts, out, C: _tt.int64, TILES: _tt.int64, MUL: _tt.Constant[bool], T: _tt.Constant[int]):
    """out[r, chunk c] = the scan of the chunk, continued from starts[r, c]."""
    c = _tt.bid(0)
    r = _tt.bid(1)
    carry = _tt.load(starts, index=(r, c), shape=(1, 1))
    for t in range(TILES):
        i = c.astype(_tt.int64) * TILES + t
        v = _tt.load(x, index=(r, i), shape=(1, T)).astype(starts.dtype)
        if MUL:
            inside = _tt.expand_dims(_tt.arange(T).astype(_tt.int64), 0) + i * T < C
            v = _tt.where(inside, v, 1)
            s = _tt.cumprod(v, axis=1) * carry
        else:
            s = _tt.cumsum(v, axis=1) + carry
        _tt.store(out, index=(r, i), tile=s.astype(out.dtype))
        carry = _tt.prod(v, axis=1, keepdims=True) * carry if MUL else _tt.sum(v, axis=1, keepdims=True) + carry


def scan(op, a, axis):
    """cumsum/cumprod of a along `axis`, as chunks (see the module notes), in NumPy's result dtype."""
    mul = op == "cumprod"
    x = moveaxis(a, axis, -1)
    shape = x.shape
    cols = shape[-1]
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    x = ascontiguousarray(x).reshape(rows, cols)
    res = result_dtype(a._dtype_name)
    acc = "float32" if res in ("float16", "bfloat16") else res
    tiles = -(-cols // _T)
    per_row = max(1, min(tiles, -(-_TARGET_CHUNKS // rows)))
    tiles_per_chunk = -(-tiles // per_row)
    chunks = -(-tiles // tiles_per_chunk)
    dev = _core.device_of(a)
    totals = empty((rows, chunks), acc, device=dev)
    _launch(_totals, (chunks, rows), (x, totals, cols, tiles_per_chunk, mul, _T), a._device_id)
    # Each chunk starts from the scan of the totals before it (exclusive): shift the inclusive scan right.
    inc = totals._scan("cumprod" if mul else "cumsum", 1)  # at most _TARGET_CHUNKS a row: the engine's scan
    starts = empty((rows, chunks), acc, device=dev)
    starts[:, :1] = 1 if mul else 0
    if chunks > 1:
        starts[:, 1:] = inc[:, :-1]
    out = empty((rows, cols), res, device=dev)
    _launch(_scan_chunks, (chunks, rows), (x, starts, out, cols, tiles_per_chunk, mul, _T), a._device_id)
    return moveaxis(out.reshape(shape), -1, axis)


def scan_by_doubling(a, axis, combine):
    """The inclusive running `combine(later, earlier)` along `axis` in log2(n) fused steps: after step d each element
    holds the combination of the 2d elements ending at it (complex cumprod, the running max/min/logical ufunc
    accumulates)."""
    if not -a.ndim <= axis < a.ndim:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    x = moveaxis(a, axis, -1)
    n = x.shape[-1]
    d = 1
    while d < n:
        x = _core.settled(concatenate([x[..., :d], combine(x[..., d:], x[..., :-d])], axis=-1))
        d *= 2
    return moveaxis(x, -1, axis)
