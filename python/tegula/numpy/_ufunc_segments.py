"""ufunc.at and ufunc.reduceat for the associative, commutative binary ufuncs, from operations tegula.numpy
already has (sort, gathers, fused elementwise steps), so they run wherever those do, the GPU included.

`op.at(a, indices, b)`: the indexed positions are sorted, so that repeats of a position sit together; a segmented
running combination in log2(n) fused doubling steps leaves each position's combined value at the end of its run;
those are combined into `a` once, at distinct positions. (add.at and subtract.at count with bincount's kernel
instead: _ufunc_object.py.)

`op.reduceat(a, indices, axis)`: the slices [indices[i], indices[i+1]) (a[indices[i]] alone where
indices[i] >= indices[i+1], as NumPy) are each cut into power-of-two blocks by the bits of their lengths; the
blocks of length 2^k come from a table of the combinations of 2^k neighbours, built from the one of 2^(k-1). One
pass per bit: log2 of the longest slice gathers, whatever the number of slices."""
from __future__ import annotations

import numpy as _np

from . import _core, _creation, _manipulation, _reshaping, _sort, _ufuncs
from ._common import _axis
from ._core import _tegula

# at: ufuncs whose repeated applications can be combined first (associative and commutative).
AT = ("multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor", "bitwise_and",
      "bitwise_or", "bitwise_xor")
# reduceat: those with a reduction (ufunc.reduce), whose dtype the result takes.
REDUCEAT = ("add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or")


def _segmented_scan(keys, vals, combine):
    """The running combine(earlier, later) of vals within each run of equal sorted keys (inclusive)."""
    n, d = vals.shape[0], 1
    while d < n:
        same = keys[d:] == keys[:-d]
        vals = _core.settled(_manipulation.concatenate([vals[:d], _ufuncs.where(same, combine(vals[:-d], vals[d:]), vals[d:])]))
        d *= 2
    return vals


def at(uf, a, indices, b):
    """a[indices] = uf(a[indices], b), every repeated index applied, in place (NumPy's unsafe cast into a)."""
    name = uf.__name__
    pos = _creation.arange(a.size, dtype="int64", device=a.device).reshape(a.shape)[indices]
    b_scalar = isinstance(b, (bool, int, float, complex)) and not isinstance(b, _np.generic)
    vals = _manipulation.broadcast_to(_creation.asarray(b, device=a.device), pos.shape).reshape(-1)
    if b_scalar:  # a Python number is weak (NEP 50): a's dtype where it fits
        vals = vals.astype(_tegula.result_type(a._dtype_name, b))
    pos = pos.reshape(-1)
    if pos.shape[0] == 0:
        return
    loop = uf(a.reshape(-1)[:0], vals[:0])._dtype_name  # the dtype NumPy's loop computes in
    if name == "multiply" and loop != a._dtype_name:
        raise NotImplementedError(f"tegula.numpy.multiply.at of {vals._dtype_name} values into a {a._dtype_name} "
                                  "array: NumPy rounds into the array after every product, which combining the "
                                  "repeated products first does not reproduce")
    vals = vals.astype(uf(vals[:0], vals[:0])._dtype_name)
    order = _sort.argsort(pos, kind="stable")
    keys, vals = pos[order], vals[order]
    vals = _segmented_scan(keys, vals, uf)
    last = _manipulation.concatenate([keys[1:] != keys[:-1], _creation.ones(1, dtype="bool", device=a.device)])
    where = _reshaping.unravel_index(keys[last], a.shape)
    a[where] = uf(a[where], vals[last]).astype(a._dtype_name)


def _index_list(indices, n, name):
    """reduceat's indices as a host int64 array, checked as NumPy checks them."""
    idx = _np.asarray(indices.get() if isinstance(indices, _core.ndarray) else indices)
    if idx.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         "number of dimension of 1.")
    if idx.size and not _np.issubdtype(idx.dtype, _np.integer):
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to dtype('int64') according to the rule 'safe'")
    idx = idx.astype(_np.int64).reshape(-1)
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        raise IndexError(f"index {int(idx[bad][0])} out-of-bounds in {name}.reduceat [0, {n})")
    return idx


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    name = uf.__name__
    a = _creation.asarray(array)
    if dtype is not None:
        a = a.astype(_np.dtype(dtype).name)
    if a.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")  # NumPy's
    x = _manipulation.moveaxis(a, _axis(axis, a.ndim), 0)
    n = x.shape[0]
    idx = _index_list(indices, n, name)
    if n:  # the reduction's dtype (int8 sums in int64, ...), from a reduction that is never computed
        x = x.astype(uf.reduce(x[:1], axis=0)._dtype_name)
    m = idx.shape[0]
    res = _creation.empty((m,) + x.shape[1:], dtype=x._dtype_name, device=a.device)

    def dev(host_indices):
        return _creation.asarray(host_indices, device=a.device)

    if m:
        ends = _np.append(idx[1:], n)
        lengths = _np.where(idx < ends, ends - idx, 1)
        pos, started = idx.copy(), _np.zeros(m, bool)
        table, k = x, 0
        while True:
            sel = _np.nonzero((lengths >> k) & 1)[0]  # the slices with a 2^k block, taken at pos
            if sel.size:
                rows = table[dev(pos[sel])]
                first = ~started[sel]  # the slice's first block: it starts the result
                if first.any():
                    res[dev(sel[first])] = rows[dev(_np.nonzero(first)[0])]
                if not first.all():
                    more = dev(sel[~first])
                    res[more] = uf(res[more], rows[dev(_np.nonzero(~first)[0])])
                started[sel] = True
                pos[sel] += 1 << k
            if (1 << (k + 1)) > lengths.max():
                break
            h = 1 << k  # the combinations of 2^(k+1) neighbours from those of 2^k
            table = _core.settled(uf(table[:-h], table[h:]).astype(x._dtype_name))
            k += 1
    res = _manipulation.moveaxis(res, 0, axis)
    if out is not None:
        out[...] = res
        return out
    return res
