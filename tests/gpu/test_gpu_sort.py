"""The radix sort (tile kernels) on the GPU: sort/argsort/unique/searchsorted/median at sizes that span many blocks,
against NumPy's stable sort."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint16", "float16"])
def test_sort_large(dtype):
    x = (RNG.standard_normal(1 << 20) * 1000).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[::1001] = np.nan
    a = tnp.asarray(x, device="cuda")
    np.testing.assert_array_equal(tnp.sort(a).get(), np.sort(x))
    np.testing.assert_array_equal(tnp.argsort(a).get(), np.argsort(x, kind="stable"))


def test_rows_unique_search_median():
    x = RNG.integers(0, 50, (300, 777)).astype(np.float32)
    a = tnp.asarray(x, device="cuda")
    np.testing.assert_array_equal(tnp.argsort(a, axis=1).get(), np.argsort(x, axis=1, kind="stable"))
    u, c = tnp.unique(a, return_counts=True)
    u0, c0 = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(u.get(), u0)
    np.testing.assert_array_equal(c.get(), c0)
    v = np.sort(RNG.standard_normal(100000))
    q = RNG.standard_normal(5000)
    np.testing.assert_array_equal(tnp.searchsorted(tnp.asarray(v, device="cuda"), tnp.asarray(q, device="cuda")).get(),
                                  np.searchsorted(v, q))
    np.testing.assert_allclose(tnp.median(a, axis=0).get(), np.median(x, axis=0))
    p = tnp.random.default_rng(1, device="cuda").permutation(100000).get()
    np.testing.assert_array_equal(np.sort(p), np.arange(100000))
