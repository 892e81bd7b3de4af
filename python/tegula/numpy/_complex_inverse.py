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

Everything is real arithmetic on the parts, fused into one kernel per call. Finite values agree with NumPy to a
few ulp; infinities and NaNs can differ from C99's Annex G special cases."""
from __future__ import annotations

from ._common import _parts


def _sqrt_parts(a, b):
    """The principal square root of a + ib as parts (the engine's complex sqrt)."""
    return _parts(a._complex(b)._unary("sqrt"))


def _roots(x, y, shift):
    """sqrt(shift - z) and sqrt(shift + z) as parts (shift 1), or sqrt(z - 1) and sqrt(z + 1) (shift -1)."""
    one = x._scalar_like(1)
    p1, q1 = _sqrt_parts(one - x, -y) if shift > 0 else _sqrt_parts(x - one, y)
    p2, q2 = _sqrt_parts(one + x, y) if shift > 0 else _sqrt_parts(x + one, y)
    return p1, q1, p2, q2


def _asin_parts(x, y):
    p1, q1, p2, q2 = _roots(x, y, 1)   # sqrt(1 - z), sqrt(1 + z)
    re = x._binary("atan2", p1 * p2 - q1 * q2, False)
    im = (p1 * q2 - q1 * p2)._unary("asinh")
    return re, im


def _apply(parts_of, z, rotated=False):
    """f(z) from parts_of(x, y) -> (Re f, Im f); rotated: -i f(i z), which turns asin into asinh and atanh into atan
    (f(i z) = re + i im, so -i f(i z) = im - i re)."""
    x, y = _parts(z)
    if not rotated:
        re, im = parts_of(x, y)
        return re._complex(im)
    re, im = parts_of(-y, x)
    return im._complex(-re)


def asin(z):
    return _apply(_asin_parts, z)


def acos(z):
    x, y = _parts(z)
    p1, q1, p2, q2 = _roots(x, y, 1)
    re = 2 * p1._binary("atan2", p2, False)
    im = (p2 * q1 - q2 * p1)._unary("asinh")
    return re._complex(im)


def asinh(z):
    return _apply(_asin_parts, z, rotated=True)


def acosh(z):
    x, y = _parts(z)
    p1, q1, p2, q2 = _roots(x, y, -1)   # sqrt(z - 1), sqrt(z + 1)
    re = (p1 * p2 + q1 * q2)._unary("asinh")
    im = 2 * q1._binary("atan2", p2, False)
    return re._complex(im)


def _atanh_parts(x, y):
    """atanh(x + iy) as parts, from -x - iy where x is negative (atanh is odd), so the log1p argument is never
    near -1 and the result keeps its accuracy next to -1 as well as +1."""
    from ._ufuncs import signbit

    neg = signbit(x)
    x = neg._where(-x, x)
    y = neg._where(-y, y)
    one = x._scalar_like(1)
    re = 0.25 * (4 * x / ((one - x) * (one - x) + y * y))._unary("log1p")
    im = 0.5 * (2 * y)._binary("atan2", (one - x) * (one + x) - y * y, False)
    return neg._where(-re, re), neg._where(-im, im)


def atanh(z):
    return _apply(_atanh_parts, z)


def atan(z):
    return _apply(_atanh_parts, z, rotated=True)


BY_NAME = {"asin": asin, "acos": acos, "atan": atan, "asinh": asinh, "acosh": acosh, "atanh": atanh}
