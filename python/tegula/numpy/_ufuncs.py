"""tegula.numpy elementwise functions: ufuncs (math, comparisons, logical, rounding), where, clip, isclose."""
from __future__ import annotations

import math

import numpy as _np

from ._common import _arr, _copy_of, _done, _finish, _is_float, _is_py_scalar, _operand
from ._core import as_array, dtype_name, ndarray
from ._selection import nonzero


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


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a = _arr(a)
    b = _arr(b, a)
    close = (a - b)._unary("abs") <= atol + rtol * b._unary("abs")
    close = close | (a == b)
    if equal_nan:
        close = close | ((a != a) & (b != b))
    return close


def conj(x, /, out=None, **kw):
    x = _arr(x)
    return _done(x.astype("int8") if x._dtype_name == "bool" else _copy_of(x), out, kw)


conjugate = conj
