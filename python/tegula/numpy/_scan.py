"""Long scans (cumsum/cumprod over few rows of many elements) spread over the whole GPU: each row is cut into
chunks; one tile kernel reduces every chunk, a small scan of those totals gives each chunk its starting value, and
a second tile kernel scans the chunks again from there. The array engine's own scan gives each row to one block,
which is right for many rows and leaves most of the GPU idle for one long row. Tile kernels, so the interpreter
runs the same code on the CPU.

A single long row on a GPU goes to CUB's single-pass scan instead (cpp/tegula/libs/cub_scan.hpp): it reads each
element once, where the chunked scan reads it twice. 16-bit floats and complex numbers stay on the chunked scan or
the engine."""
from __future__ import annotations

import math

import numpy as _np

import tegula.tile as _tt

from . import _core

_T = 4096           # elements per tile
_MIN_COLS = 1 << 15  # shorter rows: the engine's scan
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


def applies(a, axis):
    """True on a GPU when the scan of a along `axis` is long enough, over few enough rows, to be split into chunks
    (on the CPU the engine's scan is already one pass per row)."""
    if a._device_id < 0 or a._dtype_name.startswith("complex") or not -a.ndim <= axis < a.ndim:
        return False
    cols = a.shape[axis]
    rows = a.size // cols if cols else 0
    return cols >= _MIN_COLS and 0 < rows < 256


_CUB_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")


def cub_applies(a, axis):
    """True when the scan is of one long row on a GPU with CUB available, in a dtype CUB's scan takes."""
    from . import _sort

    if not applies(a, axis) or a._dtype_name not in _CUB_TYPES:
        return False
    return a.size == a.shape[axis] and _sort._use_cub(a)


def single_pass_scan(op, a, axis):
    """cumsum/cumprod of the single row of a along `axis` in one pass, in NumPy's result dtype. Which engine runs
    (tegula's chained scan for float32, CUB's for the rest) and its tile are chosen in C++
    (cpp/tegula/libs/scan_arrays.hpp; _tegula.scan_engine / set_scan_engine)."""
    return _core._tegula.inclusive_scan(a, op == "cumprod")


def result_dtype(dtype_name):
    """NumPy's cumsum/cumprod result: bool and signed integers widen to int64, unsigned ones to uint64."""
    if dtype_name == "bool" or dtype_name.startswith("int"):
        return "int64"
    if dtype_name.startswith("uint"):
        return "uint64"
    return dtype_name


def scan(op, a, axis):
    """cumsum/cumprod of a along `axis`, as chunks (see the module notes), in NumPy's result dtype."""
    from ._creation import ascontiguousarray, empty
    from ._manipulation import moveaxis
    from ._reductions import cumprod, cumsum

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
    from ._indexing import _launch

    _launch(_totals, (chunks, rows), (x, totals, cols, tiles_per_chunk, mul, _T), a._device_id)
    # Each chunk starts from the scan of the totals before it (exclusive): shift the inclusive scan right.
    inc = cumprod(totals, axis=1) if mul else cumsum(totals, axis=1)
    starts = empty((rows, chunks), acc, device=dev)
    starts[:, :1] = 1 if mul else 0
    if chunks > 1:
        starts[:, 1:] = inc[:, :-1]
    out = empty((rows, cols), res, device=dev)
    _launch(_scan_chunks, (chunks, rows), (x, starts, out, cols, tiles_per_chunk, mul, _T), a._device_id)
    return moveaxis(out.reshape(shape), -1, axis)
