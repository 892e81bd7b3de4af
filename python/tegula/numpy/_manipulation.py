"""tegula.numpy shape manipulation: reshape/ravel (C or F order), transpose, broadcasting, concatenate/stack/split,
flip, roll, tile, copyto (repeat: _repeat)."""
from __future__ import annotations

import numpy as _np

from . import _core, _layout
from ._common import _arr, _arrays_on_one_device, _axis, _is_py_scalar, _py_any, _py_max, _py_sum, _raise_axis
from ._core import _tegula, as_array, dtype_name, ndarray
from ._creation import arange, empty


def _index_order(a, order, allowed="CFA"):
    """'C' or 'F', the index order reshape and ravel read and write in ('A': F where a is F-contiguous)."""
    o = _layout.parse_order(order, allowed)
    if o == "A":
        o = "F" if _layout.f_contiguous(a) and not _layout.c_contiguous(a) else "C"
    return o


def _as_shape(shape):
    return (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(int(v) for v in shape)


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """order='F' reshapes the reversed axes in C order: a.T.reshape(shape[::-1]).T (a view where one exists).
    (Calls the engine's _reshape, not the method, so that ndarray.reshape can call this.)"""
    a = _arr(a)
    shape = _as_shape(shape if shape is not None else newshape)
    if _index_order(a, order) == "C":
        r = a._reshape(shape)
    else:
        r = a._transpose([])._reshape(shape[::-1])._transpose([])
    if copy:
        return r.copy() if r._base_id == a._base_id else r
    if copy is False and r._base_id != a._base_id:
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return r


def ravel(a, order="C"):
    """order='K' reads the elements in memory order (axes by descending stride, never reversed), as NumPy."""
    a = _arr(a)
    if _layout.parse_order(order) == "K":
        perm = _layout.iteration_perm(a)
        return a._reshape((-1,)) if perm == list(range(a.ndim)) else a._transpose(perm)._reshape((-1,))
    if _index_order(a, order, "CFAK") == "F":
        return a._transpose([])._reshape((-1,))
    return a._reshape((-1,))


def flatten(a, order="C"):
    a = _arr(a)
    r = ravel(a, order)
    return _layout.in_layout(r, [0]) if r._base_id == a._base_id else r


def transpose(a, axes=None):
    return _arr(a)._transpose([] if axes is None else list(axes))


permute_dims = transpose


def _norm_axis(axis, nd, name=None):
    """axis in [0, nd) (negative counts from the end), else NumPy's AxisError."""
    if -nd <= axis < nd:
        return axis % nd if nd else 0
    prefix = f"{name}: " if name else ""
    raise _tegula.AxisError(f"{prefix}axis {axis} is out of bounds for array of dimension {nd}")


def swapaxes(a, axis1, axis2):
    a = _arr(a)
    i, j = _norm_axis(axis1, a.ndim, "axis1"), _norm_axis(axis2, a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = j, i
    return a._transpose(perm)


def _axis_list(axes, nd, what):
    axes = [axes] if isinstance(axes, int) else list(axes)
    norm = [_norm_axis(x, nd, what) for x in axes]
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in `{what}` argument")
    return norm


def moveaxis(a, source, destination):
    a = _arr(a)
    src = _axis_list(source, a.ndim, "source")
    dst = _axis_list(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a._transpose(order)


def squeeze(a, axis=None):
    a = _arr(a)
    if axis is None:
        return a._squeeze([])  # every extent-1 axis
    if a.ndim == 0 and isinstance(axis, (int, _np.integer)) and axis in (0, -1):
        axis = ()  # NumPy's legacy: an int axis 0 or -1 of a 0-d array squeezes nothing
    axes = [axis] if isinstance(axis, (int, _np.integer)) else list(axis)
    return a._squeeze(axes) if axes else a._expand_dims([])  # axis=(): a view with no axis removed


def expand_dims(a, axis):
    return _arr(a)._expand_dims([axis] if isinstance(axis, int) else list(axis))


def broadcast_to(array, shape):
    return _arr(array)._broadcast_to((shape,) if isinstance(shape, int) else tuple(shape))


def broadcast_shapes(*shapes):
    return _np.broadcast_shapes(*shapes)


def broadcast_arrays(*args):
    arrs = _arrays_on_one_device(args)
    shape = _np.broadcast_shapes(*[a.shape for a in arrs])
    return [a._broadcast_to(shape) for a in arrs]


def atleast_1d(*arys):
    r = [(_arr(a).reshape(1) if _arr(a).ndim == 0 else _arr(a)) for a in arys]
    return r[0] if len(r) == 1 else r


def atleast_2d(*arys):
    r = []
    for a in arys:
        a = _arr(a)
        r.append(a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a)
    return r[0] if len(r) == 1 else r


def _check_concatenable(arrs, axis):
    nd = arrs[0].ndim
    for i, a in enumerate(arrs[1:], 1):
        if a.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has "
                             f"{nd} dimension(s) and the array at index {i} has {a.ndim} dimension(s)")
        for d in range(nd):
            if d != axis and a.shape[d] != arrs[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size "
                                 f"{arrs[0].shape[d]} and the array at index {i} has size {a.shape[d]}")


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrs = _arrays_on_one_device(list(arrays))
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrs, axis = [a.reshape(-1) for a in arrs], 0
    nd = arrs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = axis % nd if -nd <= axis < nd else _raise_axis(axis, nd)
    _check_concatenable(arrs, axis)
    shape = list(arrs[0].shape)
    shape[axis] = _py_sum(a.shape[axis] for a in arrs)
    t = dtype_name(dtype) if dtype is not None else _tegula.result_type(*[a._dtype_name for a in arrs])
    res = empty(tuple(shape), t, device=_core.device_of(arrs[0])) if out is None else out
    at = 0
    for a in arrs:
        idx = (slice(None),) * axis + (slice(at, at + a.shape[axis]),)
        res[idx] = a
        at += a.shape[axis]
    return res


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrs = _arrays_on_one_device(list(arrays))
    if not arrs:
        raise ValueError("need at least one array to stack")
    if _py_any(a.shape != arrs[0].shape for a in arrs):
        raise ValueError("all input arrays must have the same shape")
    nd = arrs[0].ndim + 1
    axis = axis % nd if -nd <= axis < nd else _raise_axis(axis, nd)
    return concatenate([a._expand_dims([axis]) for a in arrs], axis, out, dtype)


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def split(ary, indices_or_sections, axis=0):
    a = _arr(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        step = n // indices_or_sections
        cuts = list(range(step, n, step))
    else:
        cuts = list(indices_or_sections)
    bounds = [0, *cuts, n]
    ax = axis % a.ndim
    return [a[(slice(None),) * ax + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def array_split(ary, indices_or_sections, axis=0):
    a = _arr(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        k, extra = divmod(n, indices_or_sections)
        sizes = [k + 1] * extra + [k] * (indices_or_sections - extra)
        cuts, at = [], 0
        for s in sizes[:-1]:
            at += s
            cuts.append(at)
        return split(a, cuts, axis)
    return split(a, indices_or_sections, axis)


def flip(m, axis=None):
    a = _arr(m)
    axes = range(a.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
    key = [slice(None)] * a.ndim
    for ax in axes:
        key[_axis(ax, a.ndim)] = slice(None, None, -1)
    return a[tuple(key)]


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = _arr(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    r = a
    for s, ax in zip(shifts, axes):
        ax = _axis(ax, r.ndim)
        n = r.shape[ax]
        if n == 0:
            continue
        s %= n
        if s == 0:
            continue
        lead = (slice(None),) * ax
        r = concatenate([r[lead + (slice(n - s, None),)], r[lead + (slice(0, n - s),)]], ax)
    return r if r is not a else a.copy()


def tile(A, reps):
    a = _arr(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    nd = _py_max(a.ndim, len(reps))
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    reps = (1,) * (nd - len(reps)) + reps
    inter = []
    target = []
    for r, d in zip(reps, a.shape):
        inter += [1, d]
        target += [r, d]
    b = a.reshape(tuple(inter))._broadcast_to(tuple(target))
    return b.copy().reshape(tuple(r * d for r, d in zip(reps, a.shape)))


def copyto(dst, src, casting="same_kind", where=True):
    s = _arr(src, dst)
    if not _is_py_scalar(src) and not _tegula.can_cast(s._dtype_name, dst._dtype_name, casting):
        raise TypeError(f"Cannot cast array data from dtype('{s._dtype_name}') to dtype('{dst._dtype_name}') "
                        f"according to the rule '{casting}'")
    if where is not True:
        s = _arr(where, dst)._where(s, dst)
    dst._assign(s)


def shape(a):
    return _arr(a).shape


def ndim(a):
    return _arr(a).ndim


def size(a, axis=None):
    a = _arr(a)
    return a.size if axis is None else a.shape[axis]


def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's diagonal (as a copy: a gather of the elements, where NumPy returns a read-only view)."""
    a = _arr(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1, ax2 = _axis(axis1, a.ndim, "axis1: "), _axis(axis2, a.ndim, "axis2: ")
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    x = moveaxis(a, (ax1, ax2), (-2, -1))
    rows, cols = x.shape[-2], x.shape[-1]
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    i = arange(n, dtype="int64", device=_core.device_of(a))
    r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
    return x[..., r, c]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    r = diagonal(a, offset, axis1, axis2).sum(axis=-1, dtype=dtype)
    if out is not None:
        out._assign(r)
        return out
    return r
