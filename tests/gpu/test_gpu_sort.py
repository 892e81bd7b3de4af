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


@pytest.mark.parametrize("shape,axis,dtype", [((1 << 24,), 0, "float32"), ((3, 1 << 20), 1, "int32"),
                                              ((1 << 20, 2), 0, "float64"), ((1 << 16,), 0, "float16"),
                                              ((1 << 22,), 0, "int8"), ((5 << 20,), 0, "float64")])
def test_long_cumsum(shape, axis, dtype):
    """cumsum of few long rows: CUB's single-pass scan for one row, the chunked scan (tegula.numpy._scan) for a few."""
    x = (RNG.standard_normal(shape) * 10).astype(dtype)
    got = tnp.cumsum(tnp.asarray(x, device="cuda"), axis=axis).get()
    exact = np.cumsum(x.astype(np.float64), axis=axis)
    if np.dtype(dtype).kind == "i":
        np.testing.assert_array_equal(got, np.cumsum(x, axis=axis))
    else:
        scale = np.cumsum(np.abs(x.astype(np.float64)), axis=axis) + 1
        assert np.max(np.abs(got - exact) / scale) < {"float16": 3e-3, "float32": 2e-6, "float64": 1e-12}[dtype]
    y = (1 + RNG.standard_normal(1 << 20) * 1e-4)
    np.testing.assert_allclose(tnp.cumprod(tnp.asarray(y, device="cuda")).get(), np.cumprod(y), rtol=1e-9)


def test_cub_is_used_and_portions():
    """CUB's onesweep sort runs on the GPU (CCCL headers found), including inputs over 2^28 keys (two portions)."""
    from tegula.numpy import _cub

    a = tnp.asarray(np.arange(4.0), device="cuda")
    assert _cub.ready(a), "CUB could not be compiled here: the tile radix sort ran instead"
    n = (1 << 28) + 12345
    p = tnp.random.default_rng(3, device="cuda").permutation(n).astype("uint32")
    s = tnp.sort(p)
    assert bool((s == tnp.arange(n, dtype="uint32", device="cuda")).all())
    x = np.array([0.0, -0.0, np.nan, -np.nan, -1.0, np.inf, -np.inf, 2.0] * 1000, dtype=np.float32)
    got = tnp.sort(tnp.asarray(x, device="cuda")).get()
    np.testing.assert_array_equal(got, np.sort(x))
    assert np.signbit(got[got == 0]).sum() == np.signbit(x[x == 0]).sum()
