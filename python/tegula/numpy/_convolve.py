"""convolve and correlate of two 1-D arrays, as NumPy's (direct sums, exact for integers): the output is a product
of the windows of the zero-padded longer array with the reversed shorter one, taken 64 taps at a time (each chunk
one gather and one matrix-vector product), so memory stays at 64 values per output element."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._common import _arr
from ._creation import arange, zeros
from ._dtypes import result_type
from ._manipulation import concatenate
from ._ufuncs import conjugate

_TAPS = 64  # taps per chunk


def _modes(mode):
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return mode


def _one_d(x, name):
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    x = x.reshape(-1)
    if x.shape[0] == 0:
        raise ValueError(f"{name} cannot be empty")
    return x


def convolve(a, v, mode="full"):
    mode = _modes(mode)
    a, v = _arr(a), _arr(v)
    a, v = _one_d(a, "a"), _one_d(v, "v")
    out_dtype = _np.dtype(result_type(a, v)).name
    work = "int64" if out_dtype == "bool" else out_dtype
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    n, m = a.shape[0], v.shape[0]
    start, length = {"full": (0, n + m - 1), "same": ((m - 1) // 2, n), "valid": (m - 1, n - m + 1)}[mode]
    dev = _core.device_of(a)
    pad = zeros((m - 1,), work, device=dev)
    padded = concatenate([pad, a.astype(work), pad]) if m > 1 else a.astype(work)
    taps = v.astype(work)[::-1]
    rows = arange(length, dtype="int64", device=dev)[:, None] + start
    out = None
    for j0 in range(0, m, _TAPS):
        j1 = min(m, j0 + _TAPS)
        windows = padded[rows + arange(j0, j1, dtype="int64", device=dev)[None, :]]  # (length, j1 - j0)
        part = windows @ taps[j0:j1]
        out = part if out is None else out + part
    return (out != 0) if out_dtype == "bool" else out


def correlate(a, v, mode="valid"):
    """c[k] = sum_n a[n + k] conj(v[n]): the convolution of a with v reversed and conjugated (NumPy's order of
    the output, also when v is the longer one)."""
    mode = _modes(mode)
    a, v = _arr(a), _arr(v)
    a, v = _one_d(a, "a"), _one_d(v, "v")
    vv = conjugate(v) if v._dtype_name.startswith("complex") else v
    if v.shape[0] > a.shape[0]:  # NumPy computes correlate(v, a) and reverses (and conjugates) it
        aa = conjugate(a) if a._dtype_name.startswith("complex") else a
        r = convolve(v, aa[::-1], mode)[::-1]
        return conjugate(r) if r._dtype_name.startswith("complex") else r
    return convolve(a, vv[::-1], mode)


__all__ = ["convolve", "correlate"]
