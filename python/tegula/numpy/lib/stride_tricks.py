"""numpy.lib.stride_tricks on tegula arrays: sliding_window_view (a view: no copy), broadcast_to and
broadcast_arrays (tegula.numpy's). as_strided is not offered: arbitrary strides can reach outside an array's memory,
which on a GPU is a fault rather than garbage; sliding_window_view, reshape and transposes cover its safe uses."""
from __future__ import annotations

import operator

import numpy as _np

from .._manipulation import broadcast_arrays, broadcast_to  # noqa: F401

__all__ = ["sliding_window_view", "broadcast_to", "broadcast_arrays", "as_strided"]


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """All windows of `window_shape` over `x` (along `axis`, default every axis), as NumPy's: the window axes are
    appended after x's axes, each shortened by its window's length minus one. The result is a view of x's memory.
    NumPy's is read-only unless writeable=True; tegula's is always writable, and a write into it reaches x and every
    window sharing the element."""
    from .._creation import asarray

    x = asarray(x)
    try:
        window_shape = tuple(window_shape)
    except TypeError:
        window_shape = (window_shape,)
    window_shape = tuple(operator.index(w) for w in window_shape)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window_shape) != x.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
        axis = tuple(range(x.ndim))
    else:
        axis = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True) \
            if hasattr(_np.lib, "array_utils") else tuple(a % x.ndim for a in _np.atleast_1d(axis))
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    shape = list(x.shape)
    for ax, w in zip(axis, window_shape):
        if shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    x._materialize()
    strides = tuple(x._strides) + tuple(x._strides[ax] for ax in axis)
    return x._raw_view(tuple(shape) + window_shape, strides, x._offset)


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    raise NotImplementedError("tegula.numpy.lib.stride_tricks.as_strided: arbitrary strides can reach outside the "
                              "array's memory (a fault on a GPU); use sliding_window_view, reshape or transposes")

