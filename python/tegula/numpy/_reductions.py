"""tegula.numpy reductions: sum/prod/max/min/all/any, mean/var/std, argmax/argmin, cumsum/cumprod, with
NumPy's where= (the masked-out elements become the reduction's identity, fused into the one kernel)."""
from __future__ import annotations

import math
import operator

import numpy as _np

from . import _core, _scan_engines
from ._common import _arr, _finish, _is_complex, _is_inexact, _py_max, _raise_axis, _real_dtype
from ._core import as_array, dtype_name, ndarray
from ._creation import full
from ._manipulation import concatenate
from ._ufuncs import isclose


_UFUNC = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum"}
_COMBINE = {"sum": "add", "prod": "mul", "max": "maximum", "min": "minimum"}  # the engine's op names
_IDENTITY = {"sum": 0, "prod": 1}


def _axis(axis):
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(axis)


def _shape_text(shape):
    """A shape as NumPy writes it in broadcast errors: (2,3), (3,), ()."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _mask(where, a, counted=False):
    """where= of a reduction over `a` as a bool array that broadcasts to a's shape, or None when it is
    True (everything selected). NumPy's errors: a non-bool array TypeError (lists and scalars convert to
    bool), a shape that does not broadcast to a's ValueError (`counted`: the text of np.broadcast_to,
    which mean/var/std use to count the selected elements)."""
    if where is True:
        return None
    if isinstance(where, (ndarray, _np.ndarray)):
        name = where._dtype_name if isinstance(where, ndarray) else where.dtype.name
        if name != "bool":
            raise TypeError(f"Cannot cast array data from dtype('{name}') to dtype('bool') according to the rule "
                            "'safe'")
        m = where if isinstance(where, ndarray) else as_array(where, a._device_id)
    else:
        m = as_array(_np.asarray(where, dtype=bool), a._device_id)
    shape, mshape = tuple(a.shape), tuple(m.shape)
    try:
        fits = len(mshape) <= len(shape) and _np.broadcast_shapes(shape, mshape) == shape
    except ValueError:
        fits = False
    if not fits:
        remapped = "operands could not be broadcast together with remapped shapes [original->remapped]: "
        if len(mshape) > len(shape):
            raise ValueError("input operand has more dimensions than allowed by the axis remapping")
        if counted:
            raise ValueError(f"{remapped}{_shape_text(mshape)}  and requested shape {_shape_text(shape)}")
        try:
            b = _np.broadcast_shapes(shape, mshape)
        except ValueError:
            raise ValueError(f"{remapped}{_shape_text(shape)} {_shape_text(mshape)} ") from None
        raise ValueError(f"non-broadcastable operand with shape {_shape_text(shape)} doesn't match the broadcast "
                         f"shape {_shape_text(b)}")
    return m


def _scalar_of(a, value):
    """value as a scalar node of a's dtype (NumPy casts initial= and identities into the reduction's dtype)."""
    s = a._scalar_like(value)
    return s if s._dtype_name == a._dtype_name else s.astype(a._dtype_name)


def _masked(a, m, fill):
    """a with the elements that mask m leaves out replaced by `fill`: a lazy where the reduction fuses."""
    return a if m is None else m._where(a, _scalar_of(a, fill))


def _mask_count(m, a, axis, keepdims, t):
    """The number of selected elements per slice (m broadcast against a), in dtype t."""
    return m._broadcast_to(a.shape)._reduce("sum", _axis(axis), bool(keepdims)).astype(t)


def _no_identity(name):
    return ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one has to "
                      "specify 'initial'")


def _zero_d_axis(a, axis):
    """NumPy's ufunc reductions take axis=0 or -1 on a 0-d array as the whole array (a legacy it keeps)."""
    return None if a.ndim == 0 and isinstance(axis, (int, _np.integer)) and axis in (0, -1) else axis


def _reduce(op, a, axis, keepdims, dtype=None, out=None, initial=None, where=True):
    a = _arr(a)
    axis = _zero_d_axis(a, axis)
    if dtype is not None:
        a = a.astype(dtype_name(dtype))
    if isinstance(axis, (tuple, list)):
        _axes(axis, a.ndim)  # NumPy's message for repeated axes
    if op not in _IDENTITY and initial is None and where is not True:
        raise _no_identity(_UFUNC[op])
    m = _mask(where, a)
    if initial is not None and op in ("max", "min") and a.size == 0:
        return _finish(_empty_with_initial(a, axis, keepdims, initial), out, True)
    a = _masked(a, m, _IDENTITY[op] if op in _IDENTITY else initial)
    r = a._reduce(op, _axis(axis), bool(keepdims))
    if initial is not None:
        r = r._binary(_COMBINE[op], _scalar_of(r, initial), False)
    if dtype is not None and r._dtype_name != dtype_name(dtype):
        r = r.astype(dtype_name(dtype))
    return _finish(r, out, True)


def _empty_with_initial(a, axis, keepdims, initial):
    """max/min of an empty array with initial=: every result element is `initial` (in a's dtype)."""
    shape = _np.empty(a.shape, bool).sum(axis=_axis(axis), keepdims=bool(keepdims)).shape
    return full(shape, initial, a._dtype_name, device=_core.device_of(a))


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    return _reduce("sum", a, axis, keepdims, dtype, out, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    a = _arr(a) if dtype is None else _arr(a).astype(dtype_name(dtype))
    axis = _zero_d_axis(a, axis)
    if _is_complex(a):  # no complex product in the engine: pairwise element-wise products
        from . import _complex_reductions as C

        return _finish(C.prod(a, axis, keepdims, initial, where), out, True)
    return _reduce("prod", a, axis, keepdims, dtype, out, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """A where= mask needs initial= (maximum has no identity), as in NumPy."""
    a = _arr(a)
    axis = _zero_d_axis(a, axis)
    if _is_complex(a):
        from . import _complex_reductions as C

        return _finish(C.extreme(a, axis, keepdims, True, initial=initial, where=where), out, True)
    return _reduce("max", a, axis, keepdims, None, out, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """A where= mask needs initial= (minimum has no identity), as in NumPy."""
    a = _arr(a)
    axis = _zero_d_axis(a, axis)
    if _is_complex(a):
        from . import _complex_reductions as C

        return _finish(C.extreme(a, axis, keepdims, False, initial=initial, where=where), out, True)
    return _reduce("min", a, axis, keepdims, None, out, initial, where)


amax, amin = max, min


def _argreduce(op, a, axis, out, keepdims):
    a = _arr(a)
    if axis is not None:
        axis = operator.index(axis)  # NumPy's TypeError for a tuple: "'tuple' object cannot be interpreted as ..."
    if a.ndim == 0 and axis is not None:  # NumPy ravels a 0-d array first: its axis 0 or -1 is the one element's
        r = _argreduce(op, a.reshape(1), axis, None, False)
        return _finish(r.reshape(()), out, True)
    if _is_complex(a):  # NumPy's lexicographic order, computed from the parts
        from . import _complex_reductions as C

        r = C.argextreme(a, axis, op == "argmax")
        if keepdims:
            r = r.reshape((1,) * a.ndim if axis is None else tuple(1 if k == axis % a.ndim else s
                                                                    for k, s in enumerate(a.shape)))
        return _finish(r, out, True)
    if axis is None:
        r = a.ravel()._reduce(op, 0, False)
        if keepdims:
            r = r.reshape((1,) * a.ndim)
    else:
        r = a._reduce(op, axis, bool(keepdims))
    return _finish(r, out, True)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _argreduce("argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _argreduce("argmin", a, axis, out, keepdims)


def _axes(axis, ndim):
    """axis (None, int or tuple) as sorted non-negative axes, with NumPy's AxisError and duplicate check."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    norm = tuple(x + ndim if -ndim <= x < 0 else x if 0 <= x < ndim else _raise_axis(x, ndim) for x in axes)
    if len(set(norm)) != len(norm):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(norm))


def _count(a, axis):
    return math.prod(a.shape[x] for x in _axes(axis, a.ndim))


def _mean_dtype(a, dtype):
    if dtype is not None:
        return dtype_name(dtype)
    return a._dtype_name if _is_inexact(a) else "float64"


def _accumulator(a, t):
    """a in the dtype its mean accumulates in: float32 for the half types, else the mean's dtype."""
    return a.astype("float32" if t in ("float16", "bfloat16") else t)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """With where=, the mean of the selected elements (NaN for a slice with none, where NumPy also warns)."""
    a = _arr(a)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    n = _count(a, axis)
    m = _mask(where, a, counted=True)
    if m is not None:
        n = _mask_count(m, a, axis, keepdims, _real_dtype(acc._dtype_name))
    r = _masked(acc, m, 0)._reduce("sum", _axis(axis), bool(keepdims)) / n
    return _finish(r.astype(t), out, True)


def _abs2(d):
    """|d|**2: d * d, or re**2 + im**2 for complex d (a real result, as NumPy's var of complex)."""
    if _is_complex(d):
        re, im = d._part(0), d._part(1)
        return re * re + im * im
    return d * d


def _squares_over(d, axis, keepdims, dof):
    """sum(|d|**2) / dof, NaN where dof <= 0 (NumPy warns there)."""
    r = _abs2(d)._reduce("sum", _axis(axis), bool(keepdims)) / dof
    return r if not isinstance(dof, ndarray) else (dof <= 0)._where(r._scalar_like(math.nan), r)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    """Two passes: the mean first, then the squared magnitudes of the deviations (real for complex a, as in
    NumPy). With where=, over the selected
    elements: sum / max(count - ddof, 0), so inf or NaN where that is 0, as NumPy gives (and warns)."""
    a = _arr(a)
    if correction is not None:
        ddof = correction
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    n = _count(a, axis)
    m = _mask(where, a, counted=True)
    if m is None:
        mu = acc._reduce("sum", _axis(axis), True) / n
        mu._materialize()
        r = _squares_over(acc - mu, axis, keepdims, _py_max(n - ddof, 0))
    else:
        mu = _masked(acc, m, 0)._reduce("sum", _axis(axis), True) / _mask_count(m, a, axis, True,
                                                                                 _real_dtype(acc._dtype_name))
        mu._materialize()
        d = acc - mu
        dof = _mask_count(m, a, axis, keepdims, _real_dtype(acc._dtype_name)) - ddof
        dof = (dof < 0)._where(dof._scalar_like(0), dof)
        r = _masked(_abs2(d), m, 0)._reduce("sum", _axis(axis), bool(keepdims)) / dof
    return _finish(r.astype(_real_dtype(t)), out, True)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    a = _arr(a)
    half = dtype is None and a._dtype_name in ("float16", "bfloat16")
    # half precision: the variance and its root in float32, rounded once (a float16 variance of small values is
    # subnormal, and its root would carry that rounding)
    r = var(a.astype("float32") if half else a, axis, dtype, None, ddof, keepdims, where=where, correction=correction)
    r = r._unary("sqrt")
    return _finish(r.astype(a._dtype_name) if half else r, out, True)


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """True where no selected element is zero: a count of zeros, so that empty slices give True as in NumPy."""
    a = _arr(a)
    zeros = _masked(a.astype("bool")._unary("not"), _mask(where, a), False)
    return _finish(zeros._reduce("sum", _axis(_zero_d_axis(a, axis)), bool(keepdims)) == 0, out, True)


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """True where some selected element is nonzero (a count: empty slices give False)."""
    a = _arr(a)
    nonzero = _masked(a.astype("bool"), _mask(where, a), False)
    return _finish(nonzero._reduce("sum", _axis(_zero_d_axis(a, axis)), bool(keepdims)) > 0, out, True)


def count_nonzero(a, axis=None, *, keepdims=False):
    a = _arr(a)
    return (a != 0)._reduce("sum", _axis(_zero_d_axis(a, axis)), bool(keepdims))


def _scan(op, a, axis, dtype, out):
    a = _arr(a)
    if axis is not None:
        axis = operator.index(axis)
    if axis is None:
        a, axis = (a if a.ndim == 1 else a.reshape(-1)), 0
    elif a.ndim == 0:  # NumPy ravels a 0-d array before its scan too
        a = a.reshape(1)
    if dtype is not None:
        a = a.astype(dtype_name(dtype))
    if _scan_engines.cub_applies(a, axis):
        r = _scan_engines.single_pass_scan(op, a, axis)
    elif _scan_engines.applies(a, axis):
        from . import _scan  # the chunked tile scan (tile kernels): loaded with the first long scan

        r = _scan.scan(op, a, axis)
    else:
        r = a._scan(op, axis)
    if dtype is not None and r._dtype_name != dtype_name(dtype):
        r = r.astype(dtype_name(dtype))
    return _finish(r, out, True)


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (flattened when None), one pass per row of the scanned axis."""
    return _scan("cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    a = _arr(a) if dtype is None else _arr(a).astype(dtype_name(dtype))
    if _is_complex(a):
        from . import _complex_reductions as C

        return _finish(C.cumprod(a, axis), out, True)
    return _scan("cumprod", a, axis, dtype, out)


def _cumulative(scan, initial, x, axis, dtype, include_initial):
    """The array API's cumulative_sum/prod: axis required beyond 1-D, optionally led by the identity."""
    x = _arr(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be specified for arrays of more than one dimension")
        axis = 0
    r = scan(x, axis, dtype)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        r = concatenate([full(tuple(shape), initial, r.dtype, device=_core.device_of(x)), r], axis)
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(cumprod, 1, x, axis, dtype, include_initial)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(all(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    a, b = _arr(a1), _arr(a2)
    if a.shape != b.shape:
        return False
    eq = a == b
    if equal_nan:
        eq = eq | ((a != a) & (b != b))
    return bool(all(eq))
