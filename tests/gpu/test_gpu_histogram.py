"""histogram/bincount/digitize on the GPU at sizes spanning many blocks: the one-hot path (<= 32 bins) and the
atomic path, against NumPy exactly."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(9)


@pytest.mark.parametrize("bins", [10, 32, 100, 4096])
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
