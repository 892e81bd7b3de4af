"""tegula.numpy.random on the GPU: the same seed gives the same bits as the CPU interpreter (counter-based
Philox, one IR for both), and the distributions hold at large sizes."""
import numpy as np

import tegula.numpy as tnp
from tegula.numpy import random as R


def test_same_bits_on_the_gpu_and_the_cpu():
    for seed in (0, 99):
        gpu = R.default_rng(seed, device="cuda")
        cpu = R.default_rng(seed, device="cpu")
        np.testing.assert_array_equal(gpu.bit_generator.words(9000).get(), cpu.bit_generator.words(9000).get())
        np.testing.assert_array_equal(gpu.random(5000).get(), cpu.random(5000).get())
        np.testing.assert_array_equal(gpu.integers(-7, 2**40, 3000).get(), cpu.integers(-7, 2**40, 3000).get())
        np.testing.assert_allclose(gpu.normal(size=4001).get(), cpu.normal(size=4001).get(), rtol=1e-12, atol=1e-12)


def test_large_draws():
    g = R.default_rng(3, device="cuda")
    x = g.random(1 << 26, dtype="float32")
    assert x.device == tnp.Device("cuda", 0)
    h = x.get()
    assert h.min() >= 0 and h.max() < 1 and abs(h.mean() - 0.5) < 1e-3
    z = g.standard_normal(1 << 24).get()
    assert abs(z.mean()) < 2e-3 and abs(z.std() - 1) < 2e-3


def test_every_distribution_on_the_gpu():
    """Each distribution drawn on the GPU (rejection rounds included) lands on the GPU with NumPy's dtype and
    quantiles within sampling error of NumPy's own draws."""
    n = 1 << 20
    qs = [0.05, 0.25, 0.5, 0.75, 0.95]
    for name, args in [("laplace", (1.0, 2.0)), ("geometric", (0.3,)), ("standard_gamma", (0.3,)),
                       ("gamma", (2.0, 3.0)), ("beta", (0.5, 2.0)), ("poisson", (3.0,)), ("poisson", (500.0,)),
                       ("binomial", (20, 0.1)), ("binomial", (1000, 0.4)), ("standard_t", (5.0,))]:
        x = getattr(R.default_rng(21, device="cuda"), name)(*args, size=n)
        assert x.device == tnp.Device("cuda", 0), name
        got, want = x.get(), getattr(np.random.default_rng(21), name)(*args, size=n)
        assert got.dtype == want.dtype, name
        qa, qb = np.quantile(got, qs), np.quantile(want, qs)
        assert np.max(np.abs(qa - qb) / (np.abs(qb) + 0.05)) < 0.03, (name, qa, qb)
    p = np.array([0.1, 0.2, 0.7])
    c = R.default_rng(5, device="cuda").choice(3, size=n, p=p).get()
    assert np.max(np.abs(np.bincount(c, minlength=3) / n - p)) < 3e-3
    mv = R.default_rng(6, device="cuda").multivariate_normal([1.0, -1.0], [[2.0, 0.5], [0.5, 1.0]], n).get()
    np.testing.assert_allclose(np.cov(mv.T), [[2.0, 0.5], [0.5, 1.0]], atol=0.02)
