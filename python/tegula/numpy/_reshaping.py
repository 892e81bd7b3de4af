"""NumPy's array manipulation beyond the basics, composed from tegula.numpy's own: append, delete, insert,
column_stack/row_stack/dstack, hsplit/vsplit/dsplit, rot90, rollaxis, resize, trim_zeros, ravel_multi_index,
unravel_index, fill_diagonal, put, place, putmask, put_along_axis, select, choose, piecewise, apply_along_axis
and block. In-place ones need tegula arrays (they write into them)."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from ._common import _arr
from . import _ufuncs
from ._construct import atleast_3d
from ._creation import arange, asarray, ascontiguousarray, zeros
from ._dtypes import result_type
from ._indexing import nonzero
from ._manipulation import (broadcast_arrays, broadcast_to, concatenate, expand_dims, flip, moveaxis, split, stack,
                            vstack)
from ._selection import _clip_indices


def _norm_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def append(arr, values, axis=None):
    a = _arr(arr)
    v = _arr(values, a)
    if axis is None:
        return concatenate([a.reshape(-1), v.reshape(-1)])
    return concatenate([a, v], axis=axis)


def _positions(obj, n, what):
    """obj (an int, slice, or integer/boolean sequence) as sorted-or-not host integer positions in [0, n)."""
    if isinstance(obj, slice):
        return _np.arange(n)[obj]
    o = obj.get() if isinstance(obj, _core.ndarray) else _np.asarray(obj)
    if o.dtype == bool:
        if o.shape != (n,):
            raise ValueError(f"boolean array argument obj to {what} must be one dimensional and match the axis "
                             f"length of {n}")
        return _np.nonzero(o)[0]
    if o.size and o.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return o.astype(_np.int64)


def delete(arr, obj, axis=None):
    a = _arr(arr)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _norm_axis(axis, a.ndim)
    n = a.shape[axis]
    pos = _positions(obj, n, "delete").reshape(-1)
    if pos.size and (pos.min() < -n or pos.max() >= n):
        bad = pos[(pos < -n) | (pos >= n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    keep = _np.ones(n, dtype=bool)
    keep[pos % n if n else pos] = False
    m = moveaxis(a, axis, 0)
    return moveaxis(m[_arr(_np.nonzero(keep)[0], a)], 0, axis)


def insert(arr, obj, values, axis=None):
    """values inserted before the given positions along axis (flattened when None), as NumPy's."""
    a = _arr(arr)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _norm_axis(axis, a.ndim)
    n = a.shape[axis]
    scalar = isinstance(obj, (int, _np.integer))
    pos = _np.array([int(obj)]) if scalar else _positions(obj, n + 1, "insert").reshape(-1)
    if pos.size and (pos.min() < -n or pos.max() > n):
        bad = pos[(pos < -n) | (pos > n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    pos = _np.where(pos < 0, pos + n, pos)
    v = _arr(values, a).astype(a._dtype_name)
    m = moveaxis(a, axis, 0)
    rest = m.shape[1:]
    if scalar:  # values fill a block at one position: its own leading length along axis
        vv = v if v.ndim > len(rest) else v.reshape((1,) * (len(rest) + 1 - v.ndim) + v.shape)
        vv = moveaxis(vv, axis, 0) if vv.ndim == a.ndim and v.ndim == a.ndim else vv
        vv = broadcast_to(vv, (vv.shape[0],) + rest)
        p = int(pos[0])
        return moveaxis(concatenate([m[:p], vv, m[p:]]), 0, axis)
    k = pos.shape[0]
    vv = broadcast_to(v.reshape((-1,) + rest) if v.ndim > len(rest) and v.size == k * math.prod(rest)
                      else v, (k,) + rest)
    order = _np.argsort(pos, kind="stable")
    new_pos = pos[order] + _np.arange(k)  # where each inserted slice lands in the result
    total = n + k
    is_new = _np.zeros(total, dtype=bool)
    is_new[new_pos] = True
    src = _np.empty(total, dtype=_np.int64)
    src[~is_new] = _np.arange(n)
    src[new_pos] = n + order  # rows of the stacked [m; vv]
    stacked = concatenate([m, vv])
    return moveaxis(stacked[_arr(src, a)], 0, axis)


def column_stack(tup):
    arrays = []
    for v in tup:
        v = _arr(v)
        arrays.append(v.reshape(-1, 1) if v.ndim < 2 else v)
    return concatenate(arrays, axis=1)


def row_stack(tup):
    return vstack(tup)


def dstack(tup):
    arrs = [atleast_3d(_arr(v)) for v in tup]
    return concatenate(arrs, axis=2)


def _split(a, indices_or_sections, axis, name, min_ndim):
    a = _arr(a)
    if a.ndim < min_ndim:
        raise ValueError(f"{name} only works on arrays of {min_ndim} or more dimensions")
    return split(a, indices_or_sections, axis=axis)


def hsplit(ary, indices_or_sections):
    a = _arr(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(a, indices_or_sections, 1 if a.ndim > 1 else 0, "hsplit", 1)


def vsplit(ary, indices_or_sections):
    return _split(ary, indices_or_sections, 0, "vsplit", 2)


def dsplit(ary, indices_or_sections):
    return _split(ary, indices_or_sections, 2, "dsplit", 3)


def rot90(m, k=1, axes=(0, 1)):
    a = _arr(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == a.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= a.ndim or axes[0] < -a.ndim or axes[1] >= a.ndim or axes[1] < -a.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={a.ndim}.")
    k %= 4
    if k == 0:
        return a[...]
    if k == 2:
        return flip(flip(a, axes[0]), axes[1])
    order = list(range(a.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return flip(a, axes[1]).transpose(order)
    return flip(a.transpose(order), axes[1])


def rollaxis(a, axis, start=0):
    a = _arr(a)
    n = a.ndim
    axis = _norm_axis(axis, n)
    if not -n <= start <= n:
        raise _core._tegula.AxisError(f"start arg requires {-n} <= start < {n + 1} but {start} was passed in")
    if start < 0:
        start += n
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    return moveaxis(a, axis, start)


def resize(a, new_shape):
    """new_shape filled with a's elements, repeated in order (NumPy's np.resize, not ndarray.resize)."""
    a = _arr(a).reshape(-1)
    shape = (int(new_shape),) if isinstance(new_shape, (int, _np.integer)) else tuple(int(s) for s in new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    total = math.prod(shape)
    if a.shape[0] == 0 or total == 0:
        from ._creation import zeros

        return zeros(shape, a._dtype_name, device=_core.device_of(a))
    reps = -(-total // a.shape[0])
    return concatenate([a] * reps)[:total].reshape(shape)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading (f) and trailing (b) zeros; 1-D (NumPy's axis argument for N-D is not here)."""
    a = _arr(filt)
    if a.ndim != 1 or axis not in (None, 0, -1):
        raise NotImplementedError("trim_zeros of arrays with more than one dimension is not supported yet")
    nz = _np.nonzero((a != 0).get())[0]
    if nz.size == 0:
        return a[:0]
    trim = trim.lower()
    start = int(nz[0]) if "f" in trim else 0
    stop = int(nz[-1]) + 1 if "b" in trim else a.shape[0]
    return a[start:stop]


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    idx = [_arr(i) for i in multi_index]
    dims = tuple(int(d) for d in dims)
    if len(idx) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    out = None
    strides = []
    s = 1
    for d in (reversed(dims) if order == "C" else dims):
        strides.append(s)
        s *= d
    strides = list(reversed(strides)) if order == "C" else strides
    for i, d, st, md in zip(idx, dims, strides, modes):
        term = _index_mode(i, d, md, "invalid entry in coordinates array").astype("int64") * st
        out = term if out is None else out + term
    return out


def unravel_index(indices, shape, order="C"):
    i = _arr(indices)
    if i._dtype_name.startswith(("float", "complex", "bool")):
        raise TypeError("only int indices permitted")
    dims = (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(int(d) for d in shape)
    total = math.prod(dims)
    if bool(((i < 0) | (i >= total)).any()):
        bad = int(i.reshape(-1)[_arr(_np.argmax(((i < 0) | (i >= total)).get().reshape(-1)), i)])
        raise ValueError(f"index {bad} is out of bounds for array with size {total}")
    out = []
    rem = i.astype("int64")
    for d in (reversed(dims) if order == "C" else dims):
        out.append(rem % d)
        rem = rem // d
    return tuple(reversed(out)) if order == "C" else tuple(out)


def _index_mode(i, n, mode, message):
    """Integer indices i for a length n by NumPy's clip modes: 'raise' (ValueError(message) for any outside
    [0, n)), 'wrap' (modulo n) or 'clip' (clamped)."""
    if mode == "raise":
        if bool(((i < 0) | (i >= n)).any()):
            raise ValueError(message)
        return i
    if mode == "wrap":
        return i % n
    if mode == "clip":
        return _ufuncs.minimum(_ufuncs.maximum(i, 0), n - 1)
    raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def fill_diagonal(a, val, wrap=False):
    """Writes val along a's main diagonal, in place (a must be a tegula array)."""
    if not isinstance(a, _core.ndarray):
        raise TypeError("fill_diagonal writes in place: a must be a tegula.numpy array")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    if a.ndim == 2:
        rows, cols = a.shape
        step = cols + 1
        end = a.size if wrap else min(a.size, cols * cols)
    else:
        step = sum(a.shape[0] ** k for k in range(a.ndim))
        end = a.size
    flat_pos = arange(0, end, step, dtype="int64", device=_core.device_of(a))
    vals = _arr(val, a).reshape(-1)
    if vals.shape[0] not in (0, 1):
        vals = resize(vals, (flat_pos.shape[0],))
    put(a, flat_pos, vals)


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v in place, v repeated as needed (NumPy's put)."""
    if not isinstance(a, _core.ndarray):
        raise TypeError("put writes in place: a must be a tegula.numpy array")
    n = a.size
    i = _arr(ind, a).reshape(-1).astype("int64")
    if mode == "raise":
        if bool(((i < -n) | (i >= n)).any()):
            bad = int(_np.asarray(i.get())[((i < -n) | (i >= n)).get()][0])
            raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
        i = i % n if n else i
    elif mode == "wrap":
        i = i % n
    elif mode == "clip":
        i = _clip_indices(i, n)
    else:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    vals = _arr(v, a).reshape(-1).astype(a._dtype_name)
    if i.shape[0] == 0 or vals.shape[0] == 0:
        return
    if vals.shape[0] != i.shape[0]:
        vals = resize(vals, (i.shape[0],))
    flat = a.reshape(-1) if a._c_contiguous else None
    if flat is None:
        raise NotImplementedError("put into a non-contiguous array is not supported yet")
    flat[i] = vals


def place(arr, mask, vals):
    """arr[mask] = vals in place, vals repeated in order over the True positions (NumPy's place)."""
    if not isinstance(arr, _core.ndarray):
        raise TypeError("place writes in place: arr must be a tegula.numpy array")
    m = _arr(mask, arr).astype("bool")
    k = int(m.sum())
    v = _arr(vals, arr).reshape(-1)
    if k == 0:
        return
    if v.shape[0] == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[m] = resize(v.astype(arr._dtype_name), (k,))


def putmask(a, mask, values):
    """a[mask] = values[the same flat positions], values repeated to a's size (NumPy's putmask)."""
    if not isinstance(a, _core.ndarray):
        raise TypeError("putmask writes in place: a must be a tegula.numpy array")
    m = _arr(mask, a).astype("bool")
    v = _arr(values, a).astype(a._dtype_name)
    if v.shape != a.shape:
        v = resize(v, a.shape)

    a[...] = _ufuncs.where(m, v, a)


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, _core.ndarray):
        raise TypeError("put_along_axis writes in place: arr must be a tegula.numpy array")
    idx = _arr(indices, arr)
    if axis is None:
        arr.reshape(-1)[idx.reshape(-1)] = _arr(values, arr).reshape(-1)
        return
    axis = _norm_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape = _np.broadcast_shapes(idx.shape, tuple(1 if k == axis else s for k, s in enumerate(arr.shape)))
    key = []
    for k in range(arr.ndim):
        if k == axis:
            key.append(broadcast_to(idx, shape))
        else:
            r = arange(arr.shape[k] if shape[k] != 1 or arr.shape[k] == 1 else 1, dtype="int64",
                       device=_core.device_of(arr))
            key.append(broadcast_to(r.reshape((-1,) + (1,) * (arr.ndim - k - 1)), shape))
    arr[tuple(key)] = broadcast_to(_arr(values, arr).astype(arr._dtype_name), shape)


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [_arr(c) for c in condlist]
    for i, c in enumerate(conds):
        if c._dtype_name != "bool":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [_arr(c, conds[0]) for c in choicelist]

    dt = _np.dtype(result_type(*choices, _np.asarray(default))).name
    out = _arr(_np.asarray(default), conds[0]).astype(dt)
    for c, v in zip(reversed(conds), reversed(choices)):
        out = _ufuncs.where(c, v.astype(dt), out)
    return out


def choose(a, choices, out=None, mode="raise"):
    ch = [_arr(c, _arr(a)) for c in choices]
    n = len(ch)
    idx = _index_mode(_arr(a), n, mode, "invalid entry in choice array")
    parts = broadcast_arrays(idx, *ch)
    idx, ch = parts[0], parts[1:]
    r = ch[-1]
    for k in range(n - 2, -1, -1):
        r = _ufuncs.where(idx == k, ch[k], r)
    if out is not None:
        out[...] = r
        return out
    return r


def piecewise(x, condlist, funclist, *args, **kw):
    x = _arr(x)
    single = _np.isscalar(condlist) or (isinstance(condlist, (_core.ndarray, _np.ndarray)) and
                                        _np.ndim(condlist) == x.ndim)
    if not single and isinstance(condlist, (list, tuple)) and condlist and x.ndim != 0:
        single = not isinstance(condlist[0], (list, tuple, _np.ndarray, _core.ndarray))
    if single:
        condlist = [condlist]
    conds = [_arr(c, x).astype("bool") for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    if len(funclist) == n + 1:
        other = ~conds[0]
        for c in conds[1:]:
            other = other & ~c
        conds = conds + [other]
    out = x * 0
    for c, fn in zip(conds, funclist):
        val = fn(x, *args, **kw) if callable(fn) else fn
        out = _ufuncs.where(c, _arr(val, x).astype(out._dtype_name) if not _np.isscalar(val) else val, out)
    return out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d on each 1-D slice along axis: one call per slice (a Python loop, as NumPy's)."""
    a = _arr(arr)
    axis = _norm_axis(axis, a.ndim)
    m = moveaxis(a, axis, -1)
    outer = m.shape[:-1]
    flat = m.reshape(-1, m.shape[-1])
    results = [_arr(func1d(flat[i], *args, **kwargs), a) for i in range(flat.shape[0])]
    r = stack(results).reshape(outer + results[0].shape)
    if results[0].ndim == 0:
        return r
    return moveaxis(r, list(range(len(outer), r.ndim)), list(range(axis, axis + results[0].ndim)))


def apply_over_axes(func, a, axes):
    """func(a, axis) over each axis in turn, the result kept at a's rank (NumPy's apply_over_axes)."""
    val = _arr(a)
    n = val.ndim
    for axis in ([axes] if isinstance(axes, int) else list(axes)):
        ax = axis + n if axis < 0 else axis
        res = _arr(func(val, ax))
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, ax)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


def require(a, dtype=None, requirements=None, *, like=None):
    """a as a tegula array of dtype, C-contiguous when requirements ask for C (or contiguous / aligned / writeable
    / owned data, which every new tegula array has); 'F' is not supported (tegula arrays are C-ordered)."""
    r = _arr(a)
    if dtype is not None:
        r = r.astype(_np.dtype(dtype).name)
    req = {str(x).upper() for x in (requirements or [])}
    known = {"C", "C_CONTIGUOUS", "CONTIGUOUS", "A", "ALIGNED", "W", "WRITEABLE", "O", "OWNDATA", "E", "ENSUREARRAY"}
    if req - known:
        if req & {"F", "F_CONTIGUOUS", "FORTRAN"}:
            raise NotImplementedError("require(requirements='F'): tegula arrays are C-ordered")
        raise KeyError(f"invalid requirement: {sorted(req - known)[0]!r}")
    if req & {"C", "C_CONTIGUOUS", "CONTIGUOUS"} and not r._c_contiguous:
        r = ascontiguousarray(r)
    if req & {"O", "OWNDATA"} and r is a:
        r = r.copy()
    return r


def ix_(*args):
    """An open mesh: the k-th 1-D sequence shaped to index axis k (booleans by their True positions)."""
    out = []
    n = len(args)
    for k, a in enumerate(args):
        v = _arr(a) if not (isinstance(a, (list, tuple)) and len(a) == 0) else _arr(_np.array([], dtype=_np.intp))
        if v.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if v._dtype_name == "bool":
            v = nonzero(v)[0]
        out.append(v.reshape((1,) * k + (v.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


def _bits_along(x, axis, bitorder):
    """(x with `axis` moved last, that axis normalised): flattened for axis None; bitorder checked."""
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = _norm_axis(axis, x.ndim)
    return moveaxis(x, axis, -1), axis


def packbits(a, axis=None, bitorder="big"):
    """Each 8 elements of (a != 0) along axis (flattened for None) packed into a uint8, zero-padded at the end."""
    x = _arr(a)
    if x._dtype_name.startswith(("float", "complex", "bfloat")):
        raise TypeError("Expected an input array of integer or boolean data type")
    m, axis = _bits_along(x != 0, axis, bitorder)
    m = m.astype("uint8")
    n = m.shape[-1]
    pad = (-n) % 8
    if pad:
        m = concatenate([m, zeros(m.shape[:-1] + (pad,), "uint8", device=_core.device_of(m))], axis=-1)
    w = [128, 64, 32, 16, 8, 4, 2, 1] if bitorder == "big" else [1, 2, 4, 8, 16, 32, 64, 128]
    weights = asarray(_np.array(w, dtype=_np.uint8), device=_core.device_of(m))
    packed = (m.reshape(m.shape[:-1] + ((n + pad) // 8, 8)) * weights).sum(axis=-1, dtype="uint8")
    return moveaxis(packed, -1, axis)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    x = _arr(a)
    if x._dtype_name != "uint8":
        raise TypeError("Expected an input array of unsigned byte data type")
    m, axis = _bits_along(x, axis, bitorder)
    shifts = asarray(_np.array([7, 6, 5, 4, 3, 2, 1, 0] if bitorder == "big" else list(range(8)), dtype=_np.uint8),
                     device=_core.device_of(m))
    bits = ((m[..., None] >> shifts) & 1).astype("uint8")
    bits = bits.reshape(m.shape[:-1] + (m.shape[-1] * 8,))
    if count is not None:
        total = bits.shape[-1]
        keep = count if count >= 0 else max(total + count, 0)
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = concatenate([bits, zeros(bits.shape[:-1] + (keep - total,), "uint8",
                                            device=_core.device_of(bits))], axis=-1)
    return moveaxis(bits, -1, axis)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's cross product of 3-element (or 2-element, as NumPy still takes them) vectors along the given axes."""
    if axis is not None:
        axisa = axisb = axisc = axis
    x, y = _arr(a), _arr(b)
    x = moveaxis(x, _norm_axis(axisa, x.ndim), -1)
    y = moveaxis(y, _norm_axis(axisb, y.ndim), -1)
    if x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if x.shape[-1] == 2 or y.shape[-1] == 2:
        # 2-element vectors: deprecated in NumPy 2.0, an error from 2.5. The installed NumPy decides (its warning
        # or its error, on two tiny host vectors of these lengths).
        _np.cross(_np.zeros(x.shape[-1]), _np.zeros(y.shape[-1]))
    a0, a1 = x[..., 0], x[..., 1]
    b0, b1 = y[..., 0], y[..., 1]
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = x[..., 2] if x.shape[-1] == 3 else a0 * 0
    b2 = y[..., 2] if y.shape[-1] == 3 else b0 * 0
    c = stack(broadcast_arrays(a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0), axis=-1)
    return moveaxis(c, -1, _norm_axis(axisc, c.ndim))


def block(arrays):
    """Nested lists of arrays joined innermost along the last axis, outward along earlier ones (NumPy's block)."""
    def depth(x):
        return 1 + depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)

    d = depth(arrays)
    if isinstance(arrays, tuple):
        raise TypeError("arrays is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                        "implicit conversion from tuple to ndarray.")

    leaves = []

    def walk(x):
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            leaves.append(_arr(x))
    walk(arrays)
    nd = max([d] + [v.ndim for v in leaves])

    def build(x, level):
        if not isinstance(x, list):
            v = _arr(x)
            return v.reshape((1,) * (nd - v.ndim) + v.shape)
        if not x:
            raise ValueError("List at arrays cannot be empty")
        return concatenate([build(y, level + 1) for y in x], axis=-(d - level))
    return build(arrays, 0)


__all__ = ["append", "delete", "insert", "column_stack", "row_stack", "dstack", "hsplit", "vsplit", "dsplit", "rot90",
           "rollaxis", "resize", "trim_zeros", "ravel_multi_index", "unravel_index", "fill_diagonal", "put", "place",
           "putmask", "put_along_axis", "select", "choose", "piecewise", "apply_along_axis", "apply_over_axes",
           "require", "ix_", "packbits", "unpackbits", "cross", "block"]
