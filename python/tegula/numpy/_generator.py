"""tegula.numpy.random: NumPy's Generator API over a counter-based generator (Philox4x32-10, Random123's).

    rng = tegula.numpy.random.default_rng(42)
    x = rng.random((4096, 4096))                 # float64 in [0, 1)
    y = rng.normal(0.0, 2.0, 1 << 20, dtype="float32")
    k = rng.integers(0, 10, 100)

Every value is a function of (seed, position in the stream): a tile kernel computes the Philox block of each
128-bit counter, on the GPU or on the CPU interpreter, so the same seed gives the same numbers on every device
and for any launch configuration. The distributions are tegula.numpy expressions over those 32-bit words (one
fused kernel each). The streams differ from NumPy's (NumPy's Generator uses PCG64 and a ziggurat for normals):
the API and the distributions match, the bits do not.
"""
from __future__ import annotations

import math
import operator

import numpy as _np

import tegula.tile as _tt

from . import _core
from ._random_checks import _size_tuple, check as _check
from . import _ufuncs, linalg
from ._creation import arange, empty
from ._manipulation import reshape, stack
from ._random_rejection import binomial, hypergeometric, logseries, poisson, standard_gamma, vonmises, zipf
from ._selection import take, take_along_axis
from ._sort import argsort

__all__ = ["Generator", "Philox", "default_rng"]  # numpy.random's module-level functions: _random_global

_M0, _M1 = 0xD2511F53, 0xCD9E8D57      # Philox4x32 multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85      # Weyl key increments
_T = 1024                              # counters per block


@_tt.kernel
def _philox(out, k0: _tt.uint32, k1: _tt.uint32, base: _tt.uint64, T: _tt.Constant[int]):
    """out (n, 4) uint32: row c holds Philox4x32-10 of counter (base + c) (low word first, upper words 0)."""
    i = _tt.bid(0)
    ctr = _tt.arange(T).astype(_tt.uint64) + (i.astype(_tt.uint64) * T + base)
    c0 = (ctr & 0xFFFFFFFF).astype(_tt.uint32)
    c1 = (ctr >> 32).astype(_tt.uint32)
    c2 = _tt.zeros((T,), _tt.uint32)
    c3 = _tt.zeros((T,), _tt.uint32)
    key0 = k0
    key1 = k1
    for _ in range(10):
        p0 = c0.astype(_tt.uint64) * 0xD2511F53
        p1 = c2.astype(_tt.uint64) * 0xCD9E8D57
        n0 = (p1 >> 32).astype(_tt.uint32) ^ c1 ^ key0
        n2 = (p0 >> 32).astype(_tt.uint32) ^ c3 ^ key1
        c1 = p1.astype(_tt.uint32)
        c3 = p0.astype(_tt.uint32)
        c0 = n0
        c2 = n2
        key0 = key0 + 0x9E3779B9
        key1 = key1 + 0xBB67AE85
    col = _tt.broadcast_to(_tt.expand_dims(_tt.arange(4), 0), (T, 4))
    w = _tt.where(col == 0, _tt.broadcast_to(_tt.expand_dims(c0, 1), (T, 4)),
                  _tt.where(col == 1, _tt.broadcast_to(_tt.expand_dims(c1, 1), (T, 4)),
                            _tt.where(col == 2, _tt.broadcast_to(_tt.expand_dims(c2, 1), (T, 4)),
                                      _tt.broadcast_to(_tt.expand_dims(c3, 1), (T, 4)))))
    _tt.store(out, index=(i, 0), tile=w)


class Philox:
    """Philox4x32-10 with a 64-bit key from the seed (through NumPy's SeedSequence) and a 64-bit block counter.
    `advance(n)` skips n blocks of four 32-bit words."""

    def __init__(self, seed=None, *, counter=0, key=None):
        if key is not None:
            k = _np.asarray(key, dtype=_np.uint64).ravel()
            if k.size != 1 and k.size != 2:
                raise ValueError("key must be one 64-bit value or two 32-bit words")
            self.key = (int(k[0]) & 0xFFFFFFFF, int(k[-1] >> _np.uint64(32) if k.size == 1 else k[1]) & 0xFFFFFFFF)
        else:
            self.seed_seq = seed if isinstance(seed, _np.random.SeedSequence) else _np.random.SeedSequence(seed)
            words = self.seed_seq.generate_state(2, _np.uint32)
            self.key = (int(words[0]), int(words[1]))
        self.counter = int(counter)

    def advance(self, blocks):
        self.counter = (self.counter + int(blocks)) % (1 << 64)
        return self

    def words(self, n, device=None):
        """The next n 32-bit words of the stream (uint32 array), consuming ceil(n / 4) counters."""
        blocks = -(-n // 4)
        out = empty((max(blocks, 1), 4), "uint32", device=device)
        if blocks:
            from ._indexing import _launch

            _launch(_philox, -(-blocks // _T),
                    (out, _np.uint32(self.key[0]), _np.uint32(self.key[1]), _np.uint64(self.counter), _T),
                    out._device_id)
        self.advance(blocks)
        return out.reshape(-1)[:n]

    @property
    def state(self):
        return {"bit_generator": "Philox4x32", "key": self.key, "counter": self.counter}


class Generator:
    """NumPy's Generator methods over a counter-based bit generator; results live on `device` (default:
    tegula.numpy's default device). Uniform, normal, integer and permutation draws, closed-form inverse CDFs
    (exponential, laplace, logistic, gumbel, rayleigh, weibull, pareto, power, lognormal, standard_cauchy,
    geometric, triangular), choice with or without p, and rejection samplers (gamma, beta, chisquare, dirichlet,
    standard_t, f, poisson, binomial, negative_binomial, vonmises, noncentral_chisquare, noncentral_f) plus
    zipf, logseries, hypergeometric, multivariate_hypergeometric, wald, multinomial and multivariate_normal."""

    def __init__(self, bit_generator, device=None):
        if not isinstance(bit_generator, Philox):
            raise TypeError(f"Generator needs a tegula.numpy.random.Philox bit generator, got "
                            f"{type(bit_generator).__name__}")
        self.bit_generator = bit_generator
        self.device = device

    def __repr__(self):
        return f"Generator(Philox) at {hex(id(self))}"

    def _host(self, values, dtype=None):
        """Host values as a tegula array on this generator's device."""
        return _core.as_array(_np.asarray(values, dtype=dtype), _core.device_id(self.device))

    def _param(self, v, dtype="float64"):
        """A distribution parameter in dtype: a NumPy scalar (a constant of the expression) for a host scalar, else
        a tegula array (host values copied to this generator's device)."""
        if isinstance(v, _core.ndarray):
            return _core.as_array(v, dtype=dtype)
        return _np.dtype(dtype).type(v) if _np.ndim(v) == 0 else self._host(v, dtype)

    def _words(self, n):
        return self.bit_generator.words(n, self.device)

    def _unit(self, shape, dtype, open_low=False):
        """Uniform floats in [0, 1) (or (0, 1] with open_low) of `shape`: 24 bits for float32, 53 for float64."""
        dtype = _float_dtype(dtype)
        n = math.prod(shape)
        if dtype == "float32":
            w = self._words(n)
            u = (w >> 8).astype("float32") * _np.float32(2.0 ** -24)
            if open_low:
                u = u + _np.float32(2.0 ** -24)
        else:
            w = self._words(2 * n).reshape(-1, 2)
            hi = (w[:, 0] >> 5).astype("float64")
            lo = (w[:, 1] >> 6).astype("float64")
            u = (hi * 67108864.0 + lo) * (2.0 ** -53)
            if open_low:
                u = u + 2.0 ** -53
        return reshape(u, shape) if shape != (n,) else u

    def random(self, size=None, dtype="float64", out=None):
        shape = _size_tuple(size)
        r = self._unit(shape, dtype)
        return _finish(r, out)

    def uniform(self, low=0.0, high=1.0, size=None, dtype="float64"):
        _check("uniform", low=low, high=high)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(low), _np.shape(high))
        u = self._unit(shape, dtype)
        dt = _float_dtype(dtype)
        lo = self._param(low, dt)
        return lo + (self._param(high, dt) - lo) * u

    def standard_normal(self, size=None, dtype="float64", out=None):
        _float_dtype(dtype, "standard_normal")
        shape = _size_tuple(size)
        return _finish(self._normal(shape, dtype), out)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        _check("normal", loc=loc, scale=scale)
        return self._scaled_normal(loc, scale, size, dtype)

    def _scaled_normal(self, loc, scale, size, dtype):
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(loc), _np.shape(scale))
        dt = _float_dtype(dtype)
        return self._param(loc, dt) + self._param(scale, dt) * self._normal(shape, dtype)

    def _normal(self, shape, dtype):
        """Box-Muller over pairs of uniforms: (r cos t, r sin t), r = sqrt(-2 log u1) with u1 in (0, 1]."""
        n = math.prod(shape)
        m = -(-n // 2)
        u1 = self._unit((m,), dtype, open_low=True)
        u2 = self._unit((m,), dtype)
        r = _ufuncs.sqrt(-2.0 * _ufuncs.log(u1))
        t = (2.0 * math.pi) * u2
        z = stack([r * _ufuncs.cos(t), r * _ufuncs.sin(t)], axis=1).reshape(-1)
        z = z[:n] if 2 * m != n else z
        return z.reshape(shape) if shape != (n,) else z

    def exponential(self, scale=1.0, size=None, dtype="float64"):
        _check("exponential", scale=scale)
        shape = _size_tuple(size) if size is not None else _np.shape(scale)
        dt = _float_dtype(dtype)
        return -self._param(scale, dt) * _ufuncs.log(self._unit(shape, dtype, open_low=True))

    def standard_exponential(self, size=None, dtype="float64", method="inv", out=None):
        return _finish(-_ufuncs.log(self._unit(_size_tuple(size), dtype, open_low=True)), out)

    def _by_inverse(self, name, size, transform, **params):
        """float64 samples transform(u, *params) with u uniform in (0, 1], of `size` or the parameters' broadcast
        shape, after the checks of distribution `name`: every distribution here with a closed-form inverse CDF is
        one fused expression."""
        _check(name, **params)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(*map(_np.shape, params.values()))
        u = self._unit(shape, "float64", open_low=True)
        return transform(u, *[self._param(v) for v in params.values()])

    def laplace(self, loc=0.0, scale=1.0, size=None):
        def lap(u, m, b):  # u in (0, 1]: the two halves by the sign of u - 1/2
            return m - b * _ufuncs.sign(u - 0.5) * _ufuncs.log(1.0 - 2.0 * _ufuncs.abs(u - 0.5) + 2.0 ** -54)
        return self._by_inverse("laplace", size, lap, loc=loc, scale=scale)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._by_inverse("logistic", size, lambda u, m, s: m + s * _ufuncs.log(u / (1.0 - u + 2.0 ** -54)),
                                loc=loc, scale=scale)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._by_inverse("gumbel", size, lambda u, m, b: m - b * _ufuncs.log(-_ufuncs.log(u * (1.0 - 2.0 ** -53))),
                                loc=loc, scale=scale)

    def rayleigh(self, scale=1.0, size=None):
        return self._by_inverse("rayleigh", size, lambda u, s: s * _ufuncs.sqrt(-2.0 * _ufuncs.log(u)), scale=scale)

    def weibull(self, a, size=None):
        return self._by_inverse("weibull", size, lambda u, k: (-_ufuncs.log(u)) ** (1.0 / k), a=a)

    def pareto(self, a, size=None):
        return self._by_inverse("pareto", size, lambda u, k: _ufuncs.exp(-_ufuncs.log(u) / k) - 1.0, a=a)

    def power(self, a, size=None):
        return self._by_inverse("power", size, lambda u, k: _ufuncs.exp(_ufuncs.log(u) / k), a=a)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        _check("lognormal", mean=mean, sigma=sigma)
        return _ufuncs.exp(self._scaled_normal(mean, sigma, size, "float64"))

    def standard_cauchy(self, size=None):
        return self._by_inverse("standard_cauchy", size, lambda u: _ufuncs.tan(math.pi * (u - 0.5)))

    def geometric(self, p, size=None):
        """Trials to the first success: 1 + floor(log(u) / log(1 - p)), as int64."""
        r = self._by_inverse("geometric", size, lambda u, q: _ufuncs.floor(_ufuncs.log(u) / _ufuncs.log1p(-q)) + 1.0, p=p)
        return _ufuncs.where(r != r, 1.0, r).astype("int64")  # p == 1: log(u) / -inf is NaN or 0; one trial

    def triangular(self, left, mode, right, size=None):
        def tri(u, lo, mo, hi):
            c = (mo - lo) / (hi - lo)
            return _ufuncs.where(u <= c, lo + _ufuncs.sqrt(u * (hi - lo) * (mo - lo)), hi - _ufuncs.sqrt((1.0 - u) * (hi - lo) * (hi - mo)))
        return self._by_inverse("triangular", size, tri, left=left, mode=mode, right=right)

    # ---- drawn by rejection (tegula/numpy/_random_rejection.py) ----
    def standard_gamma(self, shape, size=None, dtype="float64", out=None):
        _check("standard_gamma", shape=shape)
        return _finish(standard_gamma(self, shape, size, _float_dtype(dtype, "standard_gamma")), out)

    def gamma(self, shape, scale=1.0, size=None):
        _check("gamma", shape=shape, scale=scale)
        return standard_gamma(self, shape, size) * self._param(scale)

    def chisquare(self, df, size=None):
        _check("chisquare", df=df)
        return 2.0 * standard_gamma(self, self._param(df) * 0.5, size)

    def beta(self, a, b, size=None):
        """X / (X + Y) with X ~ gamma(a), Y ~ gamma(b); where both underflow to 0 (a and b tiny), a draw of the
        limit, 0 or 1 with probability b / (a + b) and a / (a + b)."""
        _check("beta", a=a, b=b)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(a), _np.shape(b))
        x, y = standard_gamma(self, a, shape), standard_gamma(self, b, shape)
        s = x + y
        ca, cb = self._param(a), self._param(b)
        limit = _ufuncs.where(self._unit(shape, "float64") < ca / (ca + cb), 1.0, 0.0)
        return _ufuncs.where(s == 0, limit, x / _ufuncs.where(s == 0, 1.0, s))  # NaN where a or b is NaN, as NumPy

    def dirichlet(self, alpha, size=None):
        al = alpha if isinstance(alpha, _core.ndarray) else _np.asarray(alpha, dtype=_np.float64)
        if al.ndim != 1:
            raise ValueError("object of too small depth for desired array" if al.ndim == 0 else
                             "object too deep for desired array")
        _check("dirichlet", alpha=al)
        shape = _size_tuple(size) + (al.shape[0],)
        g = standard_gamma(self, al, shape)
        total = g.sum(axis=-1, keepdims=True)

        return g / _ufuncs.where(total == 0, 1.0, total)

    def standard_t(self, df, size=None):
        _check("standard_t", df=df)
        shape = _size_tuple(size) if size is not None else _np.shape(df)
        z = self._normal(shape, "float64")
        d = self._param(df)
        return z / _ufuncs.sqrt(2.0 * standard_gamma(self, d * 0.5, shape) / d)

    def f(self, dfnum, dfden, size=None):
        _check("f", dfnum=dfnum, dfden=dfden)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(dfnum), _np.shape(dfden))
        dn, dd = self._param(dfnum), self._param(dfden)
        num = standard_gamma(self, dn * 0.5, shape) / dn
        den = standard_gamma(self, dd * 0.5, shape) / dd
        return num / den

    def poisson(self, lam=1.0, size=None):
        _check("poisson", lam=lam)
        return poisson(self, lam, size)

    def binomial(self, n, p, size=None):
        _check("binomial", n=n, p=p)
        return binomial(self, n, p, size)

    def negative_binomial(self, n, p, size=None):
        """Failures before the n-th success: poisson(gamma(n, (1 - p) / p)), as NumPy's."""
        _check("negative_binomial", n=n, p=p)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(n), _np.shape(p))
        pp = self._param(p)
        return poisson(self, standard_gamma(self, n, shape) * ((1.0 - pp) / pp), None)

    def wald(self, mean, scale, size=None):
        """The inverse Gaussian by Michael, Schucany and Haas's transformation of a normal and a uniform."""
        _check("wald", mean=mean, scale=scale)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(mean), _np.shape(scale))
        mu, lam = self._param(mean), self._param(scale)
        y = self._normal(shape, "float64")
        y = mu * y * y
        x = mu + (mu / (2.0 * lam)) * (y - _ufuncs.sqrt(4.0 * lam * y + y * y))
        u = self._unit(shape, "float64")
        return _ufuncs.where(u <= mu / (mu + x), x, mu * mu / x)

    def noncentral_chisquare(self, df, nonc, size=None):
        _check("noncentral_chisquare", df=df, nonc=nonc)
        return self._noncentral_chisquare(df, nonc, size)

    def _noncentral_chisquare(self, df, nonc, size):
        """nonc 0: chisquare(df); df > 1: chisquare(df - 1) + (z + sqrt(nonc))**2; else chisquare(df + 2 poisson(
        nonc / 2)): NumPy's three cases, chosen per element."""
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(df), _np.shape(nonc))
        d = self._param(df) + self._host(_np.zeros(shape))
        lam = self._param(nonc)
        plain = 2.0 * standard_gamma(self, d * 0.5, shape)
        z = self._normal(shape, "float64") + _ufuncs.sqrt(lam * 1.0)
        above = 2.0 * standard_gamma(self, _ufuncs.where(d > 1, d - 1.0, 1.0) * 0.5, shape) + z * z
        i = poisson(self, lam * 0.5 + d * 0.0, shape)
        below = 2.0 * standard_gamma(self, (d + 2.0 * i) * 0.5, shape)
        return _ufuncs.where(lam * 1.0 + d * 0.0 == 0, plain, _ufuncs.where(d > 1, above, _ufuncs.where(lam != lam, lam, below)))

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        _check("noncentral_f", dfnum=dfnum, dfden=dfden, nonc=nonc)
        shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(dfnum), _np.shape(dfden),
                                                                                _np.shape(nonc))
        dn, dd = self._param(dfnum), self._param(dfden)
        t = self._noncentral_chisquare(dfnum, nonc, shape) * dd
        return t / (2.0 * standard_gamma(self, dd * 0.5, shape) * dn)

    def multinomial(self, n, pvals, size=None):
        """Counts of n draws over the categories of pvals (the last one takes what is left): one binomial per
        category, each conditioned on the draws before it."""
        pv = pvals.get() if isinstance(pvals, _core.ndarray) else _np.asarray(pvals, dtype=_np.float64)
        if pv.ndim == 0:
            raise ValueError("pvals must have at least 1 dimension")
        if _np.any(pv < 0) or _np.any(pv > 1) or _np.any(_np.isnan(pv)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if _np.any(pv[..., :-1].sum(axis=-1) > 1.0 + 1e-12):
            raise ValueError("sum(pvals[:-1]) > 1.0")
        _check("multinomial", n=n)
        k = pv.shape[-1]
        batch = _size_tuple(size) if size is not None else _np.broadcast_shapes(_np.shape(n), pv.shape[:-1])
        left = self._param(n) + self._host(_np.zeros(batch))
        rest = self._host(_np.ones(batch))
        counts = []
        for j in range(k - 1):
            pj = self._host(_np.broadcast_to(pv[..., j], batch).astype(_np.float64))
            q = _ufuncs.clip(pj / _ufuncs.where(rest > 0, rest, 1.0), 0.0, 1.0)
            x = binomial(self, left, q, batch).astype("float64")
            counts.append(x)
            left, rest = _core.settled(left - x, rest - pj)
        counts.append(left)
        return stack(counts, axis=-1).astype("int64")

    def zipf(self, a, size=None):
        _check("zipf", a=a)
        return zipf(self, a, size)

    def logseries(self, p, size=None):
        _check("logseries", p=p)
        return logseries(self, p, size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        _check("hypergeometric", ngood=ngood, nbad=nbad, nsample=nsample)
        return hypergeometric(self, ngood, nbad, nsample, size)

    def bytes(self, length):
        """length random bytes (a Python bytes object, from the same Philox stream)."""
        n = operator.index(length)
        return self._words(-(-n // 4)).get().tobytes()[:n]  # (the name bytes is numpy.random.bytes here)

    def permuted(self, x, axis=None, out=None):
        """x with each slice along axis shuffled independently (all elements together when axis is None)."""
        a = x if isinstance(x, _core.ndarray) else self._host(x)
        if axis is None:
            r = a.reshape(-1)[self._perm(a.size)].reshape(a.shape)
        else:
            w = self._words(2 * a.size).reshape(-1, 2).astype("uint64")
            keys = ((w[:, 0] << 32) | w[:, 1]).reshape(a.shape)
            r = take_along_axis(a, argsort(keys, axis=axis), axis=axis)
        if out is not None:
            out[...] = r
            return out
        return r

    def spawn(self, n_children):
        """n independent Generators, from the children of this one's SeedSequence (as NumPy's spawn)."""
        seq = getattr(self.bit_generator, "seed_seq", None)
        if seq is None:
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [Generator(Philox(child), self.device) for child in seq.spawn(n_children)]

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """Draws of nsample items without replacement from groups of the given sizes: one hypergeometric draw per
        group, each from what the earlier groups left (both of NumPy's methods give this distribution)."""
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        c = _np.asarray(colors.get() if isinstance(colors, _core.ndarray) else colors)
        if c.ndim != 1 or (c.size and (c.dtype.kind not in "iu" or _np.any(c < 0))):
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers not exceeding "
                             f"{_np.iinfo(_np.int64).max}.")
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > int(c.sum()):
            raise ValueError("nsample > sum(colors)")
        shape = _size_tuple(size)
        left = self._host(_np.full(shape, float(nsample)))
        rest = int(c.sum())
        counts = []
        for k in range(c.shape[0]):
            rest -= int(c[k])
            if k == c.shape[0] - 1:
                x = left
            else:
                x = hypergeometric(self, self._host(_np.full(shape, float(c[k]))), float(rest), left, shape)
                x = x.astype("float64")
            counts.append(x)
            left = left - x
        return stack(counts, axis=-1).astype("int64") if counts else self._host(_np.zeros(shape + (0,), _np.int64))

    def vonmises(self, mu, kappa, size=None):
        _check("vonmises", mu=mu, kappa=kappa)
        return vonmises(self, mu, kappa, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        """mean + z @ F with F from cov by svd (NumPy's default), eigh or cholesky, on tegula arrays."""
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        m = mean if isinstance(mean, _core.ndarray) else self._host(mean, _np.float64)
        c = cov if isinstance(cov, _core.ndarray) else self._host(cov, _np.float64)
        m, c = m.astype("float64"), c.astype("float64")
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        d = m.shape[0]
        final = _size_tuple(size) + (d,)
        x = self._normal((math.prod(final),), "float64").reshape(-1, d)
        if method == "cholesky":
            factor = linalg.cholesky(c).T
        else:
            if method == "svd":
                _, sv, vh = linalg.svd(c)
                from ._reductions import allclose

                psd = bool(allclose((vh.T * sv) @ vh, c, rtol=tol, atol=tol))
                factor = _ufuncs.sqrt(sv)[:, None] * vh
            else:
                sv, u = linalg.eigh(c)
                psd = not bool((sv < -tol).any())
                factor = (u * _ufuncs.sqrt(_ufuncs.abs(sv))).T
            if not psd and check_valid != "ignore":
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                import warnings

                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
        return (x @ factor + m).reshape(final)

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        """Integers in [low, high) ([low, high] with endpoint): 64 random bits per value scaled to the range by a
        128-bit multiply (Lemire's method without the rejection step; the bias is below range / 2**64)."""
        if _np.dtype(dtype).kind not in "iub":
            raise TypeError(f"Unsupported dtype {_np.dtype(dtype)!r} for integers")
        if high is None:
            low, high = 0, low
        lo_, hi_ = int(low), int(high)
        if endpoint:
            hi_ += 1
        if lo_ >= hi_:
            raise ValueError("low > high" if endpoint else "low >= high")
        info = _np.iinfo(dtype)
        if lo_ < info.min or hi_ - 1 > info.max:
            raise ValueError(f"low is out of bounds for {_np.dtype(dtype).name}" if lo_ < info.min else
                             f"high is out of bounds for {_np.dtype(dtype).name}")
        shape = _size_tuple(size)
        n = math.prod(shape)
        rng_ = hi_ - lo_
        w = self._words(2 * n).reshape(-1, 2).astype("uint64")
        xh, xl = w[:, 0], w[:, 1]
        if rng_ <= 0xFFFFFFFF:
            r = _np.uint64(rng_)
            # high 64 bits of (xh * 2^32 + xl) * r, r < 2^32: no term overflows 64 bits.
            off = (xh * r + ((xl * r) >> 32)) >> 32
        else:
            rh, rl = _np.uint64(rng_ >> 32), _np.uint64(rng_ & 0xFFFFFFFF)
            ll = xl * rl
            mid1 = xh * rl
            mid2 = xl * rh
            cross = (ll >> 32) + (mid1 & 0xFFFFFFFF) + (mid2 & 0xFFFFFFFF)
            off = xh * rh + (mid1 >> 32) + (mid2 >> 32) + (cross >> 32)
        v = (off.astype("int64") + lo_) if lo_ < 0 else off + _np.uint64(lo_)
        v = v.astype(_np.dtype(dtype).name)
        return v.reshape(shape) if shape != (n,) else v

    def _perm(self, n):
        """A uniformly random permutation of range(n): the argsort of 64 random bits per element."""
        w = self._words(2 * n).reshape(-1, 2).astype("uint64")
        return argsort((w[:, 0] << 32) | w[:, 1])

    def permutation(self, x, axis=0):
        if isinstance(x, (int, _np.integer)):
            return arange(int(x), dtype="int64", device=self.device)[self._perm(int(x))]
        a = self._host(x) if not isinstance(x, _core.ndarray) else x
        if a.ndim == 0:
            raise _np.exceptions.AxisError("x must be an integer or at least 1-dimensional")

        return take(a, self._perm(a.shape[axis]), axis=axis)

    def shuffle(self, x, axis=0):
        """In place, as NumPy's (x must be a tegula array)."""
        if not isinstance(x, _core.ndarray):
            raise TypeError("shuffle needs a tegula.numpy array (it permutes in place)")
        x[...] = self.permutation(x, axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """NumPy's choice. With p: draws with replacement invert the cumulative probabilities (a binary search per
        draw); draws without replacement take the k largest of log(u) / p (Efraimidis and Spirakis), which picks
        as p-weighted sequential sampling does."""
        if isinstance(a, (int, _np.integer)):
            if a < 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
            pool = self._host(_np.arange(int(a)))
        else:
            pool = a if isinstance(a, _core.ndarray) else self._host(a)
            if pool.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
        n = pool.shape[axis]
        shape = _size_tuple(size)
        k = math.prod(shape)
        if n == 0 and k:
            raise ValueError("a cannot be empty unless no samples are taken")
        w = None
        if p is not None:
            w = self._host(_choice_weights(p, n))
            if not replace and k > int(_np.count_nonzero(_np.asarray(w if not isinstance(w, _core.ndarray) else w.get()))):
                raise ValueError("Fewer non-zero entries in p than size")
        if replace:
            if w is None:
                idx = self.integers(0, n, k) if n else None
            else:
                from ._reductions import cumsum
                from ._sort import searchsorted

                cdf = cumsum(w)
                cdf = cdf / cdf[-1]
                idx = searchsorted(cdf, self._unit((k,), "float64"), side="right")
                from . import _ufuncs

                idx = _ufuncs.minimum(idx, n - 1)
        else:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace is False")
            if w is None:
                idx = self._perm(n)[:k]
            else:
                from . import _ufuncs
                from ._sort import argsort

                keys = _ufuncs.log(self._unit((n,), "float64", open_low=True)) / w  # -inf where p == 0: never chosen
                idx = argsort(-keys)[:k]
        r = take(pool, idx, axis=axis)
        return r.reshape(pool.shape[:axis] + shape + pool.shape[axis + 1:]) if shape != (k,) else r


def _choice_weights(p, n):
    """p as float64 weights of n entries, checked as NumPy checks them."""
    pv = p.get() if isinstance(p, _core.ndarray) else _np.asarray(p, dtype=_np.float64)
    if pv.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if pv.shape[0] != n:
        raise ValueError("a and p must have same size")
    if _np.any(_np.isnan(pv)) or _np.any(pv < 0):
        raise ValueError("Probabilities are not non-negative")
    if abs(float(pv.sum()) - 1.0) > math.sqrt(_np.finfo(_np.float64).eps):
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more information.")
    return pv.astype(_np.float64)


def default_rng(seed=None, *, device=None):
    """A Generator over Philox4x32-10 seeded as NumPy seeds (an int, a sequence of ints, a SeedSequence or None)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed, device)
    return Generator(Philox(seed), device)


def _float_dtype(dtype, what="random"):
    name = _np.dtype(dtype).name
    if name not in ("float32", "float64"):
        raise TypeError(f"Unsupported dtype {_np.dtype(dtype)!r} for {what}")
    return name


def _finish(r, out):
    if out is None:
        return r
    out[...] = r
    return out

