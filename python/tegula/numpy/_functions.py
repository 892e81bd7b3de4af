"""tegula.numpy functions: creation, ufuncs, reductions and manipulation, over the C++ ndarray.

Elementwise functions and reductions build lazy expressions (fused into one kernel when a value
is needed); everything else is views and assignments of those.
"""
from __future__ import annotations

import builtins
import math

import numpy as _np

from . import _core, _ndarray
from ._core import _tegula, as_array, dtype_name, ndarray

_py_max, _py_min, _py_abs, _py_sum, _py_all, _py_any, _py_round = (
    builtins.max, builtins.min, builtins.abs, builtins.sum, builtins.all, builtins.any, builtins.round)


def _is_py_scalar(x):
    """Python's own bool/int/float: weak under NEP 50. NumPy scalars (np.float64 is a float) are strong."""
    return isinstance(x, (bool, int, float)) and not isinstance(x, _np.generic)


def _arr(x, like=None):
    """x as a tegula array: a weak scalar node next to `like` for Python scalars, else an array on
    `like`'s device (NumPy scalars and 0-d arrays become strong 0-d arrays, as in NumPy 2)."""
    if isinstance(x, ndarray):
        return x
    if like is None:
        return as_array(x)
    if _is_py_scalar(x):
        return like._scalar_like(x)
    return as_array(x, like._device_id)


def _operand(x, like):
    """The other operand of like's binary op: Python scalars go to C++ as they are (weak)."""
    return x if _is_py_scalar(x) else _arr(x, like)


def _copy_of(x):
    return _ndarray.same_dtype_copy(x)


def _dev(device):
    return _core.device_id(device)


# ---- creation -------------------------------------------------------------------------------
def empty(shape, dtype=None, order="C", *, device=None, like=None):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return _tegula.array_empty(shape, dtype_name(dtype), _dev(device))


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if dtype is None:
        dtype = _np.asarray(fill_value).dtype if not isinstance(fill_value, ndarray) else fill_value.dtype
    if isinstance(fill_value, ndarray):  # an array fill: the result lives where it does unless told otherwise
        device = _core.device_of(fill_value) if device is None else device
        if _dev(device) != fill_value._device_id:
            fill_value = fill_value.to_device(device)
    a = empty(shape, dtype, device=device)
    a._assign(_arr(fill_value, a) if not isinstance(fill_value, ndarray) else fill_value)
    return a


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 0, dtype or "float64", device=device)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 1, dtype or "float64", device=device)


def _like_device(a, device):
    return device if device is not None else (_core.device_of(a) if isinstance(a, ndarray) else None)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return empty(a.shape if shape is None else shape, dtype or a.dtype, device=_like_device(a, device))


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full(a.shape if shape is None else shape, 0, dtype or a.dtype, device=_like_device(a, device))


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full(a.shape if shape is None else shape, 1, dtype or a.dtype, device=_like_device(a, device))


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full(a.shape if shape is None else shape, fill_value, dtype or a.dtype, device=_like_device(a, device))


def array(obj, dtype=None, copy=True, order="K", ndmin=0, *, device=None, like=None):
    if isinstance(obj, ndarray):
        a = obj.astype(dtype_name(dtype)) if dtype is not None else (obj.copy() if copy else obj)
        if device is not None and _dev(device) != obj._device_id:
            a = a.to_device(device)
    else:
        a = as_array(obj, _dev(device), dtype)
    while a.ndim < ndmin:
        a = a[None]
    return a


def asarray(obj, dtype=None, order=None, *, device=None, copy=None, like=None):
    if isinstance(obj, ndarray) and device is not None and _dev(device) != obj._device_id:
        obj = obj.to_device(device)
    if isinstance(obj, ndarray) and copy:
        obj = obj.copy()
    return as_array(obj, None if device is None else _dev(device), dtype)


asanyarray = asarray
ascontiguousarray = lambda a, dtype=None, *, like=None: asarray(a, dtype)._contiguous()  # noqa: E731


def from_dlpack(x, *, device=None, copy=None):
    if hasattr(x, "__cuda_array_interface__"):
        return _core.from_cuda_array_interface(x)
    return as_array(_np.from_dlpack(x), None if device is None else _dev(device))


def asnumpy(a, stream=None, order="C", out=None):
    r = _core.to_numpy(a) if isinstance(a, ndarray) else _np.asarray(a)
    if out is not None:
        out[...] = r
        return out
    return r


def _host_made(values, device):
    # Small index/grid constructors are computed by NumPy and copied once (documented).
    return as_array(values, _dev(device))


def arange(start, stop=None, step=1, dtype=None, *, device=None, like=None):
    """Computed on the device: start + i * step."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if dtype is None:
        dtype = _np.result_type(*[_np.asarray(v) if not isinstance(v, (int, float, bool)) else
                                  (_np.int64 if isinstance(v, int) else _np.float64) for v in (start, stop, step)])
    name = dtype_name(dtype)
    if _py_all(isinstance(v, (int, _np.integer)) for v in (start, stop, step)):
        n = len(range(int(start), int(stop), int(step)))
    else:
        n = _py_max(0, math.ceil((stop - start) / step))
    return _tegula.array_iota(n, float(start), float(step), name, _dev(device))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """Computed on the device (the last value is exactly `stop` when endpoint)."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if axis != 0 or not _py_all(isinstance(v, (int, float, _np.number)) for v in (start, stop)):
        r = _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
        if retstep:
            return _host_made(r[0], device), r[1]
        return _host_made(r, device)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else _np.nan
    name = dtype_name(dtype) if dtype is not None else "float64"
    exact = name in ("float16", "bfloat16", "float32", "float64")
    a = _tegula.array_iota(num, float(start), 0.0 if div <= 0 else float(step), name if exact else "float64",
                           _dev(device))
    if endpoint and num > 1:
        a[num - 1] = stop
    if not exact:  # NumPy computes in float64 and floors into an integer dtype
        a = a._unary("floor").astype(name)
    return (a, step) if retstep else a


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    return _host_made(_np.eye(N, M, k, dtype), device)


def identity(n, dtype=None, *, device=None, like=None):
    return eye(n, dtype=dtype or float, device=device)


def tri(N, M=None, k=0, dtype=float, *, device=None, like=None):
    return _host_made(_np.tri(N, M, k, dtype), device)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    grids = _np.meshgrid(*[asnumpy(x) for x in xi], copy=True, sparse=sparse, indexing=indexing)
    dev = next((x._device_id for x in xi if isinstance(x, ndarray)), None)
    return [as_array(g, dev) for g in grids]


# ---- ufuncs ---------------------------------------------------------------------------------
def _finish(result, out, where, dtype=None, casting="same_kind"):
    if dtype is not None:
        result = result.astype(dtype_name(dtype))
    if where is not True and where is not None:
        if out is None:
            raise NotImplementedError("where= without out= leaves elements uninitialised; pass out= too")
        result = _arr(where, result)._where(result, out)
    if out is not None:
        if isinstance(out, tuple):
            (out,) = out
        if not _np.can_cast(_np.dtype(result._dtype_name) if result._dtype_name != "bfloat16" else _np.float32,
                            out.dtype if out._dtype_name != "bfloat16" else _np.float32, casting):
            raise TypeError(f"Cannot cast ufunc output from dtype('{result._dtype_name}') to "
                            f"dtype('{out._dtype_name}') with casting rule '{casting}'")
        out._assign(result)
        return out
    return result


def _in_dtype(x, dtype):
    """A ufunc's array operand in the loop dtype that dtype= asks for (Python scalars stay weak)."""
    return x if dtype is None or _is_py_scalar(x) else _arr(x).astype(dtype_name(dtype))


_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


def _unary(op, doc):
    def ufunc(x, /, out=None, *, where=True, dtype=None, casting="same_kind", **kwargs):
        return _finish(_arr(_in_dtype(x, dtype))._unary(op), out, where, dtype, casting)

    ufunc.__doc__ = doc
    return ufunc


def _binary(op, doc):
    def ufunc(x1, x2, /, out=None, *, where=True, dtype=None, casting="same_kind", **kwargs):
        if op not in _COMPARISONS:
            x1, x2 = _in_dtype(x1, dtype), _in_dtype(x2, dtype)
        if isinstance(x1, ndarray):
            r = x1._binary(op, _operand(x2, x1), False)
        elif isinstance(x2, ndarray):
            r = x2._binary(op, _operand(x1, x2), True)
        else:
            a = _arr(x1)
            r = a._binary(op, _operand(x2, a), False)
        if r is NotImplemented:
            raise TypeError(f"unsupported operand types for {op}: {type(x1).__name__}, {type(x2).__name__}")
        return _finish(r, out, where, dtype, casting)

    ufunc.__doc__ = doc
    return ufunc


negative = _unary("neg", "Numerical negative, element-wise.")
absolute = _unary("abs", "Absolute value, element-wise.")
abs = absolute  # noqa: A001
exp = _unary("exp", "Exponential, element-wise.")
exp2 = _unary("exp2", "2**x, element-wise.")
log = _unary("log", "Natural logarithm, element-wise.")
log2 = _unary("log2", "Base-2 logarithm, element-wise.")
sqrt = _unary("sqrt", "Square root, element-wise.")
sin = _unary("sin", "Sine, element-wise.")
cos = _unary("cos", "Cosine, element-wise.")
tanh = _unary("tanh", "Hyperbolic tangent, element-wise.")
invert = _unary("not", "Bitwise NOT (logical NOT for booleans), element-wise.")
bitwise_not = bitwise_invert = invert

add = _binary("add", "Add arguments element-wise.")
subtract = _binary("sub", "Subtract arguments element-wise.")
multiply = _binary("mul", "Multiply arguments element-wise.")
divide = true_divide = _binary("div", "True division, element-wise.")
floor_divide = _binary("floordiv", "Floor division, element-wise.")
remainder = mod = _binary("mod", "Remainder with the sign of the divisor, element-wise.")
power = pow = _binary("pow", "First array elements raised to powers from the second, element-wise.")  # noqa: A001
maximum = _binary("maximum", "Element-wise maximum (NaN-propagating).")
minimum = _binary("minimum", "Element-wise minimum (NaN-propagating).")
bitwise_and = _binary("and", "Bitwise AND, element-wise.")
bitwise_or = _binary("or", "Bitwise OR, element-wise.")
bitwise_xor = _binary("xor", "Bitwise XOR, element-wise.")
left_shift = bitwise_left_shift = _binary("shl", "Shift bits left, element-wise.")
right_shift = bitwise_right_shift = _binary("shr", "Shift bits right, element-wise.")
equal = _binary("eq", "x1 == x2, element-wise.")
not_equal = _binary("ne", "x1 != x2, element-wise.")
less = _binary("lt", "x1 < x2, element-wise.")
less_equal = _binary("le", "x1 <= x2, element-wise.")
greater = _binary("gt", "x1 > x2, element-wise.")
greater_equal = _binary("ge", "x1 >= x2, element-wise.")


def _done(result, out, kw):
    """_finish with the where=/dtype=/casting= keywords of a ufunc written in Python."""
    return _finish(result, out, kw.get("where", True), kw.get("dtype"), kw.get("casting", "same_kind"))


def _is_float(x):
    return x._dtype_name in ("float16", "bfloat16", "float32", "float64")


def _no_bool(name, x):
    if x._dtype_name == "bool":
        raise TypeError(f"ufunc '{name}' did not contain a loop with signature matching types "
                        "<class 'numpy.dtypes.BoolDType'> -> None")
    return x


def _rounding(op, doc):
    """floor/ceil: integers and booleans are already whole, and keep their dtype (NumPy 2)."""
    def ufunc(x, /, out=None, **kw):
        x = _arr(x)
        return _done(x._unary(op) if _is_float(x) else _copy_of(x), out, kw)

    ufunc.__doc__ = doc
    return ufunc


floor = _rounding("floor", "Floor, element-wise.")
ceil = _rounding("ceil", "Ceiling, element-wise.")


def positive(x, /, out=None, **kw):
    return _done(_copy_of(_no_bool("positive", _arr(x))), out, kw)


def fabs(x, /, out=None, **kw):
    return _done(_as_float(x)._unary("abs"), out, kw)


def square(x, /, out=None, **kw):
    x = _arr(x)
    x = x.astype("int8") if x._dtype_name == "bool" else x
    return _done(x * x, out, kw)


def reciprocal(x, /, out=None, **kw):
    x = _arr(x)
    if _is_float(x):
        return _done(x._scalar_like(1) / x, out, kw)
    x = x.astype("int8") if x._dtype_name == "bool" else x
    # C integer division: 1/x is x for x = +-1, else 0 (NumPy also gives 0 for 0, with a warning)
    return _done((x._unary("abs") == 1)._where(x, x._scalar_like(0)), out, kw)


def _as_float(x):
    """x in the float dtype NumPy's float-only ufuncs use for it (int8 -> float16, int16 -> float32, ...)."""
    x = _arr(x)
    return x if _is_float(x) else x.astype(_float_loop(x._dtype_name))


def _float_loop(name):
    return {"bool": "float16", "int8": "float16", "uint8": "float16", "int16": "float32", "uint16": "float32"}.get(
        name, "float64")


def _native(op, doc):
    """A float-only ufunc that is one tile IR op (ints/bools computed in NumPy's float loop dtype)."""
    def ufunc(x, /, out=None, **kw):
        return _done(_as_float(x)._unary(op), out, kw)

    ufunc.__name__ = op
    ufunc.__doc__ = doc
    return ufunc


log10 = _native("log10", "Base-10 logarithm, element-wise.")
log1p = _native("log1p", "log(1 + x), accurate near 0, element-wise.")
expm1 = _native("expm1", "exp(x) - 1, accurate near 0, element-wise.")
tan = _native("tan", "Tangent, element-wise.")
sinh = _native("sinh", "Hyperbolic sine, element-wise.")
cosh = _native("cosh", "Hyperbolic cosine, element-wise.")


def trunc(x, /, out=None, **kw):
    x = _arr(x)
    if not _is_float(x):
        return _done(_copy_of(x), out, kw)
    return _done(x._unary("trunc"), out, kw)


fix = trunc


def _rint(x):
    return x._unary("rint")  # round half to even, -0.4 -> -0.0 (CUDA rint / std::nearbyint)


def rint(x, /, out=None, **kw):
    return _done(_rint(_as_float(x)), out, kw)


def around(a, decimals=0, out=None):
    """NumPy's rounding: half to even; integers stay integers (rounded to 10**-decimals when decimals < 0)."""
    a = _arr(a)
    if a._dtype_name == "bool":
        return rint(a, out=out) if decimals == 0 else _finish(_rint(_as_float(a) * 10.0 ** decimals) / 10.0 **
                                                                 decimals, out, True)
    if not _is_float(a):
        if decimals >= 0:
            return _finish(_copy_of(a), out, True)
        s = 10 ** -decimals
        return _finish((_rint(a.astype("float64") / s) * s).astype(a._dtype_name), out, True)
    if decimals == 0:
        return rint(a, out=out)
    if decimals > 0:
        s = a._scalar_like(10.0 ** decimals)
        return _finish(_rint(a * s) / s, out, True)
    s = a._scalar_like(10.0 ** -decimals)
    return _finish(_rint(a / s) * s, out, True)


round = round_ = around  # noqa: A001


def sign(x, /, out=None, **kw):
    x = _no_bool("sign", _arr(x))
    z = x._scalar_like(0)
    one = x._scalar_like(1)
    r = (x > z)._where(one, (x < z)._where(-one, z))
    if _is_float(x):
        r = (x != x)._where(x, r)
    return _done(r.astype(x._dtype_name), out, kw)


def isnan(x, /, out=None, **kw):
    x = _arr(x)
    return _done(x != x, out, kw)


def isinf(x, /, out=None, **kw):
    x = _arr(x)
    if not _is_float(x):
        return _done(x != x, out, kw)
    return _done(x._unary("abs") == math.inf, out, kw)


def isfinite(x, /, out=None, **kw):
    x = _arr(x)
    if not _is_float(x):
        return _done(x == x, out, kw)
    return _done((x - x) == 0, out, kw)


def signbit(x, /, out=None, **kw):
    x = _arr(x)
    if not _is_float(x):
        return _done(x < 0, out, kw)
    neg_zero = (x == 0) & ((x._scalar_like(1) / x) < 0)
    return _done((x < 0) | neg_zero, out, kw)


def _pair(x1, x2):
    """Both operands as tegula arrays; a Python scalar is weak next to the other operand (NEP 50)."""
    if isinstance(x1, ndarray) or (not isinstance(x2, ndarray) and not _is_py_scalar(x1)):
        a = _arr(x1)
        return a, _arr(x2, a)
    b = _arr(x2)
    return _arr(x1, b), b


def _float_pair(x1, x2):
    """Both operands in the float dtype of NumPy's float-only binary ufuncs for their promoted dtype."""
    a, b = _pair(x1, x2)
    t = a._binary("add", b, False)._dtype_name  # the promoted dtype (a lazy node, never computed)
    t = t if t in ("float16", "bfloat16", "float32", "float64") else _float_loop(t)
    return a.astype(t), b.astype(t)


def logical_not(x, /, out=None, **kw):
    return _done(_arr(x).astype("bool")._unary("not"), out, kw)


def _logical(op):
    def f(x1, x2, /, out=None, **kw):
        a, b = _pair(x1, x2)
        return _done(a.astype("bool")._binary(op, b.astype("bool"), False), out, kw)

    return f


logical_and, logical_or, logical_xor = _logical("and"), _logical("or"), _logical("xor")


def fmax(x1, x2, /, out=None, **kw):
    a, b = _pair(x1, x2)
    return _done((a != a)._where(b, (b != b)._where(a, maximum(a, b))), out, kw)


def fmin(x1, x2, /, out=None, **kw):
    a, b = _pair(x1, x2)
    return _done((a != a)._where(b, (b != b)._where(a, minimum(a, b))), out, kw)


def hypot(x1, x2, /, out=None, **kw):
    a, b = _float_pair(x1, x2)
    a, b = a._unary("abs"), b._unary("abs")
    hi, lo = maximum(a, b), minimum(a, b)
    r = lo / hi
    h = hi * (r * r + 1)._unary("sqrt")  # scaled: no overflow of a*a + b*b
    h = (hi == 0)._where(hi, h)
    return _done(((a == math.inf) | (b == math.inf))._where(a._scalar_like(math.inf), h), out, kw)


def float_power(x1, x2, /, out=None, **kw):
    a, b = _pair(x1, x2)
    return _done(a.astype("float64") ** b.astype("float64"), out, kw)


def fmod(x1, x2, /, out=None, **kw):
    """C's fmod: the remainder with the sign of the dividend (NumPy's remainder has the divisor's)."""
    a, b = _pair(x1, x2)
    r = a._binary("mod", b, False)
    r = ((r != 0) & ((r < 0) != (a < 0)))._where(r - b, r)
    if _is_float(r):
        r = (r == 0)._where(a * 0, r)  # a zero with the dividend's sign
        r = ((b._unary("abs") == math.inf) & isfinite(a))._where(a.astype(r._dtype_name), r)
    return _done(r, out, kw)


def copysign(x1, x2, /, out=None, **kw):
    a, b = _float_pair(x1, x2)
    return _done(signbit(b)._where(-a._unary("abs"), a._unary("abs")), out, kw)


def where(condition, x=None, y=None, /):
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    c = _arr(condition)
    xa = x if isinstance(x, ndarray) else None
    ya = y if isinstance(y, ndarray) else None
    like = xa if xa is not None else ya if ya is not None else c
    xa = xa if xa is not None else _arr(x, like)
    ya = ya if ya is not None else _arr(y, like)
    if _is_py_scalar(x) and _is_py_scalar(y):  # both Python scalars: NumPy's weak rules
        t = _np.result_type(x, y)
        xa, ya = as_array(_np.asarray(x, t), c._device_id), as_array(_np.asarray(y, t), c._device_id)
    return c._where(xa, ya)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kw):  # noqa: A002
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    r = _arr(a)
    if lo is not None:
        r = maximum(r, lo)
    if hi is not None:
        r = minimum(r, hi)
    return _done(r, out, kw)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = _arr(x)
    if not x._dtype_name.startswith(("float", "bfloat")):
        return x.copy() if copy else x
    fi = _np.finfo(_np.dtype(x._dtype_name) if x._dtype_name != "bfloat16" else _np.float32)
    r = (x != x)._where(x._scalar_like(float(nan)), x)
    r = (r == math.inf)._where(x._scalar_like(float(fi.max if posinf is None else posinf)), r)
    r = (r == -math.inf)._where(x._scalar_like(float(fi.min if neginf is None else neginf)), r)
    return r


# ---- reductions -----------------------------------------------------------------------------
def _axis(axis):
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(axis)


def _reduce(op, a, axis, keepdims, dtype=None, out=None, initial=None, where=True):
    a = _arr(a)
    if where is not True:
        raise NotImplementedError("where= in reductions is not supported yet")
    if dtype is not None:
        a = a.astype(dtype_name(dtype))
    if isinstance(axis, (tuple, list)):
        _axes(axis, a.ndim)  # NumPy's message for repeated axes
    if initial is not None and op in ("max", "min") and a.size == 0:
        return _finish(_empty_with_initial(a, axis, keepdims, initial), out, True)
    r = a._reduce(op, _axis(axis), bool(keepdims))
    if initial is not None:
        r = {"sum": add, "prod": multiply, "max": maximum, "min": minimum}[op](r, initial)
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
    return _reduce("prod", a, axis, keepdims, dtype, out, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    return _reduce("max", a, axis, keepdims, None, out, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    return _reduce("min", a, axis, keepdims, None, out, initial, where)


amax, amin = max, min


def _argreduce(op, a, axis, out, keepdims):
    a = _arr(a)
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
    return a._dtype_name if _is_float(a) else "float64"


def _accumulator(a, t):
    """a in the dtype its mean accumulates in: float32 for the half types, else the mean's dtype."""
    return a.astype("float32" if t in ("float16", "bfloat16") else t)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = _arr(a)
    _where_unsupported(where)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    r = acc._reduce("sum", _axis(axis), bool(keepdims)) / _count(a, axis)
    return _finish(r.astype(t), out, True)


def _squares_over(d, axis, keepdims, dof):
    """sum(d * d) / dof, NaN where dof <= 0 (NumPy warns there)."""
    r = (d * d)._reduce("sum", _axis(axis), bool(keepdims)) / dof
    return r if not isinstance(dof, ndarray) else (dof <= 0)._where(r._scalar_like(math.nan), r)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    a = _arr(a)
    _where_unsupported(where)
    if correction is not None:
        ddof = correction
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    n = _count(a, axis)
    m = acc._reduce("sum", _axis(axis), True) / n
    m._materialize()  # two passes: the mean first, then the squares of the deviations
    r = _squares_over(acc - m, axis, keepdims, _py_max(n - ddof, 0))
    return _finish(r.astype(t), out, True)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):  # noqa: A002
    r = var(a, axis, dtype, None, ddof, keepdims, where=where, correction=correction)
    return _finish(r._unary("sqrt"), out, True)


def _where_unsupported(where):
    if where is not True:
        raise NotImplementedError("where= in reductions is not supported yet")


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """True where no element is zero: a count of zeros, so that empty slices give True as in NumPy."""
    _where_unsupported(where)
    zeros = _arr(a).astype("bool")._unary("not")._reduce("sum", _axis(axis), bool(keepdims))
    return _finish(zeros == 0, out, True)


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """True where some element is nonzero (a count: empty slices give False)."""
    _where_unsupported(where)
    return _finish(_arr(a).astype("bool")._reduce("sum", _axis(axis), bool(keepdims)) > 0, out, True)


def count_nonzero(a, axis=None, *, keepdims=False):
    return (_arr(a) != 0)._reduce("sum", _axis(axis), bool(keepdims))


def _nan_filled(a, value):
    a = _arr(a)
    if not a._dtype_name.startswith(("float", "bfloat")):
        return a
    return (a != a)._where(a._scalar_like(value), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
    return sum(_nan_filled(a, 0), axis, dtype, out, keepdims)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
    return prod(_nan_filled(a, 1), axis, dtype, out, keepdims)


def _all_nan(a, axis, keepdims):
    """Where every element of a slice is NaN (None for dtypes without NaN)."""
    a = _arr(a)
    if not _is_float(a):
        return None
    return all(a != a, axis, keepdims=keepdims)


def _nan_extreme(op, a, axis, out, keepdims):
    """nanmax/nanmin: NaNs skipped; an all-NaN slice gives NaN (NumPy also warns)."""
    a = _arr(a)
    r = _reduce(op, _nan_filled(a, -math.inf if op == "max" else math.inf), axis, keepdims)
    empty = _all_nan(a, axis, keepdims)
    if empty is not None:
        r = empty._where(r._scalar_like(math.nan), r)
    return _finish(r, out, True)


def nanmax(a, axis=None, out=None, keepdims=False, **kw):
    return _nan_extreme("max", a, axis, out, keepdims)


def nanmin(a, axis=None, out=None, keepdims=False, **kw):
    return _nan_extreme("min", a, axis, out, keepdims)


def _nan_arg(op, a, axis, out, keepdims):
    """nanargmax/nanargmin: an all-NaN slice raises ValueError, as in NumPy (this reads one flag back)."""
    a = _arr(a)
    empty = _all_nan(a, axis, False)
    if empty is not None and empty.size and bool(any(empty)):
        raise ValueError("All-NaN slice encountered")
    return _argreduce(op, _nan_filled(a, -math.inf if op == "argmax" else math.inf), axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg("argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg("argmin", a, axis, out, keepdims)


def _nan_count(a, acc, axis, keepdims):
    """The number of non-NaN elements per slice, in the accumulator's dtype."""
    return (a == a)._reduce("sum", _axis(axis), bool(keepdims)).astype(acc._dtype_name)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, **kw):
    a = _arr(a)
    if not _is_float(a):
        return mean(a, axis, dtype, out, keepdims)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    r = _nan_filled(acc, 0)._reduce("sum", _axis(axis), bool(keepdims)) / _nan_count(a, acc, axis, keepdims)
    return _finish(r.astype(t), out, True)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
    a = _arr(a)
    if not _is_float(a):
        return var(a, axis, dtype, out, ddof, keepdims)
    t = _mean_dtype(a, dtype)
    acc = _accumulator(a, t)
    _count(a, axis)  # checks the axes
    m = _nan_filled(acc, 0)._reduce("sum", _axis(axis), True) / _nan_count(a, acc, axis, True)
    m._materialize()
    d = _nan_filled(acc - m, 0)
    r = _squares_over(d, axis, keepdims, _nan_count(a, acc, axis, keepdims) - ddof)
    return _finish(r.astype(t), out, True)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
    return _finish(nanvar(a, axis, dtype, None, ddof, keepdims)._unary("sqrt"), out, True)


def _scan(op, a, axis, dtype, out):
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if dtype is not None:
        a = a.astype(dtype_name(dtype))
    r = a._scan(op, axis)
    if dtype is not None and r._dtype_name != dtype_name(dtype):
        r = r.astype(dtype_name(dtype))
    return _finish(r, out, True)


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (flattened when None), one pass per row of the scanned axis."""
    return _scan("cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
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


# ---- manipulation ---------------------------------------------------------------------------
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    return _arr(a).reshape(shape if shape is not None else newshape, order=order)


def ravel(a, order="C"):
    return _arr(a).reshape(-1)


def flatten(a, order="C"):
    a = _arr(a)
    return a.reshape(-1).copy() if a.reshape(-1)._base_id == a._base_id else a.reshape(-1)


def transpose(a, axes=None):
    return _arr(a)._transpose([] if axes is None else list(axes))


permute_dims = transpose


def _norm_axis(axis, nd, name=None):
    """axis in [0, nd) (negative counts from the end), else NumPy's AxisError."""
    if -nd <= axis < nd:
        return axis % nd if nd else 0
    prefix = f"{name}: " if name else ""
    raise _tegula.AxisError(f"{prefix}axis {axis} is out of bounds for array of dimension {nd}")


def swapaxes(a, axis1, axis2):
    a = _arr(a)
    i, j = _norm_axis(axis1, a.ndim, "axis1"), _norm_axis(axis2, a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = j, i
    return a._transpose(perm)


def _axis_list(axes, nd, what):
    axes = [axes] if isinstance(axes, int) else list(axes)
    norm = [_norm_axis(x, nd, what) for x in axes]
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in `{what}` argument")
    return norm


def moveaxis(a, source, destination):
    a = _arr(a)
    src = _axis_list(source, a.ndim, "source")
    dst = _axis_list(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a._transpose(order)


def squeeze(a, axis=None):
    a = _arr(a)
    axes = [] if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return a._squeeze(axes)


def expand_dims(a, axis):
    return _arr(a)._expand_dims([axis] if isinstance(axis, int) else list(axis))


def broadcast_to(array, shape):
    return _arr(array)._broadcast_to((shape,) if isinstance(shape, int) else tuple(shape))


def broadcast_shapes(*shapes):
    return _np.broadcast_shapes(*shapes)


def broadcast_arrays(*args):
    arrs = [_arr(a) for a in args]
    shape = _np.broadcast_shapes(*[a.shape for a in arrs])
    return [a._broadcast_to(shape) for a in arrs]


def atleast_1d(*arys):
    r = [(_arr(a).reshape(1) if _arr(a).ndim == 0 else _arr(a)) for a in arys]
    return r[0] if len(r) == 1 else r


def atleast_2d(*arys):
    r = []
    for a in arys:
        a = _arr(a)
        r.append(a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a)
    return r[0] if len(r) == 1 else r


def _arrays_on_one_device(arrays):
    """The inputs as tegula arrays; host data goes to the device of the first tegula array among them."""
    like = next((a for a in arrays if isinstance(a, ndarray)), None)
    return [a if isinstance(a, ndarray) else as_array(a, None if like is None else like._device_id) for a in arrays]


def _check_concatenable(arrs, axis):
    nd = arrs[0].ndim
    for i, a in enumerate(arrs[1:], 1):
        if a.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has "
                             f"{nd} dimension(s) and the array at index {i} has {a.ndim} dimension(s)")
        for d in range(nd):
            if d != axis and a.shape[d] != arrs[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size "
                                 f"{arrs[0].shape[d]} and the array at index {i} has size {a.shape[d]}")


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrs = _arrays_on_one_device(list(arrays))
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrs, axis = [a.reshape(-1) for a in arrs], 0
    nd = arrs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = axis % nd if -nd <= axis < nd else _raise_axis(axis, nd)
    _check_concatenable(arrs, axis)
    shape = list(arrs[0].shape)
    shape[axis] = _py_sum(a.shape[axis] for a in arrs)
    t = dtype_name(dtype) if dtype is not None else _np.result_type(*[_np.empty(0, a._dtype_name) for a in arrs]).name
    res = empty(tuple(shape), t, device=_core.device_of(arrs[0])) if out is None else out
    at = 0
    for a in arrs:
        idx = (slice(None),) * axis + (slice(at, at + a.shape[axis]),)
        res[idx] = a
        at += a.shape[axis]
    return res


def _raise_axis(axis, nd):
    raise _tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {nd}")


concat = concatenate


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrs = [_arr(a) for a in arrays]
    if not arrs:
        raise ValueError("need at least one array to stack")
    if _py_any(a.shape != arrs[0].shape for a in arrs):
        raise ValueError("all input arrays must have the same shape")
    nd = arrs[0].ndim + 1
    axis = axis % nd if -nd <= axis < nd else _raise_axis(axis, nd)
    return concatenate([a._expand_dims([axis]) for a in arrs], axis, out, dtype)


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def split(ary, indices_or_sections, axis=0):
    a = _arr(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        step = n // indices_or_sections
        cuts = list(range(step, n, step))
    else:
        cuts = list(indices_or_sections)
    bounds = [0, *cuts, n]
    ax = axis % a.ndim
    return [a[(slice(None),) * ax + (slice(lo, hi),)] for lo, hi in zip(bounds[:-1], bounds[1:])]


def array_split(ary, indices_or_sections, axis=0):
    a = _arr(ary)
    n = a.shape[axis]
    if isinstance(indices_or_sections, int):
        k, extra = divmod(n, indices_or_sections)
        sizes = [k + 1] * extra + [k] * (indices_or_sections - extra)
        cuts, at = [], 0
        for s in sizes[:-1]:
            at += s
            cuts.append(at)
        return split(a, cuts, axis)
    return split(a, indices_or_sections, axis)


def flip(m, axis=None):
    a = _arr(m)
    axes = range(a.ndim) if axis is None else ([axis] if isinstance(axis, int) else axis)
    key = [slice(None)] * a.ndim
    for ax in axes:
        key[ax % a.ndim] = slice(None, None, -1)
    return a[tuple(key)]


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = _arr(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    r = a
    for s, ax in zip(shifts, axes):
        n = r.shape[ax]
        if n == 0:
            continue
        s %= n
        if s == 0:
            continue
        lead = (slice(None),) * (ax % r.ndim)
        r = concatenate([r[lead + (slice(n - s, None),)], r[lead + (slice(0, n - s),)]], ax)
    return r if r is not a else a.copy()


def tile(A, reps):
    a = _arr(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    nd = _py_max(a.ndim, len(reps))
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    reps = (1,) * (nd - len(reps)) + reps
    inter = []
    target = []
    for r, d in zip(reps, a.shape):
        inter += [1, d]
        target += [r, d]
    b = a.reshape(tuple(inter))._broadcast_to(tuple(target))
    return b.copy().reshape(tuple(r * d for r, d in zip(reps, a.shape)))


def repeat(a, repeats, axis=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if not isinstance(repeats, int):
        raise NotImplementedError("repeat with per-element counts needs the library layer")
    ax = axis % a.ndim
    b = a._expand_dims([ax + 1])
    shape = list(b.shape)
    shape[ax + 1] = repeats
    b = b._broadcast_to(tuple(shape)).copy()
    out = list(a.shape)
    out[ax] *= repeats
    return b.reshape(tuple(out))


def pad(array, pad_width, mode="constant", **kwargs):
    a = _arr(array)
    if mode != "constant":
        raise NotImplementedError(f"pad mode {mode!r}: only 'constant' is supported")
    pw = _np.broadcast_to(_np.asarray(pad_width, dtype=_np.int64), (a.ndim, 2))
    cv = kwargs.get("constant_values", 0)
    shape = tuple(int(d + lo + hi) for d, (lo, hi) in zip(a.shape, pw))
    res = full(shape, cv, a.dtype, device=_core.device_of(a))
    res[tuple(slice(int(lo), int(lo) + d) for d, (lo, _) in zip(a.shape, pw))] = a
    return res


def copyto(dst, src, casting="same_kind", where=True):
    s = _arr(src, dst)
    if not _is_py_scalar(src) and not _np.can_cast(_np.dtype(s._dtype_name), dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from dtype('{s._dtype_name}') to dtype('{dst._dtype_name}') "
                        f"according to the rule '{casting}'")
    if where is not True:
        s = _arr(where, dst)._where(s, dst)
    dst._assign(s)


def copy(a, order="K", subok=False):
    return _arr(a).copy()


def shape(a):
    return _arr(a).shape


def ndim(a):
    return _arr(a).ndim


def size(a, axis=None):
    a = _arr(a)
    return a.size if axis is None else a.shape[axis]


def result_type(*arrays_and_dtypes):
    conv = [(_np.empty(0, a._dtype_name) if isinstance(a, ndarray) else a) for a in arrays_and_dtypes]
    return _np.result_type(*conv)


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def isscalar(element):
    return _np.isscalar(element)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(all(isclose(a, b, rtol, atol, equal_nan)))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a = _arr(a)
    b = _arr(b, a)
    close = (a - b)._unary("abs") <= atol + rtol * b._unary("abs")
    close = close | (a == b)
    if equal_nan:
        close = close | ((a != a) & (b != b))
    return close


def array_equal(a1, a2, equal_nan=False):
    a, b = _arr(a1), _arr(a2)
    if a.shape != b.shape:
        return False
    eq = a == b
    if equal_nan:
        eq = eq | ((a != a) & (b != b))
    return bool(all(eq))


def dot(a, b, out=None):
    raise NotImplementedError("dot/matmul of tegula.numpy arrays come with the library layer (cuBLASLt)")


def sort(a, axis=-1, kind=None, order=None, **kw):
    raise NotImplementedError("sort comes with the library layer (CUB radix sort)")


argsort = sort


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


def conj(x, /, out=None, **kw):
    x = _arr(x)
    return _done(x.astype("int8") if x._dtype_name == "bool" else _copy_of(x), out, kw)


conjugate = conj
