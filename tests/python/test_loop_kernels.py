"""Loops in the NumPy layer that carry arrays from round to round (rejection samplers, Euclid's steps, doubling
scans) settle their state each round, so every round reuses one cached kernel: the number of kernels built does
not grow with the number of rounds (a pending chain would compile a new, longer kernel per round on the GPU)."""
import warnings

import numpy as np
import pytest

import tegula.numpy as tnp
from tegula import _tegula
from tegula.numpy import random as R


def _builds(fn):
    before = _tegula.array_stats()["builds"]
    fn()
    return _tegula.array_stats()["builds"] - before


CASES = {
    # (a warm-up needing few rounds, the same call at the same size needing many more rounds)
    "binomial inversion": (lambda: R.default_rng(1).binomial(20, 0.01, 4096).get(),
                           lambda: R.default_rng(2).binomial(60, 0.15, 4096).get()),
    "poisson small lam": (lambda: R.default_rng(1).poisson(0.5, 4096).get(),
                          lambda: R.default_rng(2).poisson(9.0, 4096).get()),
    "hypergeometric": (lambda: R.default_rng(1).hypergeometric(3, 5, 2, 64).get(),
                       lambda: R.default_rng(2).hypergeometric(30, 50, 25, 64).get()),
    "gcd": (lambda: tnp.gcd(tnp.asarray([6, 9]), tnp.asarray([4, 6])).get(),
            lambda: tnp.gcd(tnp.asarray([832040, 1346269]), tnp.asarray([514229, 832040])).get()),
    "complex cumprod": (lambda: tnp.cumprod(tnp.asarray(np.ones(4, np.complex128))).get(),
                        lambda: tnp.cumprod(tnp.asarray(np.ones(1000, np.complex128))).get()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_rounds_reuse_one_kernel(name):
    warm, many = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warm()
        assert _builds(many) <= 2, name


def test_small_one_row_arrays_share_three_tile_sizes():
    """A 1-D (or contiguous) array's kernel tile is 256, 1024 or 4096 wide (8192 for a reduction's longest rows),
    not a power of two per size: the same two expressions at 19 sizes up to 4097 build a dozen kernels at most
    (each tile width exact or masked), where a tile per power of two built about 35."""
    sizes = [1, 2, 3, 5, 8, 13, 40, 100, 200, 256, 300, 500, 700, 1000, 1500, 2048, 3000, 4096, 4097]

    def run():
        for n in sizes:
            x = tnp.asarray(np.arange(n, dtype=np.float32))
            np.testing.assert_allclose((x * 3.25 - 0.5).get(), np.arange(n, dtype=np.float32) * 3.25 - 0.5)
            assert float(tnp.max(x * 0.75 + 2.0)) == pytest.approx((n - 1) * 0.75 + 2.0)

    assert _builds(run) <= 12


def test_a_solve_over_growing_lengths_shares_the_tile_sizes():
    """trisolv's x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]: one kernel per step (the dot with its epilogue), its
    row tile one of the size classes, so 2000 steps build a handful of kernels (a power of two per length built
    about 35; each a ~100 ms NVRTC compile on the GPU's first call)."""
    n = 2000
    rng = np.random.default_rng(5)
    Lh = np.tril(rng.random((n, n))) + n * np.eye(n)
    bh = rng.random(n)
    L, b, x = tnp.asarray(Lh), tnp.asarray(bh), tnp.zeros(n)

    def run():
        for i in range(n):
            x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]

    assert _builds(run) <= 14
    xh = np.zeros(n)
    for i in range(n):
        xh[i] = (bh[i] - Lh[i, :i] @ xh[:i]) / Lh[i, i]
    np.testing.assert_allclose(x.get(), xh, rtol=1e-12)


def test_a_strided_view_builds_one_kernel_whatever_its_address():
    """durbin's np.flip(r[:k]): a negative-stride view whose first element is 16-byte aligned at every other k. Only
    contiguous rows are read by vectors, so only they are specialised by alignment: one kernel for every k."""
    rng = np.random.default_rng(7)
    h = rng.random(64)
    r = tnp.asarray(h)
    (tnp.flip(r[:3]) * 2.5 + 1.0).get()  # its first element 16-byte aligned (r[2])

    def run():
        for k in range(2, 40):
            np.testing.assert_allclose((tnp.flip(r[:k]) * 2.5 + 1.0).get(), np.flip(h[:k]) * 2.5 + 1.0)

    assert _builds(run) == 0


def test_a_few_rows_of_growing_width_share_the_tile_sizes():
    """stockham_fft's twiddles, exp(c * ii[:, :w] * jj[:, :w]) for w = 1, 2, 4, ..., 1024: two rows that fit one
    tile take the one-row size classes (256, 1024), not a tile per power of two of the width (11 kernels). Five
    remain: one column, widths 2-128 (masked), exactly 256 (no mask), 512, and 1024 (the full rows: one run)."""
    ii, jj = np.mgrid[0:2, 0:1024]
    a, b = tnp.asarray(ii.astype(np.float64)), tnp.asarray(jj.astype(np.float64))

    def run():
        for i in range(11):
            w = 2 ** i
            np.testing.assert_allclose((a[:, :w] * b[:, :w] * 0.5 - 1.0).get(), ii[:, :w] * jj[:, :w] * 0.5 - 1.0)

    assert _builds(run) <= 5
