"""Array API standard (2024.12) names that NumPy spells differently or lacks, and a few NumPy
functions built from the others (tril/triu, diff, vecdot, take_along_axis, logaddexp, arctan2)."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from . import _functions as F
from ._core import dtype_name, ndarray


def _arr(x, like=None):
    return F._arr(x, like)


def astype(x, dtype, /, *, copy=True, device=None):
    x = _arr(x)
    r = x.astype(dtype_name(dtype)) if (copy or x._dtype_name != dtype_name(dtype)) else x
    if copy and r is x:
        r = x.copy()
    return r if device is None else r.to_device(device)


def isdtype(dtype, kind):
    dt = _np.dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if not isinstance(kind, str):
        return dt == _np.dtype(kind)
    kinds = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
             "real floating": "f", "complex floating": "c", "numeric": "iufc"}
    if kind not in kinds:
        raise ValueError(f"unknown dtype kind {kind!r}")
    return dt.kind in kinds[kind]


def matrix_transpose(x, /):
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs an array of at least 2 dimensions")
    return F.swapaxes(x, -1, -2)


def _index_grid(rows, cols, device):
    r = F.arange(rows, device=device)[:, None]
    c = F.arange(cols, device=device)[None, :]
    return r, c


def tril(m, k=0):
    m = _arr(m)
    r, c = _index_grid(m.shape[-2], m.shape[-1], _core.device_of(m))
    return ((c - r) <= k)._where(m, m._scalar_like(0))


def triu(m, k=0):
    m = _arr(m)
    r, c = _index_grid(m.shape[-2], m.shape[-1], _core.device_of(m))
    return ((c - r) >= k)._where(m, m._scalar_like(0))


def diff(a, n=1, axis=-1, prepend=None, append=None):
    a = _arr(a)
    if prepend is not None or append is not None:
        parts = ([F.broadcast_to(_arr(prepend, a), _shape_with(a, axis, 1)) if _np.ndim(prepend) == 0 and
                  not isinstance(prepend, ndarray) else _arr(prepend)] if prepend is not None else []) + [a] + \
                ([F.broadcast_to(_arr(append, a), _shape_with(a, axis, 1)) if _np.ndim(append) == 0 and
                  not isinstance(append, ndarray) else _arr(append)] if append is not None else [])
        a = F.concatenate(parts, axis)
    ax = axis % a.ndim
    for _ in range(n):
        hi = (slice(None),) * ax + (slice(1, None),)
        lo = (slice(None),) * ax + (slice(None, -1),)
        a = a[hi] - a[lo] if a._dtype_name != "bool" else a[hi] != a[lo]
        a._materialize()
    return a


def _shape_with(a, axis, size):
    s = list(a.shape)
    s[axis % a.ndim] = size
    return tuple(s)


def vecdot(x1, x2, /, *, axis=-1):
    p = _arr(x1) * _arr(x2)
    return F.sum(p, axis=axis, dtype=p._dtype_name)  # in the operands' dtype (sum alone widens small ints)


def unstack(x, /, *, axis=0):
    x = _arr(x)
    ax = axis % x.ndim
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


def take_along_axis(arr, indices, axis=-1):
    arr = _arr(arr)
    idx = _arr(indices)
    if axis is None:
        return F.take(arr, idx)
    ax = axis % arr.ndim
    # flat index = sum over axes of coordinate * stride, with the indexed axis's coordinate from idx
    shape = _np.broadcast_shapes(arr.shape[:ax] + (1,) + arr.shape[ax + 1:], idx.shape)
    strides = [math.prod(arr.shape[d + 1:]) for d in range(arr.ndim)]
    flat = (idx < 0)._where(idx + arr.shape[ax], idx).astype("int64") * strides[ax]
    for d in range(arr.ndim):
        if d == ax:
            continue
        coord = F.arange(shape[d], device=_core.device_of(arr)).reshape(
            tuple(shape[d] if i == d else 1 for i in range(arr.ndim)))
        flat = flat + coord * strides[d]
    return F.take(arr.reshape(-1), F.broadcast_to(flat, shape))


def logaddexp(x1, x2, /, out=None, **kw):
    a = F._as_float(x1)
    b = _arr(x2, a)
    m = F.maximum(a, b)
    d = -(a - b)._unary("abs")
    r = (m == -math.inf)._where(m, m + F.log1p(F.exp(d)))
    return F._finish(r, out, kw.get("where", True))


def logaddexp2(x1, x2, /, out=None, **kw):
    a = F._as_float(x1)
    b = _arr(x2, a)
    m = F.maximum(a, b)
    d = -(a - b)._unary("abs")
    r = (m == -math.inf)._where(m, m + F.log1p(F.exp2(d)) * (1.0 / math.log(2.0)))
    return F._finish(r, out, kw.get("where", True))


def arctan2(x1, x2, /, out=None, **kw):
    y = F._as_float(x1)
    x = _arr(x2, y)
    base = (y / x)._unary("atan")
    pi = y._scalar_like(math.pi)
    r = (x < 0)._where(F.copysign(pi, y) + base, base)
    half = F.copysign(y._scalar_like(math.pi / 2), y)
    r = (x == 0)._where((y == 0)._where(F.signbit(x)._where(F.copysign(pi, y), y * 0), half), r)
    return F._finish(r, out, kw.get("where", True))


atan2 = arctan2


def _float_unary(op):
    def f(x, /, out=None, **kw):
        return F._finish(F._as_float(x)._unary(op), out, kw.get("where", True), kw.get("dtype"))
    f.__name__ = op
    return f


arcsin = asin = _float_unary("asin")
arccos = acos = _float_unary("acos")
arctan = atan = _float_unary("atan")
arcsinh = asinh = _float_unary("asinh")
arccosh = acosh = _float_unary("acosh")
arctanh = atanh = _float_unary("atanh")
deg2rad = radians = lambda x, /, out=None, **kw: F._finish(F._as_float(x) * (math.pi / 180), out, True)  # noqa: E731
rad2deg = degrees = lambda x, /, out=None, **kw: F._finish(F._as_float(x) * (180 / math.pi), out, True)  # noqa: E731


def _needs_library(name):
    def f(*args, **kwargs):
        raise NotImplementedError(f"{name} needs the library layer (CUB/cuBLASLt), which comes with issue #6")
    f.__name__ = name
    return f


unique_values = _needs_library("unique_values")
unique_counts = _needs_library("unique_counts")
unique_inverse = _needs_library("unique_inverse")
unique_all = _needs_library("unique_all")
unique = _needs_library("unique")
searchsorted = _needs_library("searchsorted")
matmul = _needs_library("matmul")
tensordot = _needs_library("tensordot")
einsum = _needs_library("einsum")
