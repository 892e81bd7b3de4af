"""The parameter rules of tegula.numpy.random's distributions, stated once (NumPy's constraints from
numpy/random/_common.pyx and the distributions' own checks, in NumPy's order, with its exception types and words)
and checked the same way for host values (with NumPy) and for tegula arrays (one fused reduction on their device
per rule, so one host sync per rule)."""
from __future__ import annotations

import operator

import numpy as _np

from . import _core

_LAM_MAX = float(_np.iinfo(_np.int64).max - _np.sqrt(_np.iinfo(_np.int64).max) * 10)  # NumPy's POISSON_LAM_MAX
_HYPERGEOM_MAX = 10 ** 9


def _rule(names, *tests, nd=None):
    """A rule over the parameters `names`: tests (bad(xp, *values) -> mask, message[, exception type]) in NumPy's
    order when every parameter of the call is 0-d; `nd` the tests for array parameters where NumPy's order or words
    differ."""
    return tuple(names), tests, nd or tests


def _non_negative(name):  # CONS_NON_NEGATIVE: -0.0 breaks it, NaN passes
    return _rule((name,), (lambda xp, v: ~xp.isnan(v) & xp.signbit(v), f"{name} < 0"))


def _at_least_zero(name):  # NumPy's integer parameters (and dirichlet's alpha): v < 0 breaks it
    return _rule((name,), (lambda xp, v: v < 0, f"{name} < 0"))


def _positive(name):  # CONS_POSITIVE: NaN passes
    return _rule((name,), (lambda xp, v: v <= 0, f"{name} <= 0"))


def _positive_not_nan(name):
    return _rule((name,), (lambda xp, v: xp.isnan(v), f"{name} must not be NaN"),
                 (lambda xp, v: v <= 0, f"{name} <= 0"))


def _within(name, ok, words, nan_0d="is NaN"):
    """NumPy's bounded constraints: every value must satisfy ok (NaN never does); the message ends in '<name> is
    NaN' for 0-d calls ('contains NaNs' where NumPy says so for both) and '<name> contains NaNs' for arrays."""
    def bad(xp, v):
        return ~ok(v)
    words = words.format(name)
    return _rule((name,), (bad, f"{words} or {name} {nan_0d}"), nd=((bad, f"{words} or {name} contains NaNs"),))


def _lam_negative(xp, v):
    return ~(v >= 0)


def _lam_too_large(xp, v):
    return ~(v <= _LAM_MAX)


def _range_not_finite(xp, low, high):
    return ~xp.isfinite(high - low)


RULES = {
    "uniform": (_rule(("low", "high"), (_range_not_finite, "high - low range exceeds valid bounds", OverflowError),
                      nd=((_range_not_finite, "Range exceeds valid bounds", OverflowError),)),),
    "normal": (_non_negative("scale"),),
    "lognormal": (_non_negative("sigma"),),
    "exponential": (_non_negative("scale"),),
    "laplace": (_non_negative("scale"),),
    "logistic": (_non_negative("scale"),),
    "gumbel": (_non_negative("scale"),),
    "rayleigh": (_non_negative("scale"),),
    "weibull": (_non_negative("a"),),
    "pareto": (_positive("a"),),
    "power": (_positive("a"),),
    "geometric": (_within("p", lambda v: (v > 0) & (v <= 1), "{0} <= 0, {0} > 1", "contains NaNs"),),
    "standard_cauchy": (),
    "triangular": (_rule(("left", "mode", "right"), (lambda xp, lo, mo, hi: lo > mo, "left > mode"),
                         (lambda xp, lo, mo, hi: mo > hi, "mode > right"),
                         (lambda xp, lo, mo, hi: lo == hi, "left == right")),),
    "standard_gamma": (_non_negative("shape"),),
    "gamma": (_non_negative("shape"), _non_negative("scale")),
    "chisquare": (_positive("df"),),
    "beta": (_positive("a"), _positive("b")),
    "dirichlet": (_at_least_zero("alpha"),),
    "standard_t": (_positive("df"),),
    "f": (_positive("dfnum"), _positive("dfden")),
    "noncentral_chisquare": (_positive("df"), _non_negative("nonc")),
    "noncentral_f": (_positive("dfnum"), _positive("dfden"), _non_negative("nonc")),
    "wald": (_positive("mean"), _positive("scale")),
    "vonmises": (_non_negative("kappa"),),
    "poisson": (_rule(("lam",), (_lam_negative, "lam < 0 or lam is NaN"), (_lam_too_large, "lam value too large"),
                      nd=((_lam_too_large, "lam value too large"), (_lam_negative, "lam < 0 or lam contains NaNs"))),),
    "binomial": (_within("p", lambda v: (v >= 0) & (v <= 1), "{0} < 0, {0} > 1"), _at_least_zero("n")),
    "negative_binomial": (_positive_not_nan("n"),
                          _within("p", lambda v: (v > 0) & (v <= 1), "{0} <= 0, {0} > 1", "contains NaNs"),
                          _rule(("n", "p"), (lambda xp, n, p: (1.0 - p) / p * (n + 10.0 * xp.sqrt(n)) > _LAM_MAX,
                                             "n too large or p too small, see Generator.negative_binomial Notes"))),
    "multinomial": (_at_least_zero("n"),),
    "zipf": (_within("a", lambda v: v > 1, "{0} <= 1"),),
    "logseries": (_within("p", lambda v: (v >= 0) & (v < 1), "{0} < 0, {0} >= 1"),),
    "hypergeometric": (_rule(("ngood", "nbad"), (lambda xp, g, b: (g >= _HYPERGEOM_MAX) | (b >= _HYPERGEOM_MAX),
                                                 f"both ngood and nbad must be less than {_HYPERGEOM_MAX}")),
                       _rule(("ngood", "nbad", "nsample"), (lambda xp, g, b, s: g + b < s, "ngood + nbad < nsample")),
                       _at_least_zero("ngood"), _at_least_zero("nbad"), _at_least_zero("nsample")),
}


def check(distribution, **params):
    """Raises NumPy's error for the first of the distribution's rules that the parameters break (params: all of
    the call's parameters, by NumPy's names: NumPy's words depend on whether every one of them is 0-d)."""
    scalar = all(_ndim(v) == 0 for v in params.values())
    for names, tests_0d, tests_nd in RULES[distribution]:
        tests = tests_0d if scalar else tests_nd
        broken = _first_broken(tests, [params[n] for n in names])
        if broken is not None:
            _, message, *error = tests[broken]
            raise (error[0] if error else ValueError)(message)


def _ndim(v):
    return v.ndim if isinstance(v, _core.ndarray) else _np.ndim(v)


def _on(dev, v):
    """A host value beside device ones: a NumPy scalar (a constant of the expression) or an array copied to dev."""
    v = _np.asarray(v, _np.float64)
    return v[()] if v.ndim == 0 else _core.as_array(v, dev)


def _first_broken(tests, values):
    """The index of the first test that some element breaks (NumPy runs each test over all elements before the
    next), or None. Each element's code is len(tests) - (its first broken test), 0 if none: the maximum code names
    the first test broken anywhere, so one reduction answers for all the tests."""
    on_device = [v for v in values if isinstance(v, _core.ndarray)]
    if on_device:
        from . import _ufuncs as xp

        dev = on_device[0]._device_id
        values = [_core.as_array(v, dtype="float64") if isinstance(v, _core.ndarray) else _on(dev, v) for v in values]
    else:
        xp = _np
        values = [_np.asarray(v, _np.float64) for v in values]
    if any(v.size == 0 for v in values):
        return None
    with _np.errstate(all="ignore"):
        code = 0
        for i in reversed(range(len(tests))):
            code = xp.where(tests[i][0](xp, *values), len(tests) - i, code)
        worst = int(code.max())
    return len(tests) - worst if worst else None


def _size_tuple(size):
    if size is None:
        return ()
    if isinstance(size, (int, _np.integer)):
        size = (int(size),)
    try:
        size = tuple(operator.index(s) for s in size)
    except TypeError:
        raise TypeError(f"size must be None, an int or a tuple of ints, got {size!r}") from None
    if any(s < 0 for s in size):
        raise ValueError("negative dimensions are not allowed")
    return size
