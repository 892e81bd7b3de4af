"""histogram/bincount/digitize on the GPU at sizes spanning many blocks, against NumPy exactly: bins counted in shared
memory (up to 6144) and in global memory (more), unweighted, with float weights and with (negative) integer
weights."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(9)


@pytest.mark.parametrize("bins", [10, 32, 100, 4096, 6144, 6145, 20000])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_histogram_large(bins, dtype):
    x = (RNG.standard_normal(1 << 22) * 100).astype(dtype)
    a = tnp.asarray(x, device="cuda")
    h, e = tnp.histogram(a, bins=bins)
    h0, e0 = np.histogram(x, bins=bins)
    np.testing.assert_array_equal(h.get(), h0)
    np.testing.assert_array_equal(e.get(), e0)
    w = RNG.random(x.shape)
    np.testing.assert_allclose(tnp.histogram(a, bins=bins, weights=tnp.asarray(w, device="cuda"))[0].get(),
                               np.histogram(x, bins=bins, weights=w)[0], rtol=1e-9)


def test_bincount_digitize_2d():
    x = RNG.integers(0, 1000, 1 << 21)
    np.testing.assert_array_equal(tnp.bincount(tnp.asarray(x, device="cuda")).get(), np.bincount(x))
    v = RNG.standard_normal(1 << 20)
    b = np.linspace(-2, 2, 33)
    np.testing.assert_array_equal(tnp.digitize(tnp.asarray(v, device="cuda"), tnp.asarray(b, device="cuda")).get(),
                                  np.digitize(v, b))
    y = RNG.standard_normal(1 << 20)
    h = tnp.histogram2d(tnp.asarray(v, device="cuda"), tnp.asarray(y, device="cuda"), bins=(16, 24))[0].get()
    np.testing.assert_array_equal(h, np.histogram2d(v, y, bins=(16, 24))[0])


def test_bincount_integer_weights_and_out_of_range():
    x = RNG.integers(0, 7000, 1 << 20)  # past the shared-memory bins
    w = RNG.integers(-50, 50, x.shape)
    np.testing.assert_array_equal(tnp.bincount(tnp.asarray(x, device="cuda"), weights=tnp.asarray(w, device="cuda")).get(),
                                  np.bincount(x, weights=w))
    small = RNG.integers(0, 5, 1 << 20)
    wi = RNG.integers(-3, 3, small.shape).astype(np.int32)
    h = tnp.histogram(tnp.asarray(small, device="cuda"), bins=3, range=(1, 3), weights=tnp.asarray(wi, device="cuda"))
    h0 = np.histogram(small, bins=3, range=(1, 3), weights=wi)
    np.testing.assert_array_equal(h[0].get(), h0[0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_histogram_equal_bins_edges_nan_and_outside(dtype):
    """The one-pass equal-bins path: values exactly on edges (the last edge closes the last bin), outside the range,
    and NaN (skipped, as NumPy's range= skips them) give NumPy's counts."""
    edges = np.linspace(-3, 7, 41)
    x = np.concatenate([edges, edges + 1e-6, edges - 1e-6, RNG.uniform(-5, 9, 1 << 20)]).astype(dtype)
    if dtype.startswith("float"):
        x[::97] = np.nan
    np.random.default_rng(2).shuffle(x)
    h = tnp.histogram(tnp.asarray(x, device="cuda"), bins=40, range=(-3, 7))[0].get()
    np.testing.assert_array_equal(h, np.histogram(x, bins=40, range=(-3, 7))[0])
