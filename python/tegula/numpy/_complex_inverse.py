"""The inverse trigonometric and hyperbolic functions of complex arrays, by Kahan's formulas ("Branch Cuts for
Complex Elementary Functions", 1987), which keep full accuracy near the branch points and put the cuts where C99
and NumPy put them:

    s1, s2 = sqrt(1 - z), sqrt(1 + z)
    acos(z)  = 2 atan2(Re s1, Re s2) + i asinh(Im(conj(s2) s1))
    asin(z)  = atan2(Re z, Re(s1 s2)) + i asinh(Im(conj(s1) s2))
    acosh(z) = asinh(Re(conj(sqrt(z - 1)) sqrt(z + 1))) + i 2 atan2(Im sqrt(z - 1), Re sqrt(z + 1))
    asinh(z) = -i asin(i z),  atan(z) = -i atanh(i z)
    atanh(z) = log1p(4 Re z / ((1 - Re z)^2 + Im z^2)) / 4 + i atan2(2 Im z, (1 - Re z)(1 + Re z) - Im z^2) / 2
               (for Re z >= 0; atanh is odd)

Where a part is infinite or NaN, the values are C99 Annex G's (G.6.1.1, G.6.2.1-3), with the signs glibc (and so
NumPy) picks where the annex leaves them open. Where the squares of the parts would overflow (|z| past the square
root of the largest value, over 4), the functions take their asymptotic forms, exact to rounding there:
asinh z = acosh z = log 2z, atanh z = 1/z + i pi/2. Everything is real arithmetic on the parts, fused into one
kernel per call. Finite values agree with NumPy to a few ulp."""
from __future__ import annotations

import math

from ._common import _parts
from ._ufuncs import signbit

_INF = float("inf")
_NAN = float("nan")


def _sqrt_parts(a, b):
    """The principal square root of a + ib as parts (the engine's complex sqrt)."""
    return _parts(a._complex(b)._unary("sqrt"))


def _roots(x, y, shift):
    """sqrt(shift - z) and sqrt(shift + z) as parts (shift 1), or sqrt(z - 1) and sqrt(z + 1) (shift -1)."""
    one = x._scalar_like(1)
    p1, q1 = _sqrt_parts(one - x, -y) if shift > 0 else _sqrt_parts(x - one, y)
    p2, q2 = _sqrt_parts(one + x, y) if shift > 0 else _sqrt_parts(x + one, y)
    return p1, q1, p2, q2


class _Kinds:
    """What each part is: infinite, NaN, finite; and whether |z| is past where the formulas' squares overflow."""

    def __init__(self, x, y):
        ax, ay = abs(x), abs(y)
        self.x_inf, self.y_inf = ax == _INF, ay == _INF
        self.x_nan, self.y_nan = x != x, y != y
        self.x_fin, self.y_fin = ax < _INF, ay < _INF
        limit = 4e18 if str(x.dtype) == "float32" else 1e153
        big = (ax > limit) | (ay > limit)
        self.special = ~(self.x_fin & self.y_fin) | big  # where the table or the asymptotic form decides
        self.ax, self.ay = ax, ay


def _pick(cases, default):
    """The value of the first case whose condition holds (a chain of wheres), else default (an array); values
    may be Python floats."""
    out = default
    for cond, value in reversed(cases):
        out = cond._where(value if not isinstance(value, float) else default._scalar_like(value), out)
    return out


def _log_abs_2z(a, b):
    """log |2 (a + ib)| without overflow: log |(a + ib) / 2| + 2 log 2."""
    return (0.5 * a)._binary("hypot", 0.5 * b, False)._unary("log") + 2 * math.log(2)


def _signed(value, like):
    return value._binary("copysign", like, False)


def _negated(x):
    """-x with the sign bit flipped also for NaN (copysign is bitwise; a GPU's negation gives NaN without its sign):
    glibc's casin(z) = -i casinh(iz) carries a NaN's sign into the signs of its infinities and zeros."""
    return x._binary("copysign", -x._scalar_like(1)._binary("copysign", x, False), False)


def _asinh_special(x, y):
    """asinh(x + iy) where a part is infinite or NaN or |z| is huge (Annex G.6.2.2; odd, conjugate-symmetric)."""
    k = _Kinds(x, y)
    a, b = k.ax, k.ay
    re = _pick([(k.x_inf | k.y_inf, _INF), (k.x_nan | k.y_nan, _NAN)], _log_abs_2z(a, b))
    im = _pick([(k.y_inf & k.x_inf, math.pi / 4), (k.y_inf & k.x_nan, _NAN), (k.y_inf, math.pi / 2),
                (k.x_inf & k.y_nan, _NAN), (k.x_inf, 0.0), (k.x_nan & (b == 0), 0.0), (k.x_nan | k.y_nan, _NAN)],
               b._binary("atan2", a, False))
    return k.special, _signed(re, x), _signed(im, y)


def _atanh_special(x, y):
    """atanh(x + iy) where a part is infinite or NaN or |z| is huge (Annex G.6.2.3; odd, conjugate-symmetric)."""
    k = _Kinds(x, y)
    a, b = k.ax, k.ay
    h = a._binary("hypot", b, False)
    re = _pick([(k.y_inf | k.x_inf, 0.0), (k.y_nan & (a == 0), 0.0), (k.x_nan | k.y_nan, _NAN)], (a / h) / h)
    im = _pick([(k.y_inf, math.pi / 2), (k.x_nan | k.y_nan, _NAN)], y._scalar_like(math.pi / 2))
    return k.special, _signed(re, x), _signed(im, y)


def _acosh_special(x, y):
    """acosh(x + iy) where a part is infinite or NaN or |z| is huge (Annex G.6.2.1; conjugate-symmetric). NumPy
    gives NaN + i pi/2 at +-0 + i NaN (the annex: NaN + i NaN)."""
    k = _Kinds(x, y)
    b = k.ay
    re = _pick([(k.x_inf | k.y_inf, _INF), (k.x_nan | k.y_nan, _NAN)], _log_abs_2z(x, b))
    angle_at_inf = (x > 0)._where(x._scalar_like(math.pi / 4), x._scalar_like(3 * math.pi / 4))
    im = _pick([(k.y_inf & k.x_inf, angle_at_inf), (k.y_inf & k.x_nan, _NAN), (k.y_inf, math.pi / 2),
                (k.x_inf & k.y_nan, _NAN), (k.x_inf, (x > 0)._where(x._scalar_like(0.0), x._scalar_like(math.pi))),
                (k.y_nan & (x == 0), math.pi / 2), (k.x_nan | k.y_nan, _NAN)],
               b._binary("atan2", x, False))
    return k.special, re, _signed(im, y)


def _asin_parts(x, y):
    p1, q1, p2, q2 = _roots(x, y, 1)   # sqrt(1 - z), sqrt(1 + z)
    re = x._binary("atan2", p1 * p2 - q1 * q2, False)
    im = (p1 * q2 - q1 * p2)._unary("asinh")
    return re, im


def _atanh_parts(x, y):
    """atanh(x + iy) as parts, from -x - iy where x is negative (atanh is odd), so the log1p argument is never
    near -1 and the result keeps its accuracy next to -1 as well as +1."""
    neg = signbit(x)
    x = neg._where(-x, x)
    y = neg._where(-y, y)
    one = x._scalar_like(1)
    d = (one - x) * (one - x) + y * y
    re = 0.25 * (4 * x / d)._unary("log1p")
    # next to z = 1 d can underflow: there re = (log |1 + z| - log |1 - z|) / 2, with no cancellation
    near_one = 0.5 * ((one + x)._binary("hypot", y, False)._unary("log") - (one - x)._binary("hypot", y, False)._unary("log"))
    re = (d < (1e-35 if str(x.dtype) == "float32" else 1e-290))._where(near_one, re)
    im = 0.5 * (2 * y)._binary("atan2", (one - x) * (one + x) - y * y, False)
    return neg._where(-re, re), neg._where(-im, im)


def _with_special(x, y, parts_of, special_of, rotated=False):
    """f(x + iy) from its finite formula parts_of and its special values special_of, both (x, y) -> (Re, Im);
    rotated: -i f(i z) instead (asin from asinh's values, atan from atanh's): f(i z) = re + i im at (-y, x), so
    -i f(i z) = im - i re."""
    if rotated:
        special, s_re, s_im = special_of(_negated(y), x)
        s_re, s_im = s_im, -s_re
    else:
        special, s_re, s_im = special_of(x, y)
    re, im = parts_of(x, y)
    return special._where(s_re, re)._complex(special._where(s_im, im))


def asin(z):
    x, y = _parts(z)
    return _with_special(x, y, _asin_parts, _asinh_special, rotated=True)


def asinh(z):
    x, y = _parts(z)

    def parts(x, y):  # -i asin(i z)
        re, im = _asin_parts(-y, x)
        return im, -re

    return _with_special(x, y, parts, _asinh_special)


def _acos_parts(x, y):
    p1, q1, p2, q2 = _roots(x, y, 1)
    return 2 * p1._binary("atan2", p2, False), (p2 * q1 - q2 * p1)._unary("asinh")


def _acos_special(x, y):
    """acos z = -i acosh z where Im z >= 0 (sign bit clear), i acosh z below: Annex G.6.1.1 from G.6.2.1."""
    special, re, im = _acosh_special(x, y)
    below = signbit(y)
    return special, below._where(-im, im), below._where(re, -re)


def acos(z):
    x, y = _parts(z)
    return _with_special(x, y, _acos_parts, _acos_special)


def _acosh_parts(x, y):
    p1, q1, p2, q2 = _roots(x, y, -1)   # sqrt(z - 1), sqrt(z + 1)
    return (p1 * p2 + q1 * q2)._unary("asinh"), 2 * q1._binary("atan2", p2, False)


def acosh(z):
    x, y = _parts(z)
    return _with_special(x, y, _acosh_parts, _acosh_special)


def atanh(z):
    x, y = _parts(z)
    return _with_special(x, y, _atanh_parts, _atanh_special)


def atan(z):
    x, y = _parts(z)

    def parts(x, y):  # -i atanh(i z)
        re, im = _atanh_parts(-y, x)
        return im, -re

    return _with_special(x, y, parts, _atanh_special, rotated=True)


BY_NAME = {"asin": asin, "acos": acos, "atan": atan, "asinh": asinh, "acosh": acosh, "atanh": atanh}
