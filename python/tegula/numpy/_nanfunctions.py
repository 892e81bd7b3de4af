"""tegula.numpy's NaN-skipping reductions: nansum, nanprod, nanmax, nanmin, nanargmax, nanargmin, nanmean,
nanvar, nanstd (NaNs become the identity, or are left out of the count), with initial= and where=."""
from __future__ import annotations

import math

from ._common import _arr, _finish, _is_complex, _is_float, _is_inexact, _real_dtype
from ._reductions import (_accumulator, _argreduce, _axis, _count, _mask, _masked, _mean_dtype, _no_identity, _reduce,
                          _scalar_of, _squares_over, _zero_d_axis, all, any, mean, prod, sum, var)


def _nan_filled(a, value):
    """a with its NaNs replaced by value (a complex element is NaN when either part is)."""
    a = _arr(a)
    if not _is_inexact(a):
        return a
    return (a != a)._where(a._scalar_like(value), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return sum(_nan_filled(a, 0), axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    if _is_complex(_arr(a)):  # a value with a NaN part counts as NaN
        from ._complex_reductions import _is_nan

        z = _arr(a)
        return prod(_is_nan(z)._where(z._scalar_like(1), z), axis, dtype, out, keepdims, initial, where)
    return prod(_nan_filled(a, 1), axis, dtype, out, keepdims, initial, where)


def _all_nan(a, axis, keepdims):
    """Where every element of a slice is NaN (None for dtypes without NaN)."""
    a = _arr(a)
    if not _is_inexact(a):
        return None
    return all(a != a, axis, keepdims=keepdims)


def _valid(a, m):
    """The elements that count for a nan* reduction: not NaN, and selected by the where= mask m."""
    v = a == a
    return v if m is None else v & m


def _nan_extreme(op, a, axis, out, keepdims, initial, where):
    """nanmax/nanmin, NumPy's fmax/fmin.reduce: NaNs skipped; a slice with no value left gives `initial`, or
    NaN without it (NumPy also warns). A NaN initial is skipped too, like any NaN."""
    a = _arr(a)
    axis = _zero_d_axis(a, axis)
    if _is_complex(a):
        from . import _complex_reductions as C

        return _finish(C.extreme(a, axis, keepdims, op == "max", skip_nan=True, initial=initial, where=where), out,
                       True)
    if initial is None and where is not True:
        raise _no_identity("fmax" if op == "max" else "fmin")
    if not _is_float(a) or a.size == 0:
        return _reduce(op, a, axis, keepdims, None, out, initial, where)
    m = _mask(where, a)
    valid = _valid(a, m)
    r = _reduce(op, valid._where(a, _scalar_of(a, -math.inf if op == "max" else math.inf)), axis, keepdims)
    if initial is not None and not math.isnan(initial):
        r = r._binary("maximum" if op == "max" else "minimum", _scalar_of(r, initial), False)
    else:
        none = valid._reduce("sum", _axis(axis), bool(keepdims)) == 0
        r = none._where(r._scalar_like(math.nan), r)
    return _finish(r, out, True)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _nan_extreme("max", a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _nan_extreme("min", a, axis, out, keepdims, initial, where)


def _nan_arg(op, a, axis, out, keepdims):
    """nanargmax/nanargmin: an all-NaN slice raises ValueError, as in NumPy (this reads one flag back)."""
    a = _arr(a)
    if _is_complex(a):
        from . import _complex_reductions as C

        nan = C._is_nan(a)
        if nan.size and bool(nan.all(axis=axis).any()):
            raise ValueError("All-NaN slice encountered")
        r = C.argextreme(a, axis, op == "argmax", skip_nan=True)
        if keepdims:
            r = r.reshape((1,) * a.ndim if axis is None else tuple(1 if k == axis % a.ndim else s
                                                                    for k, s in enumerate(a.shape)))
        return _finish(r, out, True)
    empty = _all_nan(a, axis, False)
    if empty is not None and empty.size and bool(any(empty)):
        raise ValueError("All-NaN slice encountered")
    return _argreduce(op, _nan_filled(a, -math.inf if op == "argmax" else math.inf), axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg("argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg("argmin", a, axis, out, keepdims)


def _nan_count(a, m, axis, keepdims, t):
    """The number of non-NaN selected elements per slice, in dtype t."""
    return _valid(a, m)._reduce("sum", _axis(axis), bool(keepdims)).astype(t)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = _arr(a)
    if not _is_inexact(a):
        return mean(a, axis, dtype, out, keepdims, where=where)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    axis = _zero_d_axis(a, axis)  # NumPy's nanmean is a ratio of ufunc reductions: axis 0 of a 0-d array passes
    _count(a, axis)  # checks the axes
    m = _mask(where, a)
    total = _masked(_nan_filled(acc, 0), m, 0)._reduce("sum", _axis(axis), bool(keepdims))
    return _finish((total / _nan_count(a, m, axis, keepdims, _real_dtype(acc._dtype_name))).astype(t), out, True)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    a = _arr(a)
    if correction is not None:
        ddof = correction
    if not _is_inexact(a):
        return var(a, axis, dtype, out, ddof, keepdims, where=where)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    axis = _zero_d_axis(a, axis)  # NumPy's nanvar is made of ufunc reductions: axis 0 of a 0-d array passes
    _count(a, axis)  # checks the axes
    m = _mask(where, a)
    mu = _masked(_nan_filled(acc, 0), m, 0)._reduce("sum", _axis(axis), True) / _nan_count(a, m, axis, True,
                                                                                         _real_dtype(acc._dtype_name))
    mu._materialize()
    d = _masked(_nan_filled(acc - mu, 0), m, 0)
    r = _squares_over(d, axis, keepdims, _nan_count(a, m, axis, keepdims, _real_dtype(acc._dtype_name)) - ddof)
    return _finish(r.astype(_real_dtype(t)), out, True)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    r = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, correction=correction)
    return _finish(r._unary("sqrt"), out, True)
