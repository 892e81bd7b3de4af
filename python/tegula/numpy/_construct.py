"""Array construction beyond the basics, as NumPy's: logspace/geomspace, indices and fromfunction, diag and
diagflat, vander, the tril/triu/diag index helpers, atleast_3d, and the window functions (bartlett, blackman,
hamming, hanning, kaiser). Each is a few tegula.numpy expressions on the requested device."""
from __future__ import annotations

import math

import numpy as _np

from . import _core, _value_ranges
from ._common import _arr
from ._dtypes import result_type
from ._creation import arange, empty, linspace, ones, zeros
from ._indexing import nonzero
from ._manipulation import broadcast_to, moveaxis, stack
from ._special import i0
from ._ufuncs import absolute, cos, exp, power, sqrt


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    y = moveaxis(linspace(start, stop, num=num, endpoint=endpoint, axis=0, device=device), 0, -1)
    b = _arr(_np.asarray(base, dtype=_np.float64), y)[..., None] if _np.ndim(base) else base
    r = moveaxis(power(b, y), -1, axis)
    return r.astype(dtype) if dtype is not None else r


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """Numbers spaced evenly on a log scale, as NumPy's: the sign (or complex phase) of start is factored out, so a
    stop of the other sign gives NaNs between the ends; the ends are start and stop exactly."""
    s, e = _np.asarray(start), _np.asarray(stop)
    if _np.any(s == 0) or _np.any(e == 0):
        raise ValueError("Geometric sequence cannot include zero")
    sign = _np.sign(s) if not _np.iscomplexobj(s) else s / _np.abs(s)
    with _np.errstate(invalid="ignore", divide="ignore"):
        ls, le = _np.log(s / sign), _np.log(e / sign)
    r = exp(linspace(ls, le, num=num, endpoint=endpoint, axis=0, device=device))  # the samples on axis 0
    shape = _np.broadcast_shapes(s.shape, e.shape)
    r = r * _arr(_np.broadcast_to(sign, shape).astype(result_type(sign, r)), r)
    if num > 0:
        r = r.copy()
        r[0] = _arr(_np.broadcast_to(s, shape).astype(r.dtype), r)
        if endpoint and num > 1:
            r[-1] = _arr(_np.broadcast_to(e, shape).astype(r.dtype), r)
    r = moveaxis(r, 0, axis) if r.ndim > 1 else r
    return r.astype(dtype) if dtype is not None else r


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    dims = tuple(int(d) for d in dimensions)
    n = len(dims)
    grids = []
    for i, d in enumerate(dims):
        shape = (1,) * i + (d,) + (1,) * (n - i - 1)
        grids.append(arange(d, dtype=_np.dtype(dtype).name, device=device).reshape(shape))
    if sparse:
        return tuple(grids)
    if not grids:
        from ._creation import empty

        return empty((0,), _np.dtype(dtype).name, device=device)
    grid = stack([broadcast_to(g, dims) for g in grids])
    if grid.size:  # each grid's bounds: index arrays made of it skip the bounds check
        for i, d in enumerate(dims):
            _value_ranges.note(grid[i], 0, d - 1)
    return grid


def fromfunction(function, shape, *, dtype=float, device=None, **kwargs):
    return function(*indices(shape, dtype=dtype, device=device), **kwargs)


def diag(v, k=0):
    """A 1-D v: the square array with v on diagonal k; a 2-D v: its diagonal k (a copy)."""
    v = _arr(v)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), v._dtype_name, device=_core.device_of(v))
        if v.shape[0]:
            from ._creation import arange

            i = arange(v.shape[0], dtype="int64", device=_core.device_of(v))
            rows, cols = (i, i + k) if k >= 0 else (i - k, i)
            out[rows, cols] = v
        return out
    if v.ndim == 2:
        return v.diagonal(k).copy()
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    return diag(_arr(v).reshape(-1), k)


def vander(x, N=None, increasing=False):
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else int(N)
    p = arange(n, dtype="int64", device=_core.device_of(x))
    if not increasing:
        p = p[::-1]
    return power(x[:, None], p[None, :].astype(x._dtype_name) if x._dtype_name.startswith(("float", "complex"))
                 else p[None, :])


def _tri_indices(n, k, m, upper):
    m = n if m is None else m
    i = arange(n, dtype="int64")[:, None]
    j = arange(m, dtype="int64")[None, :]
    mask = (j - i >= k) if upper else (j - i <= k)
    return nonzero(mask)


def tril_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, False)


def triu_indices(n, k=0, m=None):
    return _tri_indices(n, k, m, True)


def tril_indices_from(arr, k=0):
    a = _arr(arr)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(a.shape[-2], k=k, m=a.shape[-1])


def triu_indices_from(arr, k=0):
    a = _arr(arr)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(a.shape[-2], k=k, m=a.shape[-1])


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is non-zero (for triu/tril: the triangle's indices)."""
    return nonzero(mask_func(ones((n, n), "int64"), k) != 0)


def diag_indices(n, ndim=2):
    i = arange(n, dtype="int64")
    return (i,) * ndim


def diag_indices_from(arr):
    a = _arr(arr)
    if a.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(a.shape[0], a.ndim)


def atleast_3d(*arys):
    out = []
    for a in arys:
        a = _arr(a)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, a.shape[0], 1)
        elif a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


# ---- windows ------------------------------------------------------------------------------------
def _window_n(M):
    if M < 1:
        return None, empty((0,), "float64")
    if M == 1:
        return None, ones((1,), "float64")
    return arange(1 - M, M, 2, dtype="float64"), None


def bartlett(M):
    n, done = _window_n(int(M))
    return done if done is not None else 1.0 - absolute(n) / (M - 1)


def blackman(M):
    n, done = _window_n(int(M))
    if done is not None:
        return done
    return 0.42 + 0.5 * cos(math.pi * n / (M - 1)) + 0.08 * cos(2.0 * math.pi * n / (M - 1))


def hamming(M):
    n, done = _window_n(int(M))
    return done if done is not None else 0.54 + 0.46 * cos(math.pi * n / (M - 1))


def hanning(M):
    n, done = _window_n(int(M))
    return done if done is not None else 0.5 + 0.5 * cos(math.pi * n / (M - 1))


def kaiser(M, beta):
    M = int(M)
    if M < 1:
        from ._creation import empty

        return empty((0,), "float64")
    if M == 1:
        from ._creation import ones

        return ones((1,), "float64")
    n = arange(0, M, dtype="float64")
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / float(_np.i0(float(beta)))


__all__ = ["logspace", "geomspace", "indices", "fromfunction", "diag", "diagflat", "vander", "tril_indices",
           "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices", "diag_indices", "diag_indices_from",
           "atleast_3d", "bartlett", "blackman", "hamming", "hanning", "kaiser"]
