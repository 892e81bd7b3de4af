"""tegula.numpy searching and selecting: nonzero, argwhere, flatnonzero, take, compress, extract, take_along_axis
(sorting and order statistics: _sort)."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from ._common import _arr, _arrays_on_one_device, _axis, _finish
from ._core import ndarray
from ._creation import arange, empty
from ._manipulation import broadcast_to, moveaxis, stack
from ._indexing import compress_flat, nonzero as nz, nonzero_flat, take_rows
from ._ufuncs import maximum, minimum


def nonzero(a):
    return nz(_arr(a))


def flatnonzero(a):
    return nonzero_flat(_arr(a))


def argwhere(a):
    a = _arr(a)
    if a.ndim == 0:  # NumPy: one row of no coordinates where the scalar is true
        return empty((int(bool(a)), 0), "int64", device=_core.device_of(a))
    idx = nonzero(a)
    if not idx:
        return empty((0, 0), "int64", device=_core.device_of(a))
    return stack(idx, axis=1)


def take(a, indices, axis=None, out=None, mode="raise"):
    """np.take: mode 'raise' checks the indices; 'wrap' takes them modulo the axis length; 'clip' clamps them to it
    (negative ones to 0, as NumPy's)."""
    a = _arr(a)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if a.ndim == 0 and axis is not None:  # NumPy takes from a 0-d array as from its 1-d ravel
        a = a.reshape(1)
    if axis is not None and not -a.ndim <= axis < a.ndim:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    src = a.reshape(-1) if axis is None else moveaxis(a, axis, 0)
    if axis is not None and math.prod(a.shape[:axis % a.ndim]) == 0:
        # NumPy's take checks indices per outer slice: with none, nothing is checked (an empty result)
        k_shape = _np.shape(indices) if not isinstance(indices, ndarray) else indices.shape
        ax = axis % a.ndim
        return _finish(empty(a.shape[:ax] + tuple(k_shape) + a.shape[ax + 1:], a._dtype_name,
                             device=_core.device_of(a)), out, True)
    if mode == "raise" and src.ndim and src.shape[0] == 0 and _np.size(indices):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode != "raise":
        n = src.shape[0] if src.ndim else 0
        idx = _arr(indices, a) if isinstance(indices, ndarray) else _np.asarray(indices)
        if n == 0 and _np.size(indices):
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if isinstance(idx, ndarray):
            indices = idx % n if mode == "wrap" else _clip_indices(idx, n)
        else:
            indices = _np.mod(idx, n) if mode == "wrap" else _np.clip(idx, 0, n - 1)
    try:
        r = take_rows(src, indices)
    except IndexError as e:  # it indexed src's first axis, which is a's `axis`
        if axis is None or axis % a.ndim == 0:
            raise
        raise IndexError(str(e).replace(" for axis 0 ", f" for axis {axis % a.ndim} ", 1)) from None
    if axis is not None:
        k = indices.ndim if isinstance(indices, ndarray) else _np.ndim(indices)
        r = moveaxis(r, list(range(k)), list(range(axis % a.ndim, axis % a.ndim + k)))
    return _finish(r, out, True)


def take_along_axis(arr, indices, axis=-1):
    arr = _arr(arr)
    idx = _arr(indices)
    if axis is None:
        return take(arr, idx)
    ax = _axis(axis, arr.ndim)
    # flat index = sum over axes of coordinate * stride, with the indexed axis's coordinate from idx
    shape = _np.broadcast_shapes(arr.shape[:ax] + (1,) + arr.shape[ax + 1:], idx.shape)
    strides = [math.prod(arr.shape[d + 1:]) for d in range(arr.ndim)]
    flat = (idx < 0)._where(idx + arr.shape[ax], idx).astype("int64") * strides[ax]
    for d in range(arr.ndim):
        if d == ax:
            continue
        coord = arange(shape[d], device=_core.device_of(arr)).reshape(
            tuple(shape[d] if i == d else 1 for i in range(arr.ndim)))
        flat = flat + coord * strides[d]
    return take(arr.reshape(-1), broadcast_to(flat, shape))


def _clip_indices(idx, n):
    return minimum(maximum(idx, 0), n - 1)


def compress(condition, a, axis=None, out=None):
    a, c = _arrays_on_one_device([a, condition])
    c = c.astype("bool")
    if axis is None:
        return _finish(take(a, flatnonzero(c)), out, True)
    return _finish(take(a, flatnonzero(c), axis=axis), out, True)


def extract(condition, arr):
    arr, condition = _arrays_on_one_device([arr, condition])
    return compress_flat(arr, condition != 0)
