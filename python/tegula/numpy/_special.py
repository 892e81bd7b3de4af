"""Special functions composed from ufuncs: i0 (NumPy's, also behind the Kaiser window of _construct)."""
from __future__ import annotations

import math

from ._common import _arr
from ._ufuncs import absolute, exp, sqrt, where


_I0_TERMS = 100  # power-series terms: the last one at |x| = 30 is below 1e-17 of the sum
_I0_SPLIT = 30.0


def i0(x):
    """The modified Bessel function of the first kind, order 0: its power series (all terms positive) up to
    |x| = 30, the asymptotic series beyond (relative error near 1e-15 on both sides)."""
    x = _arr(x)
    if x._dtype_name.startswith("complex"):
        raise TypeError("i0 not supported for complex values")
    x = x.astype("float64")
    ax = absolute(x)
    small = where(ax <= _I0_SPLIT, ax, 0.0)
    q = small * small * 0.25
    term = q * 0.0 + 1.0
    s = term
    for k in range(1, _I0_TERMS):
        term = term * q / (k * k)
        s = s + term
    big = where(ax > _I0_SPLIT, ax, _I0_SPLIT + 1.0)
    t = 1.0 / (8.0 * big)
    a = t * 0.0 + 1.0
    series = a
    for k in range(1, 20):
        a = a * ((2 * k - 1) ** 2) * t / k
        series = series + a
    asym = exp(big) / sqrt(2.0 * math.pi * big) * series
    return where(ax <= _I0_SPLIT, s, asym)
