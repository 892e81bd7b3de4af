"""numpy.random's legacy API: RandomState (rand, randn, randint, ... over a tegula Generator) and the module-level
functions (np.random.seed, rand, randn, ...), the methods of one global RandomState, as in NumPy. seed(s) starts a
RandomState's Generator afresh from s, so a seeded script repeats itself; the numbers are Philox's, not the Mersenne
Twister's (see tegula.numpy.random)."""
from __future__ import annotations

import numpy as _np
from ._generator import Philox, default_rng

__all__ = ["RandomState", "seed", "rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "uniform", "normal",
           "standard_normal", "exponential", "standard_exponential", "choice", "permutation", "shuffle", "laplace",
           "logistic", "gumbel", "rayleigh", "weibull", "pareto", "power", "lognormal", "standard_cauchy",
           "geometric", "triangular", "standard_gamma", "gamma", "chisquare", "beta", "standard_t", "f", "poisson",
           "binomial", "dirichlet", "multivariate_normal", "negative_binomial", "wald", "vonmises",
           "noncentral_chisquare", "noncentral_f", "multinomial", "zipf", "logseries", "hypergeometric",
           "random_integers", "bytes", "get_state", "set_state"]

def _dims(dims):
    for d in dims:
        if not isinstance(d, (int, _np.integer)):
            raise TypeError(f"'{type(d).__name__}' object cannot be interpreted as an integer")
    return tuple(int(d) for d in dims)


def _scalar_or_array(r, size, params):
    """A Python number when NumPy's function gives one: no size and scalar parameters."""
    if size is None and all(_np.ndim(p) == 0 for p in params) and r.ndim == 0:
        return int(r) if _np.dtype(r.dtype).kind in "iu" else float(r)
    return r


class RandomState:
    """numpy.random.RandomState's methods over a tegula Generator (Philox4x32-10): RandomState(seed) repeats its
    numbers for a seed, as NumPy's does, though they are not the Mersenne Twister's. `seed` may also be a tegula
    BitGenerator (Philox)."""

    def __init__(self, seed=None):
        self._gen = None
        if seed is not None:
            self.seed(seed)

    def _g(self):
        if self._gen is None:  # fresh entropy, drawn at first use
            from ._generator import default_rng

            self._gen = default_rng()
        return self._gen

    def __repr__(self):
        return "RandomState(Philox4x32)"

    def seed(self, seed=None):
        """Restarts the generator from `seed` (an int, a sequence of ints, a BitGenerator or None for fresh
        entropy)."""
        if seed is not None and not hasattr(seed, "random_raw") and _np.any(_np.asarray(seed) < 0):
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        self._gen = default_rng(seed)

    def rand(self, *dims):
        """Uniform float64 in [0, 1) of shape dims (a Python float when there are none, as NumPy)."""
        r = self._g().random(_dims(dims))
        return float(r) if not dims else r

    def randn(self, *dims):
        r = self._g().standard_normal(_dims(dims))
        return float(r) if not dims else r

    def randint(self, low, high=None, size=None, dtype="int64"):
        """Integers in [low, high) (or [0, low)), int64 by default (NumPy's default integer on Linux)."""
        if _np.dtype(dtype).kind not in "iub":
            raise TypeError(f"Unsupported dtype {_np.dtype(dtype)!r} for randint")
        r = self._g().integers(low, high, size, dtype=dtype)
        return int(r) if size is None else r

    def tomaxint(self, size=None):
        """Integers in [0, the largest int64] (NumPy's C long on Linux)."""
        r = self._g().integers(0, _np.iinfo(_np.int64).max, size, dtype="int64", endpoint=True)
        return int(r) if size is None else r

    def random_sample(self, size=None):
        r = self._g().random(size)
        return float(r) if size is None else r

    random = ranf = sample = random_sample

    def uniform(self, low=0.0, high=1.0, size=None):
        return _scalar_or_array(self._g().uniform(low, high, size), size, (low, high))

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _scalar_or_array(self._g().normal(loc, scale, size), size, (loc, scale))

    def standard_normal(self, size=None):
        return _scalar_or_array(self._g().standard_normal(size), size, ())

    def exponential(self, scale=1.0, size=None):
        return _scalar_or_array(self._g().exponential(scale, size), size, (scale,))

    def standard_exponential(self, size=None):
        return _scalar_or_array(self._g().standard_exponential(size), size, ())

    def choice(self, a, size=None, replace=True, p=None):
        return self._g().choice(a, size, replace, p)

    def permutation(self, x):
        return self._g().permutation(x)

    def shuffle(self, x):
        self._g().shuffle(x)

    def multinomial(self, n, pvals, size=None):
        return self._g().multinomial(n, pvals, size)

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (NumPy's deprecated form of randint(low, high + 1))."""
        if high is None:
            low, high = 1, low
        return self.randint(low, int(high) + 1, size)

    def bytes(self, length):  # noqa: A003 - NumPy's name
        return self._g().bytes(length)

    def get_state(self):
        """The generator's state: a dict naming Philox4x32 with its key and counter (not NumPy's MT19937 tuple)."""
        return dict(self._g().bit_generator.state)

    def set_state(self, state):
        if not isinstance(state, dict) or state.get("bit_generator") != "Philox4x32":
            raise ValueError("set_state takes the dict get_state() returns (bit_generator 'Philox4x32')")
        key = (int(state["key"][1]) << 32) | int(state["key"][0])
        self._gen = default_rng(Philox(key=key, counter=int(state["counter"])))

    def dirichlet(self, alpha, size=None):
        return self._g().dirichlet(alpha, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        return self._g().multivariate_normal(mean, cov, size, check_valid, tol)


def _forward(name, nparams):
    def f(self, *args, size=None):
        if len(args) > nparams:
            size, args = args[nparams], args[:nparams]
        return _scalar_or_array(getattr(self._g(), name)(*args, size=size), size, args)
    f.__name__ = name
    f.__doc__ = f"numpy.random.{name}, from this RandomState's tegula Generator."
    return f


for _name, _n in (("laplace", 2), ("logistic", 2), ("gumbel", 2), ("rayleigh", 1), ("weibull", 1), ("pareto", 1),
                  ("power", 1), ("lognormal", 2), ("standard_cauchy", 0), ("geometric", 1), ("triangular", 3),
                  ("standard_gamma", 1), ("gamma", 2), ("chisquare", 1), ("beta", 2), ("standard_t", 1), ("f", 2),
                  ("poisson", 1), ("binomial", 2), ("negative_binomial", 2), ("wald", 2), ("vonmises", 2),
                  ("noncentral_chisquare", 2), ("noncentral_f", 3), ("zipf", 1), ("logseries", 1),
                  ("hypergeometric", 3)):
    setattr(RandomState, _name, _forward(_name, _n))

# The module-level functions: the methods of one global RandomState, as NumPy's are.
_GLOBAL = RandomState()
for _name in __all__[1:]:
    globals()[_name] = getattr(_GLOBAL, _name)
del _name, _n
