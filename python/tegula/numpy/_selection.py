"""tegula.numpy searching and selecting: nonzero, argwhere, flatnonzero, take, compress, extract (and the sort/dot
stubs: those need the library layer)."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._common import _arr, _finish
from ._core import ndarray
from ._creation import empty
from ._manipulation import moveaxis, stack


from ._sort import (argsort, median, nanmedian, nanpercentile, nanquantile, percentile, quantile,  # noqa: E402,F401
                    searchsorted, sort, unique)


def nonzero(a):
    from ._indexing import nonzero as nz

    return nz(_arr(a))


def flatnonzero(a):
    from ._indexing import nonzero_flat

    return nonzero_flat(_arr(a))


def argwhere(a):
    idx = nonzero(a)
    if not idx:
        return empty((0, 0), "int64", device=_core.device_of(_arr(a)))
    return stack(idx, axis=1)


def take(a, indices, axis=None, out=None, mode="raise"):
    from ._indexing import take_rows

    a = _arr(a)
    if mode != "raise":
        raise NotImplementedError(f"take mode {mode!r}: only 'raise' is supported")
    if axis is None:
        r = take_rows(a.reshape(-1), indices)
    else:
        r = moveaxis(take_rows(moveaxis(a, axis, 0), indices), list(range(_np.ndim(indices) if not isinstance(indices, ndarray) else indices.ndim)),
                     list(range(axis % a.ndim, axis % a.ndim + (indices.ndim if isinstance(indices, ndarray) else _np.ndim(indices)))))
    return _finish(r, out, True)


def compress(condition, a, axis=None, out=None):
    a = _arr(a)
    c = _arr(condition).astype("bool")
    if axis is None:
        return _finish(take(a, flatnonzero(c)), out, True)
    return _finish(take(a, flatnonzero(c), axis=axis), out, True)


def extract(condition, arr):
    from ._indexing import compress_flat

    return compress_flat(_arr(arr), _arr(condition) != 0)
