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
