"""Array API standard (2024.12) names that NumPy spells differently or lacks, and a few NumPy
functions built from the others (tril/triu, diff, vecdot, take_along_axis, logaddexp, arctan2, nextafter).
Every module-level helper is private: tegula.numpy star-imports this module."""
from __future__ import annotations

import math as _math

import numpy as _np

from . import _core
from . import _common, _creation, _manipulation, _reductions, _ufuncs
from ._selection import take_along_axis  # noqa: F401  (the array API's; it lives with take)
from ._core import dtype_name as _dtype_name
from ._common import _axis
from ._core import ndarray


def _arr(x, like=None):
    return _common._arr(x, like)


def astype(x, dtype, /, *, copy=True, device=None):
    x = _arr(x)
    r = x.astype(_dtype_name(dtype)) if (copy or x._dtype_name != _dtype_name(dtype)) else x
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
    return _manipulation.swapaxes(x, -1, -2)


def _index_grid(rows, cols, device):
    r = _creation.arange(rows, device=device)[:, None]
    c = _creation.arange(cols, device=device)[None, :]
    return r, c


def _zero_like(m):
    return m._scalar_like(False if m._dtype_name == "bool" else 0)  # a Python 0 would make bool int64


def _triangle(m, k, lower):
    """tril/triu: NumPy takes a 1-d m as the matrix of m repeated in rows (its length square); a 0-d one is its
    TypeError."""
    m = _arr(m)
    if m.ndim == 0:
        raise TypeError(f"{'tril' if lower else 'triu'}() needs an array of at least 1 dimension, got a 0-d one")
    rows, cols = (m.shape[-1], m.shape[-1]) if m.ndim == 1 else m.shape[-2:]
    r, c = _index_grid(rows, cols, _core.device_of(m))
    keep = (c - r) <= k if lower else (c - r) >= k
    return keep._where(m, _zero_like(m))


def tril(m, k=0):
    return _triangle(m, k, True)


def triu(m, k=0):
    return _triangle(m, k, False)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    import operator

    a = _arr(a)
    n = operator.index(n)
    if n == 0:  # NumPy returns the input as it is, before any other check
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    _axis(axis, a.ndim)
    if prepend is not None or append is not None:
        parts = ([_manipulation.broadcast_to(_arr(prepend, a), _shape_with(a, axis, 1)) if _np.ndim(prepend) == 0 and
                  not isinstance(prepend, ndarray) else _arr(prepend)] if prepend is not None else []) + [a] + \
                ([_manipulation.broadcast_to(_arr(append, a), _shape_with(a, axis, 1)) if _np.ndim(append) == 0 and
                  not isinstance(append, ndarray) else _arr(append)] if append is not None else [])
        a = _manipulation.concatenate(parts, axis)
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
    a = _arr(x1)
    p = (_ufuncs.conj(a) if a._dtype_name.startswith("complex") else a) * _arr(x2, a)
    return _reductions.sum(p, axis=axis, dtype=p._dtype_name)  # in the operands' dtype (sum alone widens small ints)


def unstack(x, /, *, axis=0):
    x = _arr(x)
    ax = _axis(axis, x.ndim)
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


def _in_float32(*xs):
    """Half-precision operands of a composed ufunc (all of one dtype) in float32 (NumPy's float16 loops compute in
    float and round once), and the dtype to round the result back to (None: already float32 or wider)."""
    t = xs[0]._dtype_name
    if t in ("float16", "bfloat16"):
        return (*(x.astype("float32") for x in xs), t)
    return (*xs, None)


def logaddexp(x1, x2, /, out=None, **kw):
    a, b = _ufuncs._float_pair(x1, x2, "logaddexp")  # Python scalars stay weak: logaddexp(1.5, float32) is float32
    a, b, half = _in_float32(a, b)
    d = -(a - b)._unary("abs")
    # x == y (infinities included, where d is NaN): x + log(2)
    r = (a == b)._where(a + _math.log(2.0), _ufuncs.maximum(a, b) + _ufuncs.log1p(_ufuncs.exp(d)))
    return _common._done(r if half is None else r.astype(half), out, kw)


def logaddexp2(x1, x2, /, out=None, **kw):
    a, b = _ufuncs._float_pair(x1, x2, "logaddexp2")
    a, b, half = _in_float32(a, b)
    d = -(a - b)._unary("abs")
    r = (a == b)._where(a + 1.0, _ufuncs.maximum(a, b) + _ufuncs.log1p(_ufuncs.exp2(d)) * (1.0 / _math.log(2.0)))
    return _common._done(r if half is None else r.astype(half), out, kw)


arctan2 = atan2 = _ufuncs.arctan2

# (mantissa bits, lowest normal exponent, highest exponent) of the float dtypes
_FLOAT_BITS = {"float16": (10, -14, 15), "bfloat16": (7, -126, 127), "float32": (23, -126, 127),
               "float64": (52, -1022, 1023)}


def nextafter(x1, x2, /, out=None, **kw):
    """The next representable value after x1 towards x2 (x2 itself where they are equal), in their promoted
    float dtype. Computed in float64 without bit casts: the spacing at x1 is a power of two, 2**(e - m) for
    x1's binade e (2**(e - m - 1) stepping down from a power of two), and x1 +- that spacing is exact."""
    a, b = _ufuncs._float_pair(x1, x2, "nextafter")
    t = a._dtype_name
    m, emin, emax = _FLOAT_BITS[t]
    x, y = a.astype("float64"), b.astype("float64")
    mag = x._unary("abs")
    e = mag._unary("log2")._unary("floor")
    e = (e._unary("exp2") > mag)._where(e - 1, e)  # log2 rounded up to the next binade: correct it
    e = ((e + 1)._unary("exp2") <= mag)._where(e + 1, e)
    e = _ufuncs.maximum(e, x._scalar_like(float(emin)))  # subnormals: the lowest binade's spacing
    up = y > x
    shrinking = up != (x > 0)  # the step goes towards zero
    halve = shrinking & (mag == e._unary("exp2")) & (e > emin)
    step = (halve._where(e - (m + 1), e - m))._unary("exp2")
    r = up._where(x + step, x - step)
    r = (r == 0)._where(x * 0, r)  # stepping from +-smallest subnormal to zero keeps x's sign
    r = (x == 0)._where(up._where(x._scalar_like(2.0 ** (emin - m)), x._scalar_like(-2.0 ** (emin - m))), r)
    biggest = (2.0 - 2.0 ** -m) * 2.0 ** emax
    r = (mag == _math.inf)._where(_ufuncs.copysign(x._scalar_like(biggest), x), r)
    r = (x == y)._where(y, r)
    r = ((x != x) | (y != y))._where(x + y, r)  # NaN in, NaN out
    return _common._done(r.astype(t), out, kw)


def _float_unary(op, name):
    def f(x, /, out=None, **kw):
        x = _ufuncs._as_float(x)
        if _common._is_complex(x):  # Kahan's formulas on the parts (_complex_inverse.py)
            from ._complex_inverse import BY_NAME

            return _common._finish(BY_NAME[op](x), out, kw.get("where", True), kw.get("dtype"))
        return _common._finish(x._unary(op), out, kw.get("where", True), kw.get("dtype"))
    f.__name__ = name
    return f


arcsin = asin = _float_unary("asin", "arcsin")
arccos = acos = _float_unary("acos", "arccos")
arctan = atan = _float_unary("atan", "arctan")
arcsinh = asinh = _float_unary("asinh", "arcsinh")
arccosh = acosh = _float_unary("acosh", "arccosh")
arctanh = atanh = _float_unary("atanh", "arctanh")


def _scaled(x, name, factor):
    """x times a constant in x's float dtype, rounded once (the factor rounded to float16 first would be a second
    rounding)."""
    x, half = _in_float32(_ufuncs._as_float(x, name))
    r = x * factor
    return r if half is None else r.astype(half)


def deg2rad(x, /, out=None, **kw):
    return _common._done(_scaled(x, "deg2rad", _math.pi / 180), out, kw)


def rad2deg(x, /, out=None, **kw):
    return _common._done(_scaled(x, "rad2deg", 180 / _math.pi), out, kw)


radians, degrees = deg2rad, rad2deg


def _needs_library(name):
    def f(*args, **kwargs):
        raise NotImplementedError(f"{name} needs the library layer (CUB/cuBLASLt), which comes with issue #6")
    f.__name__ = name
    return f



