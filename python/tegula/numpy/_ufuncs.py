"""tegula.numpy elementwise functions: ufuncs (math, comparisons, logical, rounding), where, clip, isclose."""
from __future__ import annotations

import math

import numpy as _np

from ._common import (_arr, _copy_of, _done, _finish, _is_complex, _is_float, _is_inexact, _is_py_scalar, _no_complex,
                      _operand, _parts, _real_dtype)
from .. import _tegula
from . import _indexing
from ._core import as_array, dtype_name, ndarray
from ._dtypes import result_type


def _in_dtype(x, dtype):
    """A ufunc's array operand in the loop dtype that dtype= asks for (Python scalars stay weak)."""
    return x if dtype is None or _is_py_scalar(x) else _arr(x).astype(dtype_name(dtype))


_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


def _unary(op, doc):
    def ufunc(x, /, out=None, *, where=True, dtype=None, casting="same_kind", **kwargs):
        return _finish(_arr(_in_dtype(x, dtype))._unary(op), out, where, dtype, casting, fresh=True)

    ufunc.__doc__ = doc
    return ufunc


def _small_int(w):
    """A Python/NumPy scalar exponent that is an integer n with |n| < 100 (NumPy's complex power multiplies for
    these), as an int; else None."""
    if isinstance(w, (bool, _np.bool_)) or not isinstance(w, (int, float, complex, _np.number)):
        return None
    w = complex(w)
    if w.imag != 0 or not math.isfinite(w.real) or w.real != int(w.real) or not -100 < w.real < 100:
        return None
    return int(w.real)


def _int_power(z, n):
    """z ** n for complex z by repeated squaring, as NumPy's complex power does for small integer n (exact where
    the products are: (1+1j)**2 is 2j, not exp(2 log z)); z**0 is 1 and 0**n is 0 (n > 0) or NaN (n < 0)."""
    one = z._scalar_like(1)
    if n == 0:
        return (z != z)._where(one, one)
    if n == 1:
        return _copy_of(z)
    m, acc, base = abs(n), None, z
    while True:
        if m & 1:
            acc = base if acc is None else acc * base
        m >>= 1
        if not m:
            break
        base = base * base
    if n < 0:
        acc = one / acc
    return (z == 0)._where(z._scalar_like(0 if n > 0 else complex(math.nan, math.nan)), acc)


def _binary(op, doc):
    def ufunc(x1, x2, /, out=None, *, where=True, dtype=None, casting="same_kind", **kwargs):
        if op not in _COMPARISONS:
            x1, x2 = _in_dtype(x1, dtype), _in_dtype(x2, dtype)
        if op == "pow" and isinstance(x1, ndarray) and _is_complex(x1) and not isinstance(x2, ndarray):
            n = _small_int(x2)
            if n is not None and (_is_py_scalar(x2) or result_type(x1, x2) == x1.dtype):
                return _finish(_int_power(x1, n), out, where, dtype, casting)
        if isinstance(x1, ndarray):
            r = x1._binary(op, _operand(x2, x1), False)
        elif isinstance(x2, ndarray):
            r = x2._binary(op, _operand(x1, x2), True)
        else:
            a = _arr(x1)
            r = a._binary(op, _operand(x2, a), False)
        if r is NotImplemented:
            raise TypeError(f"unsupported operand types for {op}: {type(x1).__name__}, {type(x2).__name__}")
        return _finish(r, out, where, dtype, casting, fresh=True)  # (_binary builds a new node every call)

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
        _no_complex(op, x)
        return _done(x._unary(op) if _is_float(x) else _copy_of(x), out, kw)

    ufunc.__doc__ = doc
    return ufunc


floor = _rounding("floor", "Floor, element-wise.")
ceil = _rounding("ceil", "Ceiling, element-wise.")


def positive(x, /, out=None, **kw):
    return _done(_copy_of(_no_bool("positive", _arr(x))), out, kw)


def fabs(x, /, out=None, **kw):
    return _done(_as_float(x, "fabs")._unary("abs"), out, kw)


def square(x, /, out=None, **kw):
    x = _arr(x)
    x = x.astype("int8") if x._dtype_name == "bool" else x
    return _done(x * x, out, kw)


def reciprocal(x, /, out=None, **kw):
    x = _arr(x)
    if _is_complex(x):
        return _done(_complex_reciprocal(x), out, kw)
    if _is_float(x):
        return _done(x._scalar_like(1) / x, out, kw)
    x = x.astype("int8") if x._dtype_name == "bool" else x
    # C integer division: 1/x is x for x = +-1, else 0 (NumPy also gives 0 for 0, with a warning)
    return _done((x._unary("abs") == 1)._where(x, x._scalar_like(0)), out, kw)


def _complex_reciprocal(z):
    """NumPy's complex reciprocal loop (Smith's scaling; 1/0 is NaN+NaNj, not the quotient's inf+NaNj)."""
    a, b = _parts(z)
    small = b._unary("abs") <= a._unary("abs")
    r1 = b / a
    d1 = a + b * r1
    r2 = a / b
    d2 = a * r2 + b
    one = a._scalar_like(1)
    return small._where((one / d1)._complex(-r1 / d1), (r2 / d2)._complex(-one / d2))


def _as_float(x, name=None):
    """x in the float dtype NumPy's float ufuncs use for it (int8 -> float16, int16 -> float32, ...). Complex
    arrays pass through, or raise NumPy's TypeError when `name` (a float-only ufunc) is given."""
    x = _arr(x)
    if name is not None:
        _no_complex(name, x)
    return x if _is_inexact(x) else x.astype(_float_loop(x._dtype_name))


def _float_loop(name):
    """NumPy's float loop dtype for float-only math on dtype `name` (array/promotion's float_loop, the one authority)."""
    return _tegula.float_loop(name)


def _native(op, doc, complex_=None):
    """A float ufunc that is one tile IR op (ints/bools computed in NumPy's float loop dtype). Complex input:
    the engine's complex op, or complex_(x) where given."""
    def ufunc(x, /, out=None, **kw):
        x = _as_float(x)
        if complex_ is not None and _is_complex(x):
            return _done(complex_(x), out, kw)
        return _done(x._unary(op), out, kw)

    ufunc.__name__ = op
    ufunc.__doc__ = doc
    return ufunc


def _complex_log1p(z):
    """NumPy's complex log1p formula (nc_log1p): log|1 + z| + i arg(1 + z)."""
    re, im = _parts(z)
    re1 = re + 1
    return hypot(re1, im)._unary("log")._complex(im._binary("atan2", re1, False))


def _complex_expm1(z):
    """NumPy's complex expm1 formula (nc_expm1): expm1(x) cos(y) - 2 sin(y/2)**2 + i exp(x) sin(y)."""
    x, y = _parts(z)
    h = (y * 0.5)._unary("sin")
    e, t = x._unary("expm1") * y._unary("cos"), 2 * h * h
    # where t rounds to zero the product alone (so a GPU's fused multiply-add cannot turn +0 - 0 into -0)
    return (t == 0)._where(e, e - t)._complex(x._unary("exp") * y._unary("sin"))


log10 = _native("log10", "Base-10 logarithm, element-wise.")
log1p = _native("log1p", "log(1 + x), accurate near 0, element-wise.", _complex_log1p)
expm1 = _native("expm1", "exp(x) - 1, accurate near 0, element-wise.", _complex_expm1)
tan = _native("tan", "Tangent, element-wise.")
sinh = _native("sinh", "Hyperbolic sine, element-wise.")
cosh = _native("cosh", "Hyperbolic cosine, element-wise.")


def trunc(x, /, out=None, **kw):
    x = _arr(x)
    _no_complex("trunc", x)
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
    import operator

    decimals = operator.index(decimals)  # NumPy's TypeError for a float
    a = _arr(a)
    if _is_complex(a):  # the parts rounded on their own, as NumPy (not a complex product with 10**decimals)
        re, im = _parts(a)
        return _finish(around(re, decimals)._complex(around(im, decimals)), out, True)
    if a._dtype_name == "bool":
        if decimals:  # NumPy multiplies in the input's dtype, and float64 cannot be cast back to bool
            raise TypeError("Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool') with casting "
                            "rule 'same_kind'")
        return rint(a, out=out)
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


def _complex_sign(x):
    """NumPy 2's complex sign: z / |z| (0 for 0); one infinite part gives its unit direction (also next to a NaN);
    NaN where both parts are infinite, or a part is NaN and none infinite."""
    re, im = _parts(x)
    m = x._unary("abs")
    r = (re / m)._complex(im / m)  # the parts divided (a complex quotient would lose the signs of zeros)
    zero, one = re._scalar_like(0), re._scalar_like(1)
    zeros = (re != re)._where(zero, zero)  # +0 of x's shape
    unit = lambda v: (v > 0)._where(one, -one)  # noqa: E731
    re_inf, im_inf = re._unary("abs") == math.inf, im._unary("abs") == math.inf
    r = re_inf._where(unit(re)._complex(zeros), r)
    r = im_inf._where(zeros._complex(unit(im)), r)
    nan = x._scalar_like(complex(math.nan, math.nan))
    r = ((re_inf & im_inf) | ((x != x) & ~(re_inf | im_inf)))._where(nan, r)  # NaN where |z| is (hypot(inf, nan) = inf)
    return (x == 0)._where(x._scalar_like(0), r)


def sign(x, /, out=None, **kw):
    x = _no_bool("sign", _arr(x))
    if _is_complex(x):
        return _done(_complex_sign(x), out, kw)
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
    if _is_complex(x):
        re, im = _parts(x)
        return _done((re._unary("abs") == math.inf) | (im._unary("abs") == math.inf), out, kw)
    if not _is_float(x):
        return _done(x != x, out, kw)
    return _done(x._unary("abs") == math.inf, out, kw)


def isfinite(x, /, out=None, **kw):
    x = _arr(x)
    if _is_complex(x):
        re, im = _parts(x)
        return _done(((re - re) == 0) & ((im - im) == 0), out, kw)
    if not _is_float(x):
        return _done(x == x, out, kw)
    return _done((x - x) == 0, out, kw)


def signbit(x, /, out=None, **kw):
    x = _arr(x)
    _no_complex("signbit", x)
    if not _is_float(x):
        return _done(x < 0, out, kw)
    if x._dtype_name in ("float16", "bfloat16"):  # the bits themselves: a GPU's conversion to float drops a NaN's sign
        return _done(x._contiguous().view("int16") < 0, out, kw)
    return _done(x._scalar_like(1)._binary("copysign", x, False) < 0, out, kw)  # the sign bit: -0.0 and -nan too


def _pair(x1, x2):
    """Both operands as tegula arrays; a Python scalar is weak next to the other operand (NEP 50)."""
    if isinstance(x1, ndarray) or (not isinstance(x2, ndarray) and not _is_py_scalar(x1)):
        a = _arr(x1)
        return a, _arr(x2, a)
    b = _arr(x2)
    return _arr(x1, b), b


def _float_pair(x1, x2, name=None):
    """Both operands in the dtype of the float loop NumPy picks for a float-only binary ufunc (NumPy's TypeError
    for complex operands, naming the ufunc `name`): each array operand goes to its own float loop dtype (bool and
    8-bit integers float16, 16-bit float32, wider float64), and those promote (int8 with uint8 is float16, not
    the float32 of their int16); a Python scalar stays weak next to the other operand."""
    _no_complex(name or "?", x1, x2)

    def floating(x):
        t = x._dtype_name
        return x if t in ("float16", "bfloat16", "float32", "float64") else x.astype(_float_loop(t))

    if _is_py_scalar(x1) or _is_py_scalar(x2):
        scalar, other = (x1, x2) if _is_py_scalar(x1) else (x2, x1)
        if _is_py_scalar(other):
            a = floating(_arr(float(x1)))
            return a, _arr(float(x2), a)
        other = _arr(other)
        t = other._dtype_name
        # NumPy: a Python float next to integers or bools, and a Python int next to bools, are float64 (int64)
        # loops; otherwise the scalar takes the array's float loop (converted as a float: 70000 is inf in float16)
        wide = isinstance(scalar, float) and not t.startswith(("float", "bfloat")) or \
            (isinstance(scalar, int) and not isinstance(scalar, bool) and t == "bool")
        other = other.astype("float64") if wide else floating(other)
        s = _arr(float(scalar), other)
        return (s, other) if scalar is x1 else (other, s)
    a, b = _pair(x1, x2)  # a NumPy scalar goes to the other operand's device, not the default one
    a, b = floating(a), floating(b)
    t = _tegula.result_type(a._dtype_name, b._dtype_name)
    return a.astype(t), b.astype(t)


def arctan2(x1, x2, /, out=None, **kw):
    """Element-wise arc tangent of x1/x2 in the quadrant of (x2, x1)."""
    a, b = _float_pair(x1, x2, "arctan2")
    return _done(a._binary("atan2", b, False), out, kw)


def logical_not(x, /, out=None, **kw):
    x = _arr(x)
    m = _indexing.mask_entry(x) if not kw else None  # a compacted mask's complement compacts without a scan
    r = _done(x.astype("bool")._unary("not"), out, kw, fresh=True)
    if m is not None:
        _indexing.note_complement(m, r)
    return r


def _logical(op):
    def truth(x):  # a Python scalar by its truth (NumPy: an int must fit a C long), so it never overflows a dtype
        if isinstance(x, int) and not isinstance(x, bool) and not -2**63 <= x < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        return bool(x) if _is_py_scalar(x) and not isinstance(x, complex) else x

    def f(x1, x2, /, out=None, **kw):
        a, b = _pair(truth(x1), truth(x2))
        return _done(a.astype("bool")._binary(op, b.astype("bool"), False), out, kw, fresh=True)

    return f


logical_and, logical_or, logical_xor = _logical("and"), _logical("or"), _logical("xor")


def fmax(x1, x2, /, out=None, **kw):
    """NaNs are skipped: x1 where x2 is NaN (also when both are, as NumPy), x2 where only x1 is."""
    a, b = _pair(x1, x2)
    return _done((b != b)._where(a, (a != a)._where(b, maximum(a, b))), out, kw)


def fmin(x1, x2, /, out=None, **kw):
    a, b = _pair(x1, x2)
    return _done((b != b)._where(a, (a != a)._where(b, minimum(a, b))), out, kw)


def hypot(x1, x2, /, out=None, **kw):
    a, b = _float_pair(x1, x2, "hypot")
    return _done(a._binary("hypot", b, False), out, kw)  # the tile IR's hypot: no overflow, inf wins over nan


def float_power(x1, x2, /, out=None, **kw):
    """In float64, or complex128 where an operand is complex (as NumPy)."""
    a, b = _pair(x1, x2)
    t = "complex128" if _is_complex(a) or _is_complex(b) else "float64"
    return _done(power(a.astype(t), b.astype(t) if isinstance(x2, ndarray) or not _is_py_scalar(x2) else x2), out,
                 kw)


def fmod(x1, x2, /, out=None, **kw):
    """C's fmod: the remainder with the sign of the dividend (NumPy's remainder has the divisor's)."""
    _no_complex("fmod", x1, x2)
    a, b = _pair(x1, x2)
    r = a._binary("mod", b, False)
    if _is_float(r):
        # of the magnitudes floored and truncated remainders agree, and are exact: |a| mod |b| with a's sign
        # (the floored remainder of a tiny a and a large b of the other sign, b + a, would round away a)
        t = r._dtype_name
        fa, fb = a.astype(t), b.astype(t)
        r = fa._unary("abs")._binary("mod", fb._unary("abs"), False)._binary("copysign", fa, False)
        r = ((fb._unary("abs") == math.inf) & isfinite(fa))._where(fa, r)
    else:  # integers: the floored remainder moved to the dividend's sign (exact; |INT_MIN| would wrap)
        r = ((r != 0) & ((r < 0) != (a < 0)))._where(r - b, r)
    return _done(r, out, kw)


def copysign(x1, x2, /, out=None, **kw):
    a, b = _float_pair(x1, x2, "copysign")
    return _done(a._binary("copysign", b, False), out, kw)


def where(condition, x=None, y=None, /):
    if x is None and y is None:
        return _indexing.nonzero(_arr(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    xa = x if isinstance(x, ndarray) else None
    ya = y if isinstance(y, ndarray) else None
    # a condition that is not a tegula array goes to the device of the operands that are (not the default device)
    on = xa if xa is not None else ya
    c = condition if isinstance(condition, ndarray) else as_array(condition, on._device_id) if on is not None \
        else _arr(condition)
    like = xa if xa is not None else ya if ya is not None else c
    xa = xa if xa is not None else _arr(x, like)
    ya = ya if ya is not None else _arr(y, like)
    if _is_py_scalar(x) and _is_py_scalar(y):  # both Python scalars: NumPy's weak rules
        t = result_type(x, y)
        xa, ya = as_array(_np.asarray(x, t), c._device_id), as_array(_np.asarray(y, t), c._device_id)
    return c._where(xa, ya)


_NOT_GIVEN = object()


def clip(a, a_min=_NOT_GIVEN, a_max=_NOT_GIVEN, out=None, *, min=_NOT_GIVEN, max=_NOT_GIVEN, **kw):  # noqa: A002
    """NumPy 2's clip: the bounds as a_min/a_max (positional) or min/max (keywords, the array API's), not both
    pairs; None or a missing bound leaves that side open. clip(x, lo) alone is the array API's clip(x, /, min),
    which NumPy refuses (it wants a_max too)."""
    if a_min is not _NOT_GIVEN or a_max is not _NOT_GIVEN:
        if a_min is not _NOT_GIVEN and a_max is not _NOT_GIVEN and (min is not _NOT_GIVEN or max is not _NOT_GIVEN):
            raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                             "forbidden.")
        lo = None if a_min is _NOT_GIVEN else a_min
        hi = (None if max is _NOT_GIVEN else max) if a_max is _NOT_GIVEN else a_max
    else:
        lo = None if min is _NOT_GIVEN else min
        hi = None if max is _NOT_GIVEN else max
    r = _arr(a)
    if r._dtype_name.startswith(("int", "uint")):  # a Python int bound past the dtype's range on its own side
        info = _np.iinfo(r._dtype_name)                # clips nothing (NumPy); past the other side it overflows
        if _is_py_scalar(lo) and not isinstance(lo, (bool, float, complex)) and lo < info.min:
            lo = None
        if _is_py_scalar(hi) and not isinstance(hi, (bool, float, complex)) and hi > info.max:
            hi = None
    if lo is not None:
        r = maximum(r, lo)
    if hi is not None:
        r = minimum(r, hi)
    return _done(r, out, kw)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = _arr(x)
    if _is_complex(x):  # both parts, each as a real array
        re, im = _parts(x)
        return nan_to_num(re, True, nan, posinf, neginf)._complex(nan_to_num(im, True, nan, posinf, neginf))
    if not x._dtype_name.startswith(("float", "bfloat")):
        return x.copy() if copy else x
    fi = _np.finfo(_np.dtype(x._dtype_name) if x._dtype_name != "bfloat16" else _np.float32)
    r = (x != x)._where(x._scalar_like(float(nan)), x)
    r = (r == math.inf)._where(x._scalar_like(float(fi.max if posinf is None else posinf)), r)
    r = (r == -math.inf)._where(x._scalar_like(float(fi.min if neginf is None else neginf)), r)
    return r


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """NumPy 2's: |a - b| <= atol + rtol |b| where b is finite, or a == b (infinities equal only to themselves);
    b is taken in an inexact dtype first (bools and integers as float64, as NumPy's result_type(b, 1.0))."""
    x = _arr(a)
    y = _arr(b, x)
    if not _is_inexact(y):
        y = y.astype("float64")
    close = ((x - y)._unary("abs") <= atol + rtol * y._unary("abs")) & isfinite(y)
    close = close | (x == y)
    if equal_nan:
        close = close | ((x != x) & (y != y))
    return close


def conj(x, /, out=None, **kw):
    x = _arr(x)
    if _is_complex(x):
        re, im = _parts(x)
        return _done(_copy_of(re)._complex(-im), out, kw)
    return _done(x.astype("int8") if x._dtype_name == "bool" else _copy_of(x), out, kw)


conjugate = conj


def real(val, /):
    """The real part: a view of a complex array's real parts (written through), a real array itself."""
    return val.real if isinstance(val, ndarray) else _arr(val).real


def imag(val, /):
    """The imaginary part: a view of a complex array's imaginary parts, zeros for a real array."""
    return val.imag if isinstance(val, ndarray) else _arr(val).imag


def angle(z, deg=False):
    """The argument of z, arctan2(imag, real) (in degrees with deg=True); real input: 0 or pi."""
    z = _arr(z)
    if _is_complex(z):
        re, im = _parts(z)
    else:  # NumPy's arctan2(0, z): a Python 0 next to z (bool: int64, so float64)
        re = z.astype("float64") if z._dtype_name == "bool" else _as_float(z)
        im = re._scalar_like(0)
    a = im._binary("atan2", re, False)
    return a * (180 / math.pi) if deg else a


def iscomplexobj(x):
    t = x.dtype if hasattr(x, "dtype") else _np.asarray(x).dtype
    return _np.dtype(t).kind == "c" if t != "bfloat16" else False


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    """Where the imaginary part is not 0 (all False for real dtypes)."""
    a = _arr(x)
    return a._part(1) != 0 if _is_complex(a) else (a != a) & (a == a)


def isreal(x):
    """Where the imaginary part is 0 (all True for real dtypes)."""
    a = _arr(x)
    return a._part(1) == 0 if _is_complex(a) else (a == a) | (a != a)


def real_if_close(a, tol=100):
    """The real part when every imaginary part is within tol machine epsilons of 0 (this reads one flag back)."""
    a = _arr(a)
    if not _is_complex(a):
        return a
    eps = _np.finfo(_real_dtype(a._dtype_name)).eps
    t = tol * eps if tol > 1 else tol
    im = a._part(1)
    if bool((im._unary("abs") < t)._reduce("sum", None, False) == a.size):
        return _copy_of(a._part(0))
    return a
