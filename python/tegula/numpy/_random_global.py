"""numpy.random's module-level functions (np.random.seed, rand, randn, randint, ...), drawn from one global
tegula Generator, as NumPy's draw from its global RandomState. seed(s) starts that Generator afresh from s, so a
seeded script repeats itself; the numbers are Philox's, not the Mersenne Twister's (see tegula.numpy.random)."""
from __future__ import annotations

import numpy as _np

__all__ = ["seed", "rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "uniform", "normal",
           "standard_normal", "exponential", "standard_exponential", "choice", "permutation", "shuffle", "laplace",
           "logistic", "gumbel", "rayleigh", "weibull", "pareto", "power", "lognormal", "standard_cauchy",
           "geometric", "triangular", "standard_gamma", "gamma", "chisquare", "beta", "standard_t", "f", "poisson",
           "binomial", "dirichlet", "multivariate_normal", "negative_binomial", "wald", "vonmises",
           "noncentral_chisquare", "noncentral_f", "multinomial", "zipf", "logseries", "hypergeometric",
           "random_integers", "bytes", "get_state", "set_state"]

_state = {"generator": None}


def _g():
    if _state["generator"] is None:
        from .random import default_rng

        _state["generator"] = default_rng()
    return _state["generator"]


def seed(seed=None):
    """Restarts the global generator from `seed` (an int, a sequence of ints or None for fresh entropy)."""
    from .random import default_rng

    if seed is not None and _np.any(_np.asarray(seed) < 0):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    _state["generator"] = default_rng(seed)


def _dims(dims):
    for d in dims:
        if not isinstance(d, (int, _np.integer)):
            raise TypeError(f"'{type(d).__name__}' object cannot be interpreted as an integer")
    return tuple(int(d) for d in dims)


def rand(*dims):
    """Uniform float64 in [0, 1) of shape dims (a Python float when there are none, as NumPy)."""
    r = _g().random(_dims(dims))
    return float(r) if not dims else r


def randn(*dims):
    r = _g().standard_normal(_dims(dims))
    return float(r) if not dims else r


def randint(low, high=None, size=None, dtype="int64"):
    """Integers in [low, high) (or [0, low)), int64 by default (NumPy's default integer on Linux)."""
    if _np.dtype(dtype).kind not in "iub":
        raise TypeError(f"Unsupported dtype {_np.dtype(dtype)!r} for randint")
    r = _g().integers(low, high, size, dtype=dtype)
    return int(r) if size is None else r


def random_sample(size=None):
    r = _g().random(size)
    return float(r) if size is None else r


random = ranf = sample = random_sample


def _scalar_or_array(r, size, params):
    """A Python number when NumPy's function gives one: no size and scalar parameters."""
    if size is None and all(_np.ndim(p) == 0 for p in params) and r.ndim == 0:
        return int(r) if _np.dtype(r.dtype).kind in "iu" else float(r)
    return r


def uniform(low=0.0, high=1.0, size=None):
    return _scalar_or_array(_g().uniform(low, high, size), size, (low, high))


def normal(loc=0.0, scale=1.0, size=None):
    return _scalar_or_array(_g().normal(loc, scale, size), size, (loc, scale))


def standard_normal(size=None):
    return _scalar_or_array(_g().standard_normal(size), size, ())


def exponential(scale=1.0, size=None):
    return _scalar_or_array(_g().exponential(scale, size), size, (scale,))


def standard_exponential(size=None):
    return _scalar_or_array(_g().standard_exponential(size), size, ())


def choice(a, size=None, replace=True, p=None):
    return _g().choice(a, size, replace, p)


def permutation(x):
    return _g().permutation(x)


def shuffle(x):
    _g().shuffle(x)


def _forward(name, nparams):
    def f(*args, size=None):
        if len(args) > nparams:
            size, args = args[nparams], args[:nparams]
        return _scalar_or_array(getattr(_g(), name)(*args, size=size), size, args)
    f.__name__ = name
    f.__doc__ = f"numpy.random.{name} from the global tegula Generator."
    return f


laplace = _forward("laplace", 2)
logistic = _forward("logistic", 2)
gumbel = _forward("gumbel", 2)
rayleigh = _forward("rayleigh", 1)
weibull = _forward("weibull", 1)
pareto = _forward("pareto", 1)
power = _forward("power", 1)
lognormal = _forward("lognormal", 2)
standard_cauchy = _forward("standard_cauchy", 0)
geometric = _forward("geometric", 1)
triangular = _forward("triangular", 3)
standard_gamma = _forward("standard_gamma", 1)
gamma = _forward("gamma", 2)
chisquare = _forward("chisquare", 1)
beta = _forward("beta", 2)
standard_t = _forward("standard_t", 1)
f = _forward("f", 2)
poisson = _forward("poisson", 1)
binomial = _forward("binomial", 2)
negative_binomial = _forward("negative_binomial", 2)
wald = _forward("wald", 2)
vonmises = _forward("vonmises", 2)
noncentral_chisquare = _forward("noncentral_chisquare", 2)
noncentral_f = _forward("noncentral_f", 3)
zipf = _forward("zipf", 1)
logseries = _forward("logseries", 1)
hypergeometric = _forward("hypergeometric", 3)


def multinomial(n, pvals, size=None):
    return _g().multinomial(n, pvals, size)


def random_integers(low, high=None, size=None):
    """Integers in [low, high] (NumPy's deprecated form of randint(low, high + 1))."""
    if high is None:
        low, high = 1, low
    return randint(low, int(high) + 1, size)


def bytes(length):  # noqa: A001 - NumPy's name
    return _g().bytes(length)


def get_state():
    """The global generator's state: a dict naming Philox4x32 with its key and counter (not NumPy's MT19937
    tuple)."""
    return dict(_g().bit_generator.state)


def set_state(state):
    from .random import Philox, default_rng

    if not isinstance(state, dict) or state.get("bit_generator") != "Philox4x32":
        raise ValueError("set_state takes the dict get_state() returns (bit_generator 'Philox4x32')")
    key = (int(state["key"][1]) << 32) | int(state["key"][0])
    _state["generator"] = default_rng(Philox(key=key, counter=int(state["counter"])))


def dirichlet(alpha, size=None):
    return _g().dirichlet(alpha, size)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):
    return _g().multivariate_normal(mean, cov, size, check_valid, tol)
