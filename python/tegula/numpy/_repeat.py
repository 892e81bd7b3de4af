"""np.repeat: a scalar count is a broadcast copied (one lazy kernel); one count per element finds each output's
source with a searchsorted over the counts' running sum and takes it."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._common import _arr, _axis, same_dtype_copy
from ._core import ndarray
from ._creation import arange
from ._manipulation import broadcast_to
from ._reductions import cumsum
from ._selection import take
from ._sort import searchsorted

__all__ = ["repeat"]


def repeat(a, repeats, axis=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    elif a.ndim == 0:  # NumPy ravels a 0-d array first, whatever the axis
        a = a.reshape(1)
    ax = _axis(axis, a.ndim)
    if not isinstance(repeats, (int, _np.integer)):
        if _np.ndim(repeats) == 0 and not isinstance(repeats, ndarray):
            repeats = int(repeats)
        else:
            return _repeat_counts(a, repeats, ax)
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    if a.shape[ax] == 1:
        # One element along the axis: the result is its broadcast, copied lazily (it fuses into what reads it:
        # stockham_fft's D[:] = repeat(tmp, n, axis=2) is one kernel, not a copy and then another).
        shape = list(a.shape)
        shape[ax] = repeats
        return same_dtype_copy(a._broadcast_to(tuple(shape)))
    b = a._expand_dims([ax + 1])
    shape = list(b.shape)
    shape[ax + 1] = repeats
    b = b._broadcast_to(tuple(shape)).copy()
    out = list(a.shape)
    out[ax] *= repeats
    return b.reshape(tuple(out))


def _repeat_counts(a, counts, axis):
    """repeat with one count per element along `axis` (counts: an array broadcast to that length)."""
    length = a.shape[axis]
    c = _arr(counts, a).astype("int64")
    if c.ndim > 1:
        raise ValueError("repeats must be a scalar or a 1-D array")
    c = broadcast_to(c, (length,)) if c.shape != (length,) else c
    if bool((c < 0).any()):
        raise ValueError("repeats may not contain negative values.")
    ends = cumsum(c)
    total = int(ends[-1]) if length else 0
    src = searchsorted(ends, arange(total, dtype="int64", device=_core.device_of(a)), side="right")
    return take(a, src, axis=axis)
