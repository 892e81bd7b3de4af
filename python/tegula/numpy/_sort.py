"""Sorting and searching: sort, argsort, unique (and the array API's unique_*), searchsorted, and the device sort
behind Generator.permutation. A stable LSD radix sort written as tile kernels, so it runs -- and is tested -- on
the CPU interpreter exactly as on the GPU:

1. keys: each element becomes an unsigned radix key whose integer order is NumPy's sort order (floats: sign
   flipped, negative numbers complemented, -0.0 as +0.0, every NaN last; signed ints: sign bit flipped);
2. per 4-bit digit, least significant first: a block histogram (one-hot tile, summed), a digit-major exclusive
   scan of the histograms (a fused tegula.numpy cumsum), and a stable scatter (each key's rank among equal digits
   in its tile from a cumulative sum of the one-hot tile);
3. the payload carried through the passes is the element's flat index: argsort is that payload, sort a gather;
   sorting along an axis of several rows adds passes over the row number (most significant).

On a GPU the passes of step 2 are CUB's onesweep radix sort instead (8-bit digits, compiled by NVRTC: see
cpp/tegula/libs/cub_sort.hpp), on the same keys; `sort` of one row sorts the keys alone and maps them back
(`_unkeys`). Without the CCCL headers the tile passes run, and a PerformanceWarning says so once.
"""
from __future__ import annotations

import math
import operator

import numpy as _np

import tegula.tile as _tt

from . import _core, _cub
from ._common import _arr, _arrays_on_one_device, _axis
from . import _ufuncs
from ._common import _parts
from ._creation import arange, ascontiguousarray, empty, full
from ._dtypes import result_type
from ._indexing import _launch, nonzero_flat
from ._manipulation import broadcast_to, concatenate, expand_dims, moveaxis, stack
from ._reductions import cumsum, sum as _sum
from ._selection import take_along_axis

_T = 1024
_RADIX = 16  # 4-bit digits: the (T, 16) one-hot tile stays small


@_tt.kernel
def _keys(x, out, n: _tt.int64, DESC: _tt.Constant[bool], T: _tt.Constant[int], SIGNED_ZERO: _tt.Constant[bool]):
    """out[i]: the radix key of x[i] (unsigned; the integer order is NumPy's sort order, NaN last). -0.0 gets the
    key of +0.0 unless SIGNED_ZERO (then it sorts just before +0.0, and _unkeys gives it back)."""
    b = _tt.bid(0)
    v = _tt.load(x, index=(b,), shape=(T,))
    if x.dtype == _tt.float64:
        if not SIGNED_ZERO:
            v = v + 0.0
        u = _tt.bitcast(v, _tt.uint64)
        k = _tt.where((u >> 63) == 1, ~u, u | 0x8000000000000000)
        k = _tt.where(v != v, ~(u & 0), k)  # all ones: NaN sorts last
    elif x.dtype == _tt.float32:
        if not SIGNED_ZERO:
            v = v + 0.0
        u = _tt.bitcast(v, _tt.uint32)
        k = _tt.where((u >> 31) == 1, ~u, u | 0x80000000)
        k = _tt.where(v != v, 0xFFFFFFFF, k)
    elif x.dtype == _tt.float16 or x.dtype == _tt.bfloat16:
        if not SIGNED_ZERO:
            v = v + 0.0
        u = _tt.bitcast(v, _tt.uint16).astype(_tt.uint32)
        k = _tt.where((u >> 15) == 1, ~u & 0xFFFF, u | 0x8000)
        k = _tt.where(v != v, 0xFFFF, k)
    elif x.dtype == _tt.int64:
        k = _tt.bitcast(v, _tt.uint64) ^ 0x8000000000000000
    elif x.dtype == _tt.int32:
        k = _tt.bitcast(v, _tt.uint32) ^ 0x80000000
    elif x.dtype == _tt.int16:
        k = (_tt.bitcast(v, _tt.uint16) ^ 0x8000).astype(_tt.uint32)
    elif x.dtype == _tt.int8:
        k = (_tt.bitcast(v, _tt.uint8) ^ 0x80).astype(_tt.uint32)
    elif x.dtype == _tt.uint64:
        k = v
    else:  # bool, uint8, uint16, uint32
        k = v.astype(_tt.uint32)
    if DESC:
        k = ~k
    _tt.store(out, index=(b,), tile=k.astype(out.dtype))


@_tt.kernel
def _unkeys(keys, out, n: _tt.int64, DESC: _tt.Constant[bool], T: _tt.Constant[int]):
    """out[i]: the value whose radix key (made with SIGNED_ZERO) is keys[i]; NaN keys give NaN."""
    b = _tt.bid(0)
    k = _tt.load(keys, index=(b,), shape=(T,))
    if DESC:
        k = ~k
    if out.dtype == _tt.float64:
        v = _tt.bitcast(_tt.where((k >> 63) == 1, k ^ 0x8000000000000000, ~k), _tt.float64)
    elif out.dtype == _tt.float32:
        v = _tt.bitcast(_tt.where((k >> 31) == 1, k ^ 0x80000000, ~k), _tt.float32)
    elif out.dtype == _tt.float16 or out.dtype == _tt.bfloat16:
        h = k & 0xFFFF
        v = _tt.bitcast(_tt.where((h >> 15) == 1, h ^ 0x8000, ~h & 0xFFFF).astype(_tt.uint16), out.dtype)
    elif out.dtype == _tt.int64:
        v = _tt.bitcast(k ^ 0x8000000000000000, _tt.int64)
    elif out.dtype == _tt.int32:
        v = _tt.bitcast(k ^ 0x80000000, _tt.int32)
    elif out.dtype == _tt.int16:
        v = _tt.bitcast(((k ^ 0x8000) & 0xFFFF).astype(_tt.uint16), _tt.int16)
    elif out.dtype == _tt.int8:
        v = _tt.bitcast(((k ^ 0x80) & 0xFF).astype(_tt.uint8), _tt.int8)
    elif out.dtype == _tt.bool_:
        v = (k & 0xFF) != 0
    elif out.dtype == _tt.uint64:
        v = k
    else:  # uint8, uint16, uint32
        v = k & (0xFF if out.dtype == _tt.uint8 else 0xFFFF if out.dtype == _tt.uint16 else 0xFFFFFFFF)
    _tt.store(out, index=(b,), tile=v.astype(out.dtype))


@_tt.kernel
def _hist(keys, hist, n: _tt.int64, shift: _tt.int32, T: _tt.Constant[int], R: _tt.Constant[int]):
    """hist[b, d]: how many keys of block b have digit d at `shift`."""
    b = _tt.bid(0)
    k = _tt.load(keys, index=(b,), shape=(T,))
    valid = _tt.arange(T).astype(_tt.int64) + b.astype(_tt.int64) * T < n
    d = _tt.where(valid, ((k >> shift.astype(keys.dtype)) & (R - 1)).astype(_tt.int32), R)
    onehot = (_tt.expand_dims(d, 1) == _tt.expand_dims(_tt.arange(R), 0)).astype(_tt.int32)
    _tt.store(hist, index=(b, 0), tile=_tt.sum(onehot, axis=0, keepdims=True).astype(hist.dtype))


@_tt.kernel
def _scatter(keys, vals, offsets, keys_out, vals_out, n: _tt.int64, shift: _tt.int32, T: _tt.Constant[int],
             R: _tt.Constant[int]):
    """Stable scatter of block b's (key, value) pairs to offsets[b, digit] + their rank among equal digits."""
    b = _tt.bid(0)
    k = _tt.load(keys, index=(b,), shape=(T,))
    v = _tt.load(vals, index=(b,), shape=(T,))
    valid = _tt.arange(T).astype(_tt.int64) + b.astype(_tt.int64) * T < n
    d = _tt.where(valid, ((k >> shift.astype(keys.dtype)) & (R - 1)).astype(_tt.int32), R)
    onehot = (_tt.expand_dims(d, 1) == _tt.expand_dims(_tt.arange(R), 0)).astype(_tt.int64)
    rank = _tt.sum(onehot * _tt.cumsum(onehot, axis=0), axis=1) - 1
    base = _tt.sum(onehot * _tt.load(offsets, index=(b, 0), shape=(1, R)), axis=1)
    dest = base + rank
    _tt.scatter(keys_out, (dest,), k, mask=valid)
    _tt.scatter(vals_out, (dest,), v, mask=valid)


def _radix_pass(keys, vals, shift, n, dev):
    """One stable pass over the 4-bit digit at `shift`: new (keys, vals)."""
    blocks = -(-n // _T)
    hist = empty((blocks, _RADIX), "int64", device=_core.device_of(keys))
    _launch(_hist, blocks, (keys, hist, n, _np.int32(shift), _T, _RADIX), dev)
    flat = hist.T.reshape(-1)
    offsets = (cumsum(flat) - flat).reshape(_RADIX, blocks).T.copy()
    k2 = empty((n,), keys._dtype_name, device=_core.device_of(keys))
    v2 = empty((n,), vals._dtype_name, device=_core.device_of(keys))
    _launch(_scatter, blocks, (keys, vals, offsets, k2, v2, n, _np.int32(shift), _T, _RADIX), dev)
    return k2, v2


def _key_bits(name):
    return {"float64": 64, "int64": 64, "uint64": 64, "float32": 32, "int32": 32, "uint32": 32,
            "float16": 16, "bfloat16": 16, "int16": 16, "uint16": 16, "int8": 8, "uint8": 8, "bool": 8}[name]


def _cub_sort(keys, vals, end_bit):
    """(keys, vals) sorted stably on the keys' low end_bit bits by CUB (vals may be None); the inputs' memory is the
    sort's scratch (cpp/tegula/libs/sort_arrays.hpp)."""
    return _core._tegula.radix_sort(keys, vals, end_bit, overwrite_inputs=True)


def _argsort_rows(x, descending=False):
    """Stable argsort of each row of the C-contiguous 2-D array x (flat indices into x), as a flat int64 array."""
    rows, cols = x.shape
    if x._dtype_name.startswith("complex"):
        # NumPy's order: the numbers, then those with a NaN imaginary part, a NaN real part, both ([R + Rj, R + nanj,
        # nan + Rj, nan + nanj]), each by real then imaginary part: stable sorts by the imaginary parts, then the
        # real parts, then that class (0 to 3), each in the order the one before left.
        by_imag = _argsort_rows(ascontiguousarray(x.imag), descending)
        real_then = x.real.reshape(-1)[by_imag].reshape(rows, cols)
        order = by_imag[_argsort_rows(real_then, descending)]
        z = x.reshape(-1)[order]
        re, im = z.real, z.imag
        cls = ((re != re).astype("int8") * 2 + (im != im).astype("int8")).reshape(rows, cols)
        return order[_argsort_rows(ascontiguousarray(cls), descending)]
    n = rows * cols
    dev = x._device_id
    if n == 0:
        return empty((0,), "int64", device=_core.device_of(x))
    bits = _key_bits(x._dtype_name)
    kd = "uint64" if bits == 64 else "uint32"
    flat = x.reshape(-1)
    keys = empty((n,), kd, device=_core.device_of(x))
    _launch(_keys, -(-n // _T), (flat, keys, n, bool(descending), _T, False), dev)
    row_bits = max(1, math.ceil(math.log2(rows))) if rows > 1 else 0
    if _cub.ready(x):
        vals = arange(n, dtype="int32" if n < 2 ** 31 else "int64", device=_core.device_of(x))
        keys, vals = _cub_sort(keys, vals, bits)
        if rows > 1:
            keys, vals = _cub_sort(ascontiguousarray((vals // cols).astype("uint32")), vals, row_bits)
        return vals.astype("int64")
    vals = arange(n, dtype="int64", device=_core.device_of(x))
    for shift in range(0, bits, 4):
        keys, vals = _radix_pass(keys, vals, shift, n, dev)
    if rows > 1:
        keys = (vals // cols).astype("uint32")
        for shift in range(0, row_bits, 4):
            keys, vals = _radix_pass(keys, vals, shift, n, dev)
    return vals


_NATIVE_KEYS = ("float32", "float64", "int32", "int64", "uint32", "uint64")


def _sort_one_row(c, descending):
    """The sorted values of the contiguous 1-D c through CUB: keys alone (-0.0 kept, just before +0.0). NumPy's 4-
    and 8-byte types sort ascending as they are (CUB reads c and writes the result: no key-mapping passes; NaNs come
    back positive); the others, and descending sorts, through unsigned keys mapped back."""
    n = c.shape[0]
    if c._dtype_name in _NATIVE_KEYS and not descending:
        return _core._tegula.radix_sort(c, None, 8 * c.itemsize)[0]  # c is read, left alone
    bits = _key_bits(c._dtype_name)
    keys = empty((n,), "uint64" if bits == 64 else "uint32", device=_core.device_of(c))
    _launch(_keys, -(-n // _T), (c, keys, n, bool(descending), _T, True), c._device_id)
    keys, _ = _cub_sort(keys, None, bits)
    r = empty((n,), c._dtype_name, device=_core.device_of(c))
    _launch(_unkeys, -(-n // _T), (keys, r, n, bool(descending), _T), c._device_id)
    return r


def _along_last(a, axis):
    a = _arr(a)
    if axis is None:
        return a.reshape(-1), None
    if a.ndim == 0:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    ax = axis % a.ndim if -a.ndim <= axis < a.ndim else None
    if ax is None:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return moveaxis(a, ax, -1), ax


def _rows(a, axis, order):
    """What sort and argsort work on: (the array with `axis` moved last, C-contiguous and flat, the axis it came
    from or None, its shape, rows, cols)."""
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    x, ax = _along_last(a, axis)
    shape = x.shape
    cols = shape[-1] if len(shape) else 1
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    return ascontiguousarray(x).reshape(-1), ax, shape, rows, cols


def _check_kind(kind):
    """NumPy's sort kinds: any string starting with q, h, m or s (in either case), or None. Every kind sorts
    stably here."""
    if kind is None:
        return
    if isinstance(kind, bytes):
        kind = kind.decode("latin-1")
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    if kind[:1].lower() not in ("q", "h", "m", "s"):
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got '{kind}')")


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=True):
    """Stable (every kind is stable here) argsort along `axis`; NaNs last as in NumPy."""
    _check_kind(kind)
    if axis is not None and _arr(a).ndim == 0:  # NumPy ravels a 0-d array first (its axes are then 0 and -1)
        a = _arr(a).reshape(1)
    c, ax, shape, rows, cols = _rows(a, axis, order)
    flat = _argsort_rows(c.reshape(rows, cols), descending)
    idx = (flat % cols if cols else flat).reshape(shape)
    return idx if ax is None else moveaxis(idx, -1, ax)


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=True):
    _check_kind(kind)
    c, ax, shape, rows, cols = _rows(a, axis, order)
    if rows == 1 and c.shape[0] > 1 and not c._dtype_name.startswith("complex") and _cub.ready(c):
        r = _sort_one_row(c, descending).reshape(shape)
        return r if ax is None else moveaxis(r, -1, ax)
    perm = _argsort_rows(c.reshape(rows, cols), descending)
    r = c[perm].reshape(shape)
    return r if ax is None else moveaxis(r, -1, ax)


def _check_kth(kth, n, kind):
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got '{kind}')")
    ks = _np.asarray(kth)
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    for k in ks.reshape(-1):
        k = int(k) + (n if k < 0 else 0)
        if not 0 <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


def _partition_input(a, kth, axis, kind):
    """(a, axis) for partition/argpartition (flattened for axis None), with kth and kind checked as NumPy."""
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), -1
    x, _ = _along_last(a, axis)
    _check_kth(kth, x.shape[-1] if x.ndim else 0, kind)
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """NumPy's partition contract, met by a full (stable) sort: element kth is where a sort puts it, no larger
    element before it and no smaller one after. NumPy's order of the other elements is unspecified, and differs."""
    a, axis = _partition_input(a, kth, axis, kind)
    return sort(a, axis=axis, order=order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition a (see partition): those of a stable sort."""
    a, axis = _partition_input(a, kth, axis, kind)
    return argsort(a, axis=axis, order=order)


def lexsort(keys, axis=-1):
    """Indices sorting by several keys, the last one primary: one stable argsort per key, from the first (least
    significant) to the last. keys: a sequence of same-shaped arrays, or an array whose first axis lists them."""
    if isinstance(keys, _core.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else [keys]
    elif isinstance(keys, _np.ndarray) or not isinstance(keys, (list, tuple)):
        keys = list(_np.asarray(keys)) if _np.ndim(keys) else [keys]
    keys = _arrays_on_one_device(keys)
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if any(k.shape != keys[0].shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    shape = keys[0].shape
    if not shape:
        return _arr(_np.array(0, dtype=_np.int64), keys[0])
    x, ax = _along_last(keys[0], axis)
    n = x.shape[-1]
    perm = broadcast_to(arange(n, dtype="int64", device=_core.device_of(keys[0])), x.shape).copy()
    for k in keys:
        k_last, _ = _along_last(k, axis)
        order = argsort(take_along_axis(k_last, perm, axis=-1), axis=-1)
        perm = take_along_axis(perm, order, axis=-1)
    return perm if ax is None else moveaxis(perm, -1, ax)


def searchsorted(a, v, side="left", sorter=None):
    """Indices where v's elements would be inserted into the sorted 1-D a (NumPy's order: NaN last)."""
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got '{side}')")
    a = _arr(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else "object of too small depth for desired array")
    if sorter is not None:
        a = a[_arr(sorter, a)]
    scalar = not isinstance(v, _core.ndarray) and _np.ndim(v) == 0
    vv = _arr(v, a)

    if a._dtype_name.startswith("complex") or vv._dtype_name.startswith("complex"):
        r = _searchsorted_by_counting(a, vv.reshape(-1), side)
        return r.reshape(()) if scalar else r.reshape(vv.shape)
    common = _np.dtype(result_type(a, vv)).name if "bfloat16" not in (a._dtype_name, vv._dtype_name) else "float32"
    ka, kv = _radix_keys(a.astype(common)), _radix_keys(vv.reshape(-1).astype(common))
    n, m = ka.shape[0], kv.shape[0]
    out = empty((m,), "int64", device=_core.device_of(a))
    if m:
        steps = max(1, math.ceil(math.log2(n + 1)))
        _launch(_bsearch, -(-m // _T), (ka, kv, out, n, m, steps, side == "right", _T), a._device_id)
    r = out.reshape(vv.shape)
    return r.reshape(()) if scalar else r


def _sorts_before(x, y):
    """x before y in NumPy's sort order of complex values: first the numbers, then those with a NaN imaginary part,
    a NaN real part, both (R + Rj, R + nanj, nan + Rj, nan + nanj); within each, by real then imaginary part."""
    (xr, xi), (yr, yi) = _parts(x.astype("complex128")), _parts(y.astype("complex128"))
    xc = (xr != xr).astype("int8") * 2 + (xi != xi).astype("int8")
    yc = (yr != yr).astype("int8") * 2 + (yi != yi).astype("int8")
    same_re = (xr == yr) | ((xr != xr) & (yr != yr))
    return (xc < yc) | ((xc == yc) & ((xr < yr) | (same_re & (xi < yi))))


def _searchsorted_by_counting(a, v, side):
    """searchsorted for complex values (no radix key holds both parts): per value of v, the count of a's elements
    before it in NumPy's lexicographic order with NaNs last, from comparisons of v against all of a, in chunks of
    v. O(len(a) len(v)) work, said by a PerformanceWarning once the product passes 2^24."""
    n, m = a.shape[0], v.shape[0]
    if n * m > 1 << 24:
        import warnings

        from tegula.tile import PerformanceWarning

        warnings.warn(f"tegula.numpy.searchsorted of complex values compares all {m} values with all {n} sorted ones "
                      "(no binary search over complex keys yet)", PerformanceWarning, stacklevel=3)
    step = max(1, (1 << 24) // max(n, 1))
    parts = []
    for i in range(0, m, step):
        x = v[i:i + step][:, None]
        before = ~_sorts_before(x, a[None, :]) if side == "right" else _sorts_before(a[None, :], x)
        parts.append(_sum(before, axis=1).astype("int64"))
    if not parts:
        from ._creation import empty

        return empty((0,), "int64", device=_core.device_of(a))
    return parts[0] if len(parts) == 1 else concatenate(parts)


def _radix_keys(x):
    flat = ascontiguousarray(x).reshape(-1)
    kd = "uint64" if _key_bits(x._dtype_name) == 64 else "uint32"
    keys = empty((flat.shape[0],), kd, device=_core.device_of(x))
    if flat.shape[0]:
        _launch(_keys, -(-flat.shape[0] // _T), (flat, keys, flat.shape[0], False, _T, False), x._device_id)
    return keys


@_tt.kernel
def _bsearch(a, v, out, n: _tt.int64, m: _tt.int64, steps: _tt.int32, RIGHT: _tt.Constant[bool], T: _tt.Constant[int]):
    b = _tt.bid(0)
    q = _tt.load(v, index=(b,), shape=(T,))
    lo = _tt.zeros((T,), _tt.int64)
    hi = _tt.full((T,), 0, _tt.int64) + n
    for _ in range(steps):
        mid = (lo + hi) // 2
        x = _tt.gather(a, (_tt.minimum(mid, n - 1),))
        go_right = (x <= q) if RIGHT else (x < q)
        active = lo < hi
        lo = _tt.where(active & go_right, mid + 1, lo)
        hi = _tt.where(active & ~go_right, mid, hi)
    _tt.store(out, index=(b,), tile=lo)


# ---- unique -------------------------------------------------------------------------------------
def _unique_parts(ar, want_index, want_inverse, want_counts, equal_nan=True):
    x = _arr(ar).reshape(-1)
    n = x.shape[0]
    perm = argsort(x)
    s = x[perm]
    if n == 0:
        return s, perm, perm, perm
    nan = (s != s) if s._dtype_name.startswith(("float", "bfloat", "complex")) else None
    diff = s[1:] != s[:-1]
    if nan is not None and equal_nan:
        diff = diff & ~(nan[1:] & nan[:-1])
    first = concatenate([_arr(_np.array([True]), x), diff])
    starts = nonzero_flat(first)
    uniq = s[starts]
    index = perm[starts] if want_index else None
    counts = None
    if want_counts:
        ends = concatenate([starts[1:], _arr(_np.array([n], dtype=_np.int64), x)])
        counts = ends - starts
    inverse = None
    if want_inverse:
        from ._creation import empty
        from ._reductions import cumsum

        grp = cumsum(first.astype("int64")) - 1
        inverse = empty((n,), "int64", device=_core.device_of(x))
        inverse[perm] = grp
    return uniq, index, inverse, counts


def _unique_along(a, axis, want_index, want_inverse, want_counts):
    """unique(a, axis=axis): the distinct subarrays along `axis`, in lexicographic order of their elements (as
    NumPy's, which compares them field by field; NaNs are never equal here, as there). The subarrays are sorted by
    one stable argsort per element position, last position first."""
    if not -a.ndim <= axis < a.ndim:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    axis %= a.ndim
    x = moveaxis(a, axis, 0)
    n, rest = x.shape[0], x.shape[1:]
    m = math.prod(rest)
    dev = _core.device_of(a)
    if n == 0:
        none = empty((0,), "int64", device=dev)
        return moveaxis(x, 0, axis), none, none, none
    if m == 0:  # every subarray is empty, so all are equal: one of them, first seen at 0, n times
        zeros = arange(n, dtype="int64", device=dev) * 0
        return moveaxis(x[:1], 0, axis), zeros[:1], zeros, zeros[:1] + n
    r = ascontiguousarray(x).reshape(n, m)
    perm = arange(n, dtype="int64", device=dev)
    for j in range(m - 1, -1, -1):
        perm = perm[argsort(r[perm, j])]
    s = r[perm]
    first = concatenate([_arr(_np.array([True]), a), (s[1:] != s[:-1]).any(axis=1)]) if n > 1 else \
        _arr(_np.array([True]), a)
    starts = nonzero_flat(first)
    uniq = moveaxis(s[starts].reshape((starts.shape[0],) + rest), 0, axis)
    index = perm[starts] if want_index else None
    counts = None
    if want_counts:
        counts = concatenate([starts[1:], _arr(_np.array([n], dtype=_np.int64), a)]) - starts
    inverse = None
    if want_inverse:
        from ._reductions import cumsum

        inverse = empty((n,), "int64", device=dev)
        inverse[perm] = cumsum(first.astype("int64")) - 1
    return uniq, index, inverse, counts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    a = _arr(ar)
    if axis is not None:
        u, idx, inv, cnt = _unique_along(a, operator.index(axis), return_index, return_inverse, return_counts)
        out = [u] + [x for x, w in ((idx, return_index), (inv, return_inverse), (cnt, return_counts)) if w]
        return out[0] if len(out) == 1 else tuple(out)
    u, idx, inv, cnt = _unique_parts(a, return_index, return_inverse, return_counts, equal_nan)
    if inv is not None:
        inv = inv.reshape(a.shape)  # NumPy 2.x: the inverse has the input's shape
    out = [u] + [x for x, w in ((idx, return_index), (inv, return_inverse), (cnt, return_counts)) if w]
    return out[0] if len(out) == 1 else tuple(out)


def unique_values(x, /):
    return unique(x)


def unique_counts(x, /):
    u, c = unique(x, return_counts=True)
    return _np.lib._arraysetops_impl.UniqueCountsResult(u, c) if hasattr(_np.lib, "_arraysetops_impl") else (u, c)


def unique_inverse(x, /):
    u, i = unique(x, return_inverse=True)
    return _np.lib._arraysetops_impl.UniqueInverseResult(u, i) if hasattr(_np.lib, "_arraysetops_impl") else (u, i)


def unique_all(x, /):
    u, idx, inv, c = unique(x, return_index=True, return_inverse=True, return_counts=True)
    return _np.lib._arraysetops_impl.UniqueAllResult(u, idx, inv, c) if hasattr(_np.lib, "_arraysetops_impl") \
        else (u, idx, inv, c)


# ---- order statistics ----------------------------------------------------------------------------
_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
            "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
            "normal_unbiased")
_DISCRETE = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")
# Hyndman and Fan's continuous methods as NumPy's (alpha, beta): virtual index n q + alpha + q (1 - alpha - beta) - 1
_HYNDMAN_FAN = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
                "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}


def _hyndman_fan_value(xs, n, qv, method):
    """One quantile by NumPy's virtual-index rules for the methods beyond linear/lower/higher/nearest/midpoint:
    xs sorted along its last axis, n the number of values that count (a float, or an array of shape rest + (1,)
    for nanquantile); the result keeps a last axis of length 1."""
    dev_n = isinstance(n, _core.ndarray)
    nn = n if dev_n else full(xs.shape[:-1] + (1,), float(n), "float64", device=_core.device_of(xs))
    if method in ("inverted_cdf", "closest_observation"):  # discrete: one of the two neighbours
        idx = nn * qv - 1 - (0.5 if method == "closest_observation" else 0.0)
        prev = _ufuncs.floor(idx)
        gamma = idx - prev
        take_prev = (gamma == 0) if method == "inverted_cdf" else (gamma == 0) & (prev % 2 == 1)
        at = _ufuncs.maximum(_ufuncs.where(take_prev, prev, prev + 1), 0)
        at = _ufuncs.minimum(at, _ufuncs.maximum(nn - 1, 0)).astype("int64")
        return take_along_axis(xs, at, -1)
    if method == "averaged_inverted_cdf":
        v = nn * qv - 1
    else:
        alpha, beta = _HYNDMAN_FAN[method]
        v = nn * qv + (alpha + qv * (1 - alpha - beta)) - 1
    prev = _ufuncs.floor(v)
    last = _ufuncs.maximum(nn - 1, 0)
    above, below = v >= nn - 1, v < 0
    lo = _ufuncs.where(above, last, _ufuncs.where(below, 0.0, prev)).astype("int64")
    hi = _ufuncs.where(above, last, _ufuncs.where(below, 0.0, prev + 1)).astype("int64")
    gamma = v - prev
    if method == "averaged_inverted_cdf":
        gamma = _ufuncs.where(gamma == 0, 0.5, 1.0)
    a, b = take_along_axis(xs, lo, -1), take_along_axis(xs, hi, -1)
    d = b - a
    return _ufuncs.where(gamma >= 0.5, b - d * (1 - gamma), a + d * gamma)  # NumPy's _lerp


def _kept(r, a, axes, keepdims):
    """A reduction's result r with keepdims' extent-1 axes where `a` had the reduced `axes` (None: all)."""
    if not keepdims:
        return r
    if axes is None:
        return r.reshape((1,) * a.ndim)
    for d in sorted(x % a.ndim for x in axes):
        r = expand_dims(r, d)
    return r


def _quantile(a, q, axis, keepdims, method, nan_aware, out=None, percent=False, median=False):
    """NumPy's quantile (methods linear/lower/higher/nearest/midpoint) from a sort along the axis; a NaN in a
    slice makes its result NaN (nan_aware: NaNs are left out, as nanquantile)."""
    if method not in _METHODS:
        raise ValueError(f"'{method}' is not a valid method. Use one of: {', '.join(_METHODS)}")
    a = _arr(a)
    qa = _np.asarray(q, dtype=_np.float64) / (100.0 if percent else 1.0)
    if _np.any((qa < 0) | (qa > 1)) or _np.any(_np.isnan(qa)):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else "Quantiles must be in the range [0, 1]")
    # the methods that pick one of the values keep an integer (or bool) input's dtype, as NumPy's
    keep = a._dtype_name if a._dtype_name.startswith(("int", "uint", "bool")) and method in _DISCRETE else None
    if a._dtype_name.startswith(("int", "uint", "bool")):
        a = a.astype("float64")
    axes = None if axis is None else tuple(_axis(ax, a.ndim) for ax in ((axis,) if isinstance(axis, int) else axis))
    x = a.reshape(-1) if axes is None else a
    if axes is not None and len(axes) > 1:
        from ._manipulation import moveaxis as mv

        axes = tuple(ax % a.ndim for ax in axes)
        rest = [d for d in range(a.ndim) if d not in axes]
        x = mv(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
        x = x.reshape(tuple(a.shape[d] for d in rest) + (-1,))
        ax = -1
    else:
        ax = -1 if axes is None else axes[0] % a.ndim
    if _np.ndim(q) and method not in _DISCRETE and x._dtype_name in ("float16", "bfloat16", "float32"):
        x = x.astype("float64")  # NumPy: an array of quantiles is float64, so its interpolation is too
    xs = sort(x, axis=ax)
    xs = moveaxis(xs, ax, -1)
    n = xs.shape[-1]
    if n == 0:
        # NumPy: median and the nan* forms of empty slices are NaN (with a warning); percentile/quantile read
        # index -1 of nothing
        if not (median or nan_aware):
            raise IndexError(f"index -1 is out of bounds for axis {a.ndim - 1 if axes is None else 0} with size 0")
        from ._creation import full

        t = xs._dtype_name if xs._dtype_name.startswith(("float", "complex")) else "float64"
        nan = complex(_np.nan, _np.nan) if t.startswith("complex") else _np.nan
        r = _kept(full(xs.shape[:-1], nan, t, device=_core.device_of(a)), a, axes, keepdims)
        return r if _np.ndim(q) == 0 else full(qa.shape + r.shape, nan, t, device=_core.device_of(a))
    isf = xs._dtype_name.startswith(("float", "bfloat", "complex"))  # the dtypes with NaNs (sorted last)
    if nan_aware and isf:
        valid = (xs == xs).sum(axis=-1, keepdims=True).astype("float64")  # NaNs sorted last
    else:
        valid = None
    results = []
    for qv in qa.reshape(-1).tolist():  # Python floats: weak next to the values (a float64 scalar would widen them)
        m = (valid if valid is not None else float(n))
        pos = (m - 1) * qv if valid is not None else (n - 1) * qv
        if valid is None:
            lo_i = int(math.floor(pos))
            hi_i = min(lo_i + 1, n - 1)
            frac = pos - lo_i
            lo_v, hi_v = xs[..., lo_i:lo_i + 1], xs[..., hi_i:hi_i + 1]
        else:
            lo_p = _ufuncs.floor(pos)
            lo_i = _ufuncs.maximum(lo_p, 0).astype("int64")
            hi_i = _ufuncs.minimum(lo_i + 1, _ufuncs.maximum(valid - 1, 0).astype("int64"))
            frac = pos - lo_p
            lo_v, hi_v = take_along_axis(xs, lo_i, -1), take_along_axis(xs, hi_i, -1)
        if method not in _METHODS[:5]:
            r = _hyndman_fan_value(xs, valid if valid is not None else n, float(qv), method)
        elif method == "lower":
            r = lo_v
        elif method == "higher":
            r = _ufuncs.where(frac > 0, hi_v, lo_v) if valid is not None else (hi_v if frac > 0 else lo_v)
        elif method == "nearest":  # NumPy rounds the position half to even
            r = _ufuncs.where((frac > 0.5) | ((frac == 0.5) & (lo_i % 2 == 1)), hi_v, lo_v) if valid is not None else \
                (hi_v if frac > 0.5 or (frac == 0.5 and lo_i % 2) else lo_v)
        elif method == "midpoint":
            r = _ufuncs.where(frac > 0, (lo_v + hi_v) * 0.5, lo_v) if valid is not None else \
                ((lo_v + hi_v) * 0.5 if frac > 0 else lo_v)
        else:  # NumPy's _lerp, which reads the next value even at a whole position (1 + (inf - 1) * 0 is NaN)
            diff = hi_v - lo_v
            if valid is None:
                r = hi_v - diff * (1 - frac) if frac >= 0.5 else lo_v + diff * frac
            else:
                r = _ufuncs.where(frac >= 0.5, hi_v - diff * (1 - frac), lo_v + diff * frac)
        if isf and not nan_aware:
            r = _ufuncs.where(xs[..., -1:] != xs[..., -1:], xs[..., -1:], r)  # a NaN anywhere (sorted last): NaN
        if valid is not None:
            r = _ufuncs.where(valid == 0, _np.nan, r)
            r = r.astype(xs._dtype_name)  # the float64 position must not widen float32 values
        results.append(_kept(r.reshape(r.shape[:-1]), a, axes, keepdims))
    if _np.ndim(q) == 0:
        res = results[0]
    else:
        from ._manipulation import stack

        res = stack(results, axis=0).reshape(qa.shape + results[0].shape)
    if keep is not None:
        res = res.astype(keep)
    if out is not None:
        out._assign(res)
        return out
    return res


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """NumPy's median is the mean of the middle values (x[n // 2], or (a + b) / 2): the midpoint method, not a lerp."""
    return _quantile(a, 0.5, axis, keepdims, "midpoint", False, out, median=True)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _quantile(a, 0.5, axis, keepdims, "midpoint", True, out, median=True)


def _weighted_quantile(a, q, axis, keepdims, method, weights, nan_aware, out, percent):
    """NumPy's weighted quantile (method 'inverted_cdf' only, as NumPy): values sorted along the axis with their
    weights, the normalised cumulative weights, and per quantile the first value whose cumulative weight reaches
    it (leading zero weights never chosen). NaN values: the result is NaN (nan_aware: they weigh nothing)."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    a = _arr(a)
    qa = _np.asarray(q, dtype=_np.float64) / (100.0 if percent else 1.0)
    if _np.any((qa < 0) | (qa > 1)) or _np.any(_np.isnan(qa)):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else "Quantiles must be in the range [0, 1]")
    w = _arr(weights, a).astype("float64")
    if w.shape != a.shape:
        if isinstance(axis, (int, _np.integer)) and w.ndim == 1 and a.ndim and w.shape[0] == a.shape[axis % a.ndim]:
            shape = [1] * a.ndim
            shape[axis % a.ndim] = w.shape[0]
            w = broadcast_to(w.reshape(shape), a.shape)
        else:
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    if bool((w < 0).any()):
        raise ValueError("Weights must be non-negative.")
    if a._dtype_name.startswith(("int", "uint", "bool")):
        a = a.astype("float64")
    axes = None if axis is None else ((axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis))
    if axes is None:
        x, ww = a.reshape(-1), w.reshape(-1)
    else:
        axes = tuple(_axis(ax, a.ndim) for ax in axes)
        rest = tuple(a.shape[d] for d in range(a.ndim) if d not in axes)
        last = tuple(range(a.ndim - len(axes), a.ndim))
        x, ww = moveaxis(a, axes, last).reshape(rest + (-1,)), moveaxis(w, axes, last).reshape(rest + (-1,))
    n = x.shape[-1]
    if n == 0:
        raise ValueError("cannot compute the quantile of an empty slice")
    order = argsort(x, axis=-1)
    xs, ws = take_along_axis(x, order, -1), take_along_axis(ww, order, -1)
    isf = xs._dtype_name.startswith(("float", "bfloat", "complex"))  # the dtypes with NaNs (sorted last)
    if nan_aware and isf:
        ws = _ufuncs.where(xs != xs, 0.0, ws)
    cdf = cumsum(ws, axis=-1)
    total = cdf[..., -1:]
    if bool((~_ufuncs.isfinite(total) | (total == 0)).any()):
        raise ValueError("Weights included NaN, inf or were all zero.")
    cdf = cdf / total
    cdf = _ufuncs.where(cdf == 0, -1.0, cdf)  # leading zero weights: never the answer
    results = []
    for qv in qa.reshape(-1).tolist():  # Python floats: weak next to the values (a float64 scalar would widen them)
        idx = _ufuncs.minimum((cdf < qv).sum(axis=-1, keepdims=True), n - 1)
        r = take_along_axis(xs, idx, -1)
        if isf and not nan_aware:
            r = _ufuncs.where(xs[..., -1:] != xs[..., -1:], xs[..., -1:], r)  # a NaN in the slice: NaN
        r = r.reshape(r.shape[:-1])
        if keepdims:
            if axes is None:
                r = r.reshape((1,) * a.ndim)
            else:
                for d in sorted(axes):
                    r = expand_dims(r, d)
        results.append(r)
    res = results[0] if _np.ndim(q) == 0 else stack(results, axis=0).reshape(qa.shape + results[0].shape)
    if out is not None:
        out._assign(res)
        return out
    return res


def _quantile_or_weighted(a, q, axis, keepdims, method, weights, nan_aware, out, percent):
    a = _arr(a)
    if a._dtype_name.startswith("complex"):
        raise TypeError("a must be an array of real numbers")  # NumPy's check, before any other
    # NumPy's order of errors: the axes, then an empty slice (read at index -1), then bools (it interpolates by
    # subtracting, which bools cannot)
    axes = () if axis is None else [_axis(ax, a.ndim) for ax in ((axis,) if isinstance(axis, (int, _np.integer))
                                                                  else axis)]
    length = a.size if axis is None else math.prod(a.shape[ax] for ax in axes)
    if a._dtype_name == "bool" and method not in _DISCRETE and length:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    if weights is not None:
        return _weighted_quantile(a, q, axis, keepdims, method, weights, nan_aware, out, percent)
    return _quantile(a, q, axis, keepdims, method, nan_aware, out, percent=percent)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _quantile_or_weighted(a, q, axis, keepdims, method, weights, False, out, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _quantile_or_weighted(a, q, axis, keepdims, method, weights, False, out, True)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _quantile_or_weighted(a, q, axis, keepdims, method, weights, True, out, False)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _quantile_or_weighted(a, q, axis, keepdims, method, weights, True, out, True)
