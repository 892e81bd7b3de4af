"""Sorting and searching (a radix sort in tile kernels, run here on the CPU interpreter exactly as on the GPU):
sort/argsort against NumPy's stable sort for every dtype (NaN, -0.0, infinities), axes, descending; searchsorted;
unique and the array API's unique_*; median/quantile/percentile and their nan versions; repeat with counts, pad's
median mode; Generator.permutation/shuffle/choice; and the sort kernels compile for the GPU (NVRTC)."""
import numpy as np
import pytest

import tegula.core as tc
import tegula.numpy as tnp
from numpy_util import assert_same_error
from tegula.numpy import _sort as S
from tegula.numpy import _histogram as H
from tegula.numpy import _scan as L

RNG = np.random.default_rng(7)
DTYPES = ["float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8",
          "bool"]


def _data(dtype, n=2500):
    x = (RNG.standard_normal(n) * 50).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[::97] = np.nan
        x[5:9] = [-0.0, 0.0, np.inf, -np.inf]
    return x


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_and_argsort_every_dtype(dtype):
    x = _data(dtype)
    a = tnp.asarray(x)
    np.testing.assert_array_equal(tnp.sort(a).get(), np.sort(x))
    np.testing.assert_array_equal(tnp.argsort(a).get(), np.argsort(x, kind="stable"))
    if np.dtype(dtype).kind in "iu":  # stable descending: larger first, ties in index order (exact, in Python)
        want = sorted(range(x.size), key=lambda i: (-int(x[i]), i))
        np.testing.assert_array_equal(tnp.argsort(a, descending=True).get(), want)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_axes(axis):
    x = RNG.integers(0, 6, (9, 130)).astype(np.float32)
    a = tnp.asarray(x)
    np.testing.assert_array_equal(tnp.sort(a, axis=axis).get(), np.sort(x, axis=axis))
    np.testing.assert_array_equal(tnp.argsort(a, axis=axis).get(), np.argsort(x, axis=axis, kind="stable"))


def test_searchsorted():
    v = np.sort(np.concatenate([RNG.standard_normal(500), [np.nan, np.inf]]))
    q = np.concatenate([RNG.standard_normal(60), [np.nan, -np.inf, np.inf, v[10]]])
    for side in ("left", "right"):
        np.testing.assert_array_equal(tnp.searchsorted(tnp.asarray(v), tnp.asarray(q), side=side).get(),
                                      np.searchsorted(v, q, side=side))
    perm = RNG.permutation(500)
    np.testing.assert_array_equal(tnp.searchsorted(tnp.asarray(v[:500][perm]), tnp.asarray(q), sorter=tnp.asarray(np.argsort(perm))).get(),
                                  np.searchsorted(v[:500], q))
    assert int(tnp.searchsorted(tnp.asarray(v), 0.0)) == np.searchsorted(v, 0.0)
    with pytest.raises(ValueError, match="side must be"):
        tnp.searchsorted(tnp.asarray(v), 0.0, side="middle")


def test_unique():
    y = RNG.integers(0, 30, (20, 25))
    got = tnp.unique(tnp.asarray(y), return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, np.unique(y, return_index=True, return_inverse=True, return_counts=True)):
        np.testing.assert_array_equal(g.get(), w)
    f = np.array([2.0, np.nan, 1.0, np.nan, 2.0])
    np.testing.assert_array_equal(tnp.unique(tnp.asarray(f)).get(), np.unique(f))
    r = tnp.unique_all(tnp.asarray(y))
    w = np.unique_all(y)
    for k in ("values", "indices", "inverse_indices", "counts"):
        np.testing.assert_array_equal(getattr(r, k).get(), getattr(w, k))
    np.testing.assert_array_equal(np.sort(tnp.unique_values(tnp.asarray(y)).get()), np.sort(np.unique_values(y)))


@pytest.mark.parametrize("a", [
    np.array([[1.0, np.nan], [1.0, np.nan], [0.0, 2.0], [1.0, 0.0]]),  # NaN rows stay apart, as in NumPy
    np.array([[3, 1, 3], [2, 2, 2]]), RNG.integers(0, 3, (50, 3)), RNG.integers(0, 2, (4, 6, 5)),
    np.zeros((0, 3)), np.zeros((3, 0)), np.zeros((2, 3, 0)), np.array([[-0.0, 1.0], [0.0, 1.0]]),
    np.array([True, False, True])], ids=lambda a: f"{a.dtype}{a.shape}")
def test_unique_along_an_axis(a):
    for axis in range(-a.ndim, a.ndim):
        want = np.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
        got = tnp.unique(tnp.asarray(a), axis=axis, return_index=True, return_inverse=True, return_counts=True)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (axis, g.shape, w.shape)
            np.testing.assert_array_equal(g.get(), w)
        np.testing.assert_array_equal(tnp.unique(tnp.asarray(a), axis=axis).get(), np.unique(a, axis=axis))


def test_unique_and_sort_bad_input():
    with pytest.raises(np.exceptions.AxisError, match="axis 1"):  # NumPy's class catches tegula's
        tnp.unique(tnp.ones(3), axis=1)
    assert tnp.exceptions.AxisError is tnp.AxisError and issubclass(tnp.AxisError, (ValueError, IndexError))
    with pytest.raises(TypeError):
        tnp.unique(tnp.ones(3), axis=1.5)
    with pytest.raises(ValueError, match="sort kind must be one of"):
        tnp.sort(tnp.ones(3), kind="bogus")
    with pytest.raises(ValueError, match="sort kind must be one of"):
        tnp.argsort(tnp.ones(3), kind="")
    with pytest.raises(TypeError, match="sort kind must be str"):
        tnp.argsort(tnp.ones(3), kind=1)
    for kind in ("quicksort", "mergesort", "heapsort", "stable", "Q"):
        np.testing.assert_array_equal(tnp.sort(tnp.asarray([3, 1, 2]), kind=kind).get(), [1, 2, 3])


@pytest.mark.parametrize("axis", [-1, 0, None])
@pytest.mark.parametrize("kth", [0, 3, -1, [1, 3]])
def test_partition_and_argpartition(axis, kth):
    """Element kth (each of them) lands where a sort puts it, as NumPy's partition promises."""
    a = RNG.integers(0, 50, (4, 9))
    ax = -1 if axis is None else axis
    want = np.take(np.partition(a, kth, axis=axis), kth, axis=ax)
    np.testing.assert_array_equal(np.take(tnp.partition(tnp.asarray(a), kth, axis=axis).get(), kth, axis=ax), want)
    idx = tnp.argpartition(tnp.asarray(a), kth, axis=axis).get()
    vals = np.take_along_axis(a.reshape(-1) if axis is None else a, idx, axis=ax)
    np.testing.assert_array_equal(np.take(vals, kth, axis=ax), want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sort_as_numpy(dtype):
    """By the real part, then the imaginary part; NaN-holding values last, as NumPy's."""
    nan = np.nan
    a = np.array([1 + 2j, complex(nan, 1), complex(1, nan), 0.5 - 1j, 1 + 1j, complex(nan, nan), complex(nan, -3),
                  1 + 2j, -1 + 0j, complex(1, -nan)], dtype=dtype)
    m = (RNG.integers(0, 3, (4, 7)) + 1j * RNG.integers(0, 3, (4, 7))).astype(dtype)
    for x, axes in ((a, [-1]), (m, [-1, 0])):
        for axis in axes:
            np.testing.assert_array_equal(tnp.sort(tnp.asarray(x), axis=axis).get(), np.sort(x, axis=axis))
            np.testing.assert_array_equal(tnp.argsort(tnp.asarray(x), axis=axis).get(),
                                          np.argsort(x, axis=axis, kind="stable"))


def test_lexsort():
    k1, k2 = RNG.integers(0, 3, 20), RNG.integers(0, 3, 20)
    np.testing.assert_array_equal(tnp.lexsort((tnp.asarray(k1), tnp.asarray(k2))).get(), np.lexsort((k1, k2)))
    np.testing.assert_array_equal(tnp.lexsort(tnp.asarray(np.stack([k1, k2]))).get(), np.lexsort(np.stack([k1, k2])))
    m1, m2 = RNG.integers(0, 3, (3, 7)), RNG.standard_normal((3, 7)).round(0)
    for axis in (-1, 0, 1):
        np.testing.assert_array_equal(tnp.lexsort([tnp.asarray(m1), tnp.asarray(m2)], axis=axis).get(),
                                      np.lexsort([m1, m2], axis=axis))


@pytest.mark.parametrize("call", [lambda m: m.partition(m.asarray([3, 1, 2]), 5),
                                  lambda m: m.partition(m.asarray([3, 1, 2]), -4),
                                  lambda m: m.partition(m.asarray([3, 1, 2]), 1.5),
                                  lambda m: m.argpartition(m.asarray([3, 1, 2]), 1, kind="bogus"),
                                  lambda m: m.lexsort([]), lambda m: m.lexsort((m.ones(2), m.ones(3)))])
def test_partition_and_lexsort_errors_as_numpy(call):
    assert_same_error(call)


def test_order_statistics():
    x = RNG.standard_normal((6, 41))
    xn = x.copy()
    xn[2, 5] = np.nan
    for kw in ({}, {"axis": 1}, {"axis": 0, "keepdims": True}, {"axis": (0, 1)}):
        np.testing.assert_allclose(tnp.median(tnp.asarray(x), **kw).get(), np.median(x, **kw))
    np.testing.assert_allclose(tnp.median(tnp.asarray(xn), axis=1).get(), np.median(xn, axis=1))
    np.testing.assert_allclose(tnp.nanmedian(tnp.asarray(xn), axis=1).get(), np.nanmedian(xn, axis=1))
    for m in ("linear", "lower", "higher", "nearest", "midpoint"):
        np.testing.assert_allclose(tnp.quantile(tnp.asarray(x), [0.0, 0.25, 0.9, 1.0], axis=1, method=m).get(),
                                   np.quantile(x, [0.0, 0.25, 0.9, 1.0], axis=1, method=m))
    np.testing.assert_allclose(tnp.percentile(tnp.asarray(x), 42).get(), np.percentile(x, 42))
    np.testing.assert_allclose(tnp.nanpercentile(tnp.asarray(xn), 30, axis=1).get(), np.nanpercentile(xn, 30, axis=1))
    with pytest.raises(ValueError, match="Quantiles must be in the range"):
        tnp.quantile(tnp.asarray(x), 1.5)


def test_repeat_pad_median_and_random_permutations():
    np.testing.assert_array_equal(tnp.repeat(tnp.asarray(np.arange(4)), tnp.asarray([1, 0, 3, 2])).get(),
                                  np.repeat(np.arange(4), [1, 0, 3, 2]))
    m = RNG.standard_normal((3, 4))
    np.testing.assert_array_equal(tnp.repeat(tnp.asarray(m), [2, 0, 1], axis=0).get(), np.repeat(m, [2, 0, 1], axis=0))
    with pytest.raises(ValueError, match="negative"):
        tnp.repeat(tnp.asarray(m), [1, -1, 1], axis=0)
    v = RNG.standard_normal(20)
    np.testing.assert_allclose(tnp.pad(tnp.asarray(v), (3, 2), mode="median", stat_length=4).get(),
                               np.pad(v, (3, 2), mode="median", stat_length=4))
    g = tnp.random.default_rng(0)
    p = g.permutation(1000).get()
    np.testing.assert_array_equal(np.sort(p), np.arange(1000))
    assert not np.array_equal(p, np.arange(1000))
    np.testing.assert_array_equal(tnp.random.default_rng(0).permutation(1000).get(), p)  # reproducible
    a = tnp.asarray(np.arange(30.0).reshape(10, 3))
    g.shuffle(a)
    np.testing.assert_array_equal(np.sort(a.get()[:, 0]), np.arange(0, 30, 3))
    c = g.choice(50, 20, replace=False).get()
    assert len(set(c.tolist())) == 20 and c.max() < 50


@pytest.mark.parametrize("kernel,args", [
    (S._keys, lambda: (np.zeros(8, np.float32), np.zeros(8, np.uint32), 8, False, 1024, False)),
    (S._keys, lambda: (np.zeros(8, np.int64), np.zeros(8, np.uint64), 8, True, 1024, False)),
    (S._keys, lambda: (np.zeros(8, np.float16), np.zeros(8, np.uint32), 8, False, 1024, True)),
    (S._keys, lambda: (np.zeros(8, np.float64), np.zeros(8, np.uint64), 8, True, 1024, True)),
    (S._unkeys, lambda: (np.zeros(8, np.uint64), np.zeros(8, np.float64), 8, False, 1024)),
    (S._unkeys, lambda: (np.zeros(8, np.uint32), np.zeros(8, np.float16), 8, True, 1024)),
    (S._unkeys, lambda: (np.zeros(8, np.uint32), np.zeros(8, np.int8), 8, False, 1024)),
    (S._unkeys, lambda: (np.zeros(8, np.uint32), np.zeros(8, np.bool_), 8, False, 1024)),
    (H._count, lambda: (np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(10, np.int64), 8, 10, False, 512)),
    (H._count, lambda: (np.zeros(8, np.int64), np.zeros(8, np.float64), np.zeros(300, np.float64), 8, 300, True, 512)),
    (L._totals, lambda: (np.zeros((2, 8), np.float32), np.zeros((2, 4), np.float32), 8, 2, False, 4096)),
    (L._scan_chunks, lambda: (np.zeros((2, 8), np.float32), np.zeros((2, 4), np.float32), np.zeros((2, 8), np.float32), 8,
                              2, True, 4096)),
    (S._hist, lambda: (np.zeros(8, np.uint32), np.zeros((1, 16), np.int64), 8, np.int32(0), 1024, 16)),
    (S._scatter, lambda: (np.zeros(8, np.uint32), np.zeros(8, np.int64), np.zeros((1, 16), np.int64), np.zeros(8, np.uint32),
                          np.zeros(8, np.int64), 8, np.int32(0), 1024, 16)),
    (S._bsearch, lambda: (np.zeros(8, np.uint64), np.zeros(8, np.uint64), np.zeros(8, np.int64), 8, 8, np.int32(3), False, 1024)),
])
def test_sort_kernels_compile_for_the_gpu(kernel, args):
    t = kernel.translation(args(), 90)  # the kernel module's translation and cubin, as a launch on sm_90 makes
    try:
        assert t.compile_image("cubin")["code"][:4] == b"\x7fELF"
    except tc.DriverNotFoundError as e:
        pytest.skip(f"NVRTC is not available: {e}")


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_weighted_quantiles_as_numpy(name):
    """weights= with method 'inverted_cdf' (NumPy's only weighted method): every axis form, keepdims, NaNs,
    leading zero weights, and 1-D weights along one axis."""
    a = RNG.standard_normal((4, 9))
    w = RNG.integers(1, 4, (4, 9)).astype(float)
    w[0, :2], w[2, 5], w[3, 0] = 0, 0, 0
    with_nan = a.copy()
    with_nan[1, 3] = np.nan
    qs = [0.0, 0.1, 0.5, 0.9, 1.0] if "quantile" in name else [0, 10, 50, 90, 100]
    for x in (a, with_nan):
        for axis in (None, 0, 1, (0, 1)):
            for keepdims in (False, True):
                want = getattr(np, name)(x, qs, axis=axis, method="inverted_cdf", weights=w, keepdims=keepdims)
                got = getattr(tnp, name)(tnp.asarray(x), qs, axis=axis, method="inverted_cdf", weights=tnp.asarray(w),
                                         keepdims=keepdims).get()
                assert got.shape == want.shape
                np.testing.assert_array_equal(got, want)
    if not name.startswith("nan"):  # (NumPy 2.4's own nan* forms fail on 1-D weights)
        want = getattr(np, name)(a, qs[2], axis=1, method="inverted_cdf", weights=w[0])
        np.testing.assert_array_equal(getattr(tnp, name)(tnp.asarray(a), qs[2], axis=1, method="inverted_cdf",
                                                         weights=w[0]).get(), want)


@pytest.mark.parametrize("call", [lambda m: m.quantile(m.ones(3), 0.5, weights=m.ones(3)),
                                  lambda m: m.quantile(m.ones((2, 3)), 0.5, axis=1, method="inverted_cdf",
                                                       weights=-m.ones((2, 3))),
                                  lambda m: m.quantile(m.ones((2, 3)), 0.5, axis=1, method="inverted_cdf",
                                                       weights=m.ones((2, 2))),
                                  lambda m: m.quantile(m.ones((2, 3)), 0.5, axis=0, method="inverted_cdf",
                                                       weights=m.asarray([[0.0, 1, 1], [0, 1, 1]]))])
def test_weighted_quantile_errors_as_numpy(call):
    assert_same_error(call)


@pytest.mark.parametrize("method", ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                                    "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                                    "normal_unbiased", "linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_every_quantile_method_as_numpy(name, method):
    """NumPy's thirteen methods (its virtual-index rules and interpolation), with NaNs, all-NaN rows, integer input
    (the methods that pick a value keep its dtype) and a one-element row, on every axis."""
    a = RNG.standard_normal((5, 11))
    with_nan = a.copy()
    with_nan[1, 3], with_nan[4, :], with_nan[2, :10] = np.nan, np.nan, np.nan
    qs = [0.0, 0.01, 0.1, 0.25, 0.5, 0.7, 0.9, 0.99, 1.0]
    for x in (a, with_nan, RNG.integers(0, 10, (4, 7)), a[0, :1]):
        for axis in ([None, 0, 1] if x.ndim == 2 else [None]):
            with np.errstate(all="ignore"):
                want = getattr(np, name)(x, qs, axis=axis, method=method)
            got = getattr(tnp, name)(tnp.asarray(x), qs, axis=axis, method=method).get()
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13, equal_nan=True)


def test_bfloat16_sorts_masks_and_indexes_on_the_cpu_interpreter():
    """bfloat16 has no NumPy dtype: its CPU arrays reach the tile kernels as kernel arguments over their memory
    (_indexing.host_arg), not NumPy views. Values against NumPy on the same numbers in float32."""
    x0 = np.array([3, 1, 2, -0.0, np.nan, -5, 0.5, 2], np.float32)  # exact in bfloat16
    x = tnp.asarray(x0, device="cpu").astype("bfloat16")
    np.testing.assert_array_equal(tnp.sort(x).astype("float32").get(), np.sort(x0))
    np.testing.assert_array_equal(tnp.argsort(x).get(), np.argsort(x0, kind="stable"))
    np.testing.assert_array_equal(tnp.unique(x).astype("float32").get(), np.unique(x0))
    np.testing.assert_array_equal(x[x > 0].astype("float32").get(), x0[x0 > 0])
    i = np.array([7, 0, 2, 2])
    np.testing.assert_array_equal(x[tnp.asarray(i, device="cpu")].astype("float32").get(), x0[i])
