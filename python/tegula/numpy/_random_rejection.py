"""The distributions of tegula.numpy.random drawn by rejection (gamma and those built on it, Poisson, binomial).
Each round draws fresh uniforms or normals for the values still pending, accepts some in one fused expression, and
keeps the rest for the next round; a round's only host sync is the count of values left, and the expected number
of rounds is small (about 1.05 for gamma, 1.2 for the transformed-rejection Poisson and binomial samplers). Every
value comes from the generator's Philox stream, on the GPU or on the CPU interpreter alike.

- gamma: Marsaglia and Tsang (2000); shape k < 1 as gamma(k + 1) * u ** (1 / k).
- Poisson: multiplication of uniforms for lam < 10; Hormann's PTRS (1993) from 10 up.
- binomial: inversion (a search from 0) for n min(p, q) < 10; Hormann's BTRS (1993) from 10 up.
log Gamma(x) for the acceptance tests is the Stirling series with the argument shifted above 7."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from . import _ufuncs
from ._array_api import arccos
from ._creation import ascontiguousarray, full
from ._indexing import nonzero_flat
from ._manipulation import broadcast_to
from ._random_checks import _size_tuple

_STIRLING = (8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
             8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
             1.796443723688307e-01, -1.39243221690590e+00)


def loggam(x):
    """log Gamma(x) for x >= 1 (a tegula array): the Stirling series at x shifted to 7 or more, less the logs of
    the factors skipped."""
    shift = _ufuncs.where(x < 7.0, _ufuncs.floor(7.0 - x), 0.0)
    x0 = x + shift
    x2 = 1.0 / (x0 * x0)
    s = _STIRLING[9]
    for c in reversed(_STIRLING[:9]):
        s = s * x2 + c
    gl = s / x0 + 0.5 * math.log(2 * math.pi) + (x0 - 0.5) * _ufuncs.log(x0) - x0
    for j in range(7):
        gl = gl - _ufuncs.where(j < shift, _ufuncs.log(x + j), 0.0)
    return _ufuncs.where((x == 1.0) | (x == 2.0), 0.0, gl)


def _params(gen, values):
    """Host or device parameters as float64 tegula arrays (host values copied to gen's device). The samplers here
    take checked parameters: the Generator methods check them (tegula/numpy/_random_checks.py)."""
    dev = _core.device_id(gen.device)
    return [_core.as_array(v if isinstance(v, _core.ndarray) else _np.asarray(v, _np.float64), dev, "float64")
            for v in values]


def _flat(params, shape):
    """Each parameter broadcast to `shape` and flattened (contiguous, so rounds can gather the pending ones)."""
    return [ascontiguousarray(broadcast_to(p, shape)).reshape(-1) for p in params]


def _prepared(gen, values, size):
    """(each parameter (host or device values, as _params takes them) broadcast to the draw's shape and flattened,
    that shape, the number of draws); the flat parameters are None when there are no draws."""
    arrays = _params(gen, values)
    shape = _size_tuple(size) if size is not None else _np.broadcast_shapes(*[a.shape for a in arrays])
    n = math.prod(shape)
    return (_flat(arrays, shape) if n else None), shape, n


def _no_draws(gen, shape):
    return gen._host(_np.zeros(shape, dtype=_np.int64))


def _rounds(device, first, params, draw):
    """Rejection rounds: draw(params) returns (accepted mask, values) for parameter arrays of any one length m;
    returns the float64 results for the n values of `params`, each from the first round that accepted it. `first`
    is what every result starts from.
    The first round draws for all n values. The values it rejects (a fraction q, the sampler's rejection rate) are
    gathered once, and the later rounds draw for that subset and keep the newly accepted values by a mask. So each
    call runs its kernels at two sizes only, n and the subset's (gathering the pending values anew each round would
    shrink the arrays round by round, and on the GPU every new size class compiles the round's kernels again), and
    its work is about n + r q n for r later rounds (a value is still pending after them with probability q^r).
    Each round's one sync is whether any value is still pending."""
    ok, values = _core.settled(*draw(params))
    out = _core.settled(_ufuncs.where(ok, values, first))
    idx = nonzero_flat(~ok)
    m = idx.shape[0]
    if m == 0:
        return out
    sub = _subset(idx, params)
    got = full((m,), first, "float64", device=device)
    pending = full((m,), True, "bool", device=device)
    while True:
        ok, values = _core.settled(*draw(sub))
        got, pending = _core.settled(_ufuncs.where(pending & ok, values, got), pending & ~ok)
        if not bool(pending.any()):
            break
    out[idx] = got
    return out


def _subset(idx, arrays):
    """Each array's values at the indices idx, computed now (the rounds then read them as they lie)."""
    return _core.settled(*[x[idx] for x in arrays])


def standard_gamma(gen, shape_k, size, dtype="float64"):
    (k,) = _params(gen, (shape_k,))
    shape = _size_tuple(size) if size is not None else k.shape
    n = math.prod(shape)
    (kf,) = _flat((k,), shape)
    boost = kf < 1.0
    alpha = _ufuncs.where(boost, kf + 1.0, kf)
    d = alpha - 1.0 / 3.0
    c = 1.0 / _ufuncs.sqrt(9.0 * d)
    d, c = _core.settled(d, c)  # computed once, not again in every round

    def draw(params):
        dd, cc = params
        m = dd.shape[0]
        x = gen._normal((m,), "float64")
        u = gen._unit((m,), "float64", open_low=True)
        v = (1.0 + cc * x) ** 3
        ok = (v > 0.0) & (_ufuncs.log(u) < 0.5 * x * x + dd - dd * v + dd * _ufuncs.log(_ufuncs.where(v > 0.0, v, 1.0)))
        return ok | (dd != dd), dd * v  # a NaN shape (NumPy lets it through) gives NaN at once

    g = _rounds(gen.device, 0.0, (d, c), draw) if n else gen._host(_np.zeros(0))
    if n:
        u = gen._unit((n,), "float64", open_low=True)
        g = _ufuncs.where(boost, g * _ufuncs.exp(_ufuncs.log(u) / _ufuncs.where(kf > 0, kf, 1.0)), g)
        g = _ufuncs.where(kf == 0, 0.0, g)
    r = g.reshape(shape)
    return r.astype(dtype) if dtype != "float64" else r


def poisson(gen, lam, size):
    flat, shape, n = _prepared(gen, (lam,), size)
    if n == 0:
        return _no_draws(gen, shape)
    (lf,) = flat
    small = ~(lf >= 10.0)  # NaN lam (from noncentral_chisquare's NaN parameters) ends at once in the product loop
    limit = _ufuncs.exp(-lf)
    slam = _ufuncs.sqrt(lf)
    loglam = _ufuncs.log(_ufuncs.where(lf > 0, lf, 1.0))
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)

    def ptrs(params):
        lam_, a_, b_, ia, vr_, ll = params
        m = lam_.shape[0]
        u = gen._unit((m,), "float64") - 0.5
        v = gen._unit((m,), "float64", open_low=True)
        us = 0.5 - _ufuncs.abs(u)
        k = _ufuncs.floor((2.0 * a_ / us + b_) * u + lam_ + 0.43)
        quick = (us >= 0.07) & (v <= vr_)
        kk = _ufuncs.where(k >= 0, k, 0.0)
        slow = (k >= 0) & ~((us < 0.013) & (v > us)) & (
            _ufuncs.log(v) + _ufuncs.log(ia) - _ufuncs.log(a_ / (us * us) + b_) <= -lam_ + kk * ll - loggam(kk + 1.0))
        return quick | slow, k


    out = gen._host(_np.zeros(n))
    ib = nonzero_flat(~small)
    if ib.shape[0]:
        sub = _subset(ib, (lf, a, b, invalpha, vr, loglam))
        out[ib] = _rounds(gen.device, 0.0, sub, ptrs)
    # lam < 10: the number of uniforms whose running product stays above exp(-lam), counted in rounds
    idx = nonzero_flat(small)
    if idx.shape[0]:
        count = gen._host(_np.zeros(idx.shape[0]))
        prod = gen._unit((idx.shape[0],), "float64", open_low=True)
        lim = limit[idx]
        live = prod > lim
        while bool(live.any()):
            count = count + _ufuncs.where(live, 1.0, 0.0)
            prod = prod * _ufuncs.where(live, gen._unit((idx.shape[0],), "float64", open_low=True), 1.0)
            count, prod, live = _core.settled(count, prod, live & (prod > lim))
        out[idx] = count
    return out.astype("int64").reshape(shape)


def binomial(gen, n_trials, p, size):
    flat, shape, count = _prepared(gen, (n_trials, p), size)
    if count == 0:
        return _no_draws(gen, shape)
    nf, pf = flat
    nf = _ufuncs.floor(nf)  # NumPy takes the integer part of n
    flip = pf > 0.5
    q_small = _ufuncs.where(flip, 1.0 - pf, pf)  # draw with min(p, q), then n - k where p was flipped
    big = nf * q_small >= 10.0
    qq = 1.0 - q_small
    spq = _ufuncs.sqrt(nf * q_small * qq)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * q_small
    c = nf * q_small + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = _ufuncs.log(_ufuncs.where(big, q_small / qq, 1.0))
    m = _ufuncs.floor((nf + 1.0) * q_small)
    h = loggam(m + 1.0) + loggam(nf - m + 1.0)

    def btrs(params):
        n_, a_, b_, c_, vr_, al, lp, m_, h_ = params
        k_n = n_.shape[0]
        u = gen._unit((k_n,), "float64") - 0.5
        v = gen._unit((k_n,), "float64", open_low=True)
        us = 0.5 - _ufuncs.abs(u)
        k = _ufuncs.floor((2.0 * a_ / us + b_) * u + c_)
        inside = (k >= 0) & (k <= n_)
        kk = _ufuncs.where(inside, k, 0.0)
        quick = (us >= 0.07) & (v <= vr_)
        slow = _ufuncs.log(v * al / (a_ / (us * us) + b_)) <= h_ - loggam(kk + 1.0) - loggam(n_ - kk + 1.0) + (kk - m_) * lp
        return inside & (quick | slow), k


    out = gen._host(_np.zeros(count))
    ib = nonzero_flat(big)
    if ib.shape[0]:
        sub = _subset(ib, (nf, a, b, c, vr, alpha, lpq, m, h))
        out[ib] = _rounds(gen.device, 0.0, sub, btrs)
    isml = nonzero_flat(~big)
    if isml.shape[0]:  # inversion: walk k up from 0 while the uniform exceeds the CDF
        n_, p_ = nf[isml], q_small[isml]
        q_ = 1.0 - p_
        u = gen._unit((isml.shape[0],), "float64")
        k = gen._host(_np.zeros(isml.shape[0]))
        pk = _ufuncs.where(p_ < 1.0, _ufuncs.exp(n_ * _ufuncs.log1p(-_ufuncs.where(p_ < 1.0, p_, 0.0))), 0.0)  # P(K = 0) = q^n
        cdf = pk
        live = (u > cdf) & (k < n_)
        while bool(live.any()):
            pk = pk * (n_ - k) / (k + 1.0) * (p_ / _ufuncs.where(q_ > 0, q_, 1.0))
            k = k + _ufuncs.where(live, 1.0, 0.0)
            cdf = cdf + _ufuncs.where(live, pk, 0.0)
            pk, k, cdf, live = _core.settled(pk, k, cdf, live & (u > cdf) & (k < n_))
        out[isml] = k
    out = _ufuncs.where(flip, nf - out, out)
    return out.astype("int64").reshape(shape)


def vonmises(gen, mu, kappa, size):
    """Best and Fisher's rejection on the wrapped Cauchy envelope (as NumPy's), kappa < 1e-8 uniform on the
    circle, kappa > 1e6 the wrapped normal; results in [-pi, pi]."""
    flat, shape, n = _prepared(gen, (mu, kappa), size)
    if n == 0:
        return gen._host(_np.zeros(shape))
    mf, kf = flat
    kk = _ufuncs.where(kf > 0, kf, 1.0)
    r = 1.0 + _ufuncs.sqrt(1.0 + 4.0 * kk * kk)
    rho = (r - _ufuncs.sqrt(2.0 * r)) / (2.0 * kk)
    s = _ufuncs.where(kf < 1e-5, 1.0 / kk + kk, (1.0 + rho * rho) / (2.0 * rho))
    s, kk = _core.settled(s, kk)

    def best_fisher(params):
        s_, k_ = params
        m = s_.shape[0]
        u = gen._unit((m,), "float64")
        z = _ufuncs.cos(math.pi * u)
        w = (1.0 + s_ * z) / (s_ + z)
        y = k_ * (s_ - w)
        v = gen._unit((m,), "float64", open_low=True)
        ok = (y * (2.0 - y) - v >= 0) | ((y > 0) & (_ufuncs.log(_ufuncs.where(y > 0, y, 1.0) / v) + 1.0 - y >= 0))
        return ok, w

    w = _rounds(gen.device, 0.0, (s, kk), best_fisher)
    half = gen._unit((n,), "float64")

    angle = arccos(_ufuncs.clip(w, -1.0, 1.0))
    def wrap(t):  # into [-pi, pi] as NumPy: |t| + pi modulo 2 pi, less pi, negated for negative t
        m_ = _ufuncs.fmod(_ufuncs.abs(t) + math.pi, 2.0 * math.pi) - math.pi
        return _ufuncs.where(t < 0, -m_, m_)

    wrapped = wrap(_ufuncs.where(half < 0.5, -angle, angle) + mf)
    uniform = math.pi * (2.0 * gen._unit((n,), "float64") - 1.0) + mf * 0.0
    normal = wrap(mf + _ufuncs.sqrt(1.0 / kk) * gen._normal((n,), "float64"))
    out = _ufuncs.where(kf < 1e-8, uniform, _ufuncs.where(kf > 1e6, normal, _ufuncs.where(kf != kf, kf, wrapped)))
    return out.reshape(shape)


def zipf(gen, a, size):
    """Devroye's rejection for the Zipf (zeta) distribution, as NumPy's; values past int64's range are redrawn."""
    flat, shape, n = _prepared(gen, (a,), size)
    if n == 0:
        return _no_draws(gen, shape)
    (af,) = flat
    am1 = af - 1.0
    b = _ufuncs.exp2(am1)
    am1, b = _core.settled(am1, b)

    def devroye(params):
        am, bb = params
        m = am.shape[0]
        u = 1.0 - gen._unit((m,), "float64")  # in (0, 1]
        v = gen._unit((m,), "float64")
        x = _ufuncs.floor(_ufuncs.exp(-_ufuncs.log(u) / am))
        fits = (x >= 1.0) & (x <= 9.2e18)
        xs = _ufuncs.where(fits, x, 1.0)
        t = _ufuncs.exp(am * _ufuncs.log1p(1.0 / xs))
        return fits & (v * xs * (t - 1.0) / (bb - 1.0) <= t / bb), xs

    return _rounds(gen.device, 1.0, (am1, b), devroye).astype("int64").reshape(shape)


def logseries(gen, p, size):
    """Kemp's second algorithm for the logarithmic series distribution, as NumPy's."""
    flat, shape, n = _prepared(gen, (p,), size)
    if n == 0:
        return _no_draws(gen, shape)
    (pf,) = flat
    r = _core.settled(_ufuncs.log1p(-pf))

    def kemp(params):
        p_, r_ = params
        m = p_.shape[0]
        v = gen._unit((m,), "float64")
        u = gen._unit((m,), "float64")
        q = -_ufuncs.expm1(r_ * u)
        q_ok = _ufuncs.where((q > 0) & (q < 1), q, 0.5)
        deep = _ufuncs.floor(1.0 + _ufuncs.log(_ufuncs.where(v > 0, v, 1.0)) / _ufuncs.log(q_ok))
        one = v >= p_
        deep_ok = (v <= q * q) & (deep >= 1.0) & (v > 0)
        value = _ufuncs.where(one, 1.0, _ufuncs.where(v <= q * q, deep, _ufuncs.where(v >= q, 1.0, 2.0)))
        return one | deep_ok | (v > q * q), value

    return _rounds(gen.device, 1.0, (pf, r), kemp).astype("int64").reshape(shape)


def hypergeometric(gen, ngood, nbad, nsample, size):
    """Good items in nsample drawn without replacement from ngood good and nbad bad ones: one Bernoulli draw per
    item taken, with the odds of what is left (min(nsample, total - nsample) rounds, by the symmetry NumPy uses)."""
    flat, shape, n = _prepared(gen, (ngood, nbad, nsample), size)
    if n == 0:
        return _no_draws(gen, shape)
    gf, bf, sf = flat
    total = gf + bf
    flip = sf > total * 0.5
    draws = _ufuncs.where(flip, total - sf, sf)  # draw the smaller side, take the complement after
    rounds = int(draws.max()) if n else 0
    good_left, left, got = gf, total, gf * 0.0
    for k in range(rounds):
        active = draws > k
        u = gen._unit((n,), "float64")
        hit = active & (u * left < good_left)
        got, good_left, left = _core.settled(got + _ufuncs.where(hit, 1.0, 0.0), good_left - _ufuncs.where(hit, 1.0, 0.0),
                                             left - _ufuncs.where(active, 1.0, 0.0))
    return _ufuncs.where(flip, gf - got, got).astype("int64").reshape(shape)
