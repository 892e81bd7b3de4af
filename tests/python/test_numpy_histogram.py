"""histogram, histogram_bin_edges, histogram2d, histogramdd, bincount and digitize against NumPy (CPU interpreter:
the same tile kernels the GPU runs), including NumPy's exceptions for bad input."""
import warnings

import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(3)


def _same(got, ref, exact=True):
    got = tnp.asnumpy(got) if isinstance(got, tnp.ndarray) else np.asarray(got)
    assert got.dtype == np.asarray(ref).dtype, (got.dtype, np.asarray(ref).dtype)
    assert got.shape == np.shape(ref)
    if exact:
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


DATA = {
    "float32": RNG.standard_normal(20000).astype(np.float32),
    "float64": RNG.standard_normal(20000) * 3 + 1,
    "float16": RNG.standard_normal(3000).astype(np.float16),
    "int32": RNG.integers(-50, 50, 9999).astype(np.int32),
    "uint8": RNG.integers(0, 256, 5000).astype(np.uint8),
}


@pytest.mark.parametrize("dtype", list(DATA))
@pytest.mark.parametrize("kw", [{}, {"bins": 3}, {"bins": 32}, {"bins": 33}, {"bins": 1000}, {"bins": 7, "range": (-1, 2)},
                                {"bins": [-3, -1, 0, 0.5, 3, 100]}, {"bins": "auto"}, {"bins": "fd"}, {"bins": "sturges"},
                                {"bins": "doane"}, {"bins": "scott"}, {"bins": "rice"}, {"bins": "sqrt"},
                                {"bins": "auto", "range": (0, 5)}],
                         ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()) or "default")
def test_histogram(dtype, kw):
    x = DATA[dtype]
    h, e = tnp.histogram(tnp.asarray(x), **kw)
    h0, e0 = np.histogram(x, **kw)
    _same(h, h0)
    _same(e, e0)
    _same(tnp.histogram_bin_edges(tnp.asarray(x), **kw), np.histogram_bin_edges(x, **kw))


@pytest.mark.parametrize("wdtype", ["float64", "float32", "int16", "complex128", "bool"])
def test_histogram_weights_and_density(wdtype):
    x = DATA["float64"]
    w = (RNG.standard_normal(x.shape) * 5).astype(wdtype) if wdtype != "complex128" else \
        RNG.standard_normal(x.shape) + 1j * RNG.standard_normal(x.shape)
    h, e = tnp.histogram(tnp.asarray(x), bins=20, weights=tnp.asarray(w))
    h0, e0 = np.histogram(x, bins=20, weights=w)
    _same(h, h0, exact=wdtype in ("int16", "bool"))
    h, _ = tnp.histogram(tnp.asarray(x), bins=[-2, 0, 1, 5], density=True)
    _same(h, np.histogram(x, bins=[-2, 0, 1, 5], density=True)[0], exact=False)


def test_histogram_edges_nan_empty_constant_bool():
    x = DATA["float64"].copy()
    x[::7] = np.nan
    _same(tnp.histogram(tnp.asarray(x), bins=9, range=(-2, 2))[0], np.histogram(x, bins=9, range=(-2, 2))[0])
    edges = np.histogram_bin_edges(DATA["float64"], bins=10)
    on = np.concatenate([edges, edges])  # values on every edge: last edge inclusive
    _same(tnp.histogram(tnp.asarray(on), bins=tnp.asarray(edges))[0], np.histogram(on, bins=edges)[0])
    for y in (np.array([]), np.full(10, 3.0)):
        h, e = tnp.histogram(tnp.asarray(y), bins=4)
        _same(h, np.histogram(y, bins=4)[0])
        _same(e, np.histogram(y, bins=4)[1])
    b = RNG.random(100) < 0.3
    with pytest.warns(RuntimeWarning, match="bool"):
        h, e = tnp.histogram(tnp.asarray(b))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(h, np.histogram(b)[0])


def test_histogram_errors():
    a = tnp.asarray(DATA["float64"])
    with pytest.raises(ValueError, match="must be positive"):
        tnp.histogram(a, bins=0)
    with pytest.raises(TypeError, match="must be an integer, a string, or an array"):
        tnp.histogram(a, bins=2.5)
    with pytest.raises(ValueError, match="increase monotonically"):
        tnp.histogram(a, bins=[0, 2, 1])
    with pytest.raises(ValueError, match="max must be larger than min"):
        tnp.histogram(a, range=(2, 1))
    with pytest.raises(ValueError, match="supplied range of \\[0, inf\\] is not finite"):
        tnp.histogram(a, range=(0, np.inf))
    with pytest.raises(ValueError, match="autodetected range of \\[nan, nan\\] is not finite"):
        tnp.histogram(tnp.asarray(np.array([1.0, np.nan])))
    with pytest.raises(ValueError, match="weights should have the same shape"):
        tnp.histogram(a, weights=tnp.ones(3))
    with pytest.raises(ValueError, match="not a valid estimator"):
        tnp.histogram(a, bins="nope")
    with pytest.raises(TypeError, match="not supported for weighted data"):
        tnp.histogram(a, bins="auto", weights=a)
    with pytest.raises(NotImplementedError, match="stone"):
        tnp.histogram(a, bins="stone")
    with pytest.raises(ValueError, match="1d"):
        tnp.histogram(a, bins=[[0, 1]])


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint16", "bool"])
def test_bincount(dtype):
    x = RNG.integers(0, 2 if dtype == "bool" else 120, 7777).astype(dtype)
    _same(tnp.bincount(tnp.asarray(x)), np.bincount(x))
    _same(tnp.bincount(tnp.asarray(x), minlength=300), np.bincount(x, minlength=300))
    w = RNG.standard_normal(x.shape).astype(np.float32)
    _same(tnp.bincount(tnp.asarray(x), weights=tnp.asarray(w)), np.bincount(x, weights=w), exact=False)
    _same(tnp.bincount(tnp.asarray(np.array([], dtype))), np.bincount(np.array([], dtype)))


def test_bincount_errors():
    with pytest.raises(ValueError, match="no negative elements"):
        tnp.bincount(tnp.asarray(np.array([1, -1, 2])))
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        tnp.bincount(tnp.asarray(np.array([1])), minlength=-1)
    with pytest.raises(TypeError, match="Cannot cast"):
        tnp.bincount(tnp.asarray(np.array([1.0])))
    with pytest.raises(ValueError, match="too deep"):
        tnp.bincount(tnp.asarray(np.ones((2, 2), int)))
    with pytest.raises(ValueError, match="same length"):
        tnp.bincount(tnp.asarray(np.array([1, 2])), weights=tnp.ones(3))


@pytest.mark.parametrize("right", [False, True])
def test_digitize(right):
    x = np.concatenate([DATA["float64"], [0.0, 1.0, 2.5, np.nan, np.inf, -np.inf]])
    for bins in (np.array([-1.0, 0, 1, 2.5, 4]), np.array([4.0, 2.5, 1, 0, -1]), np.array([1.0]), np.array([0, 0, 1.0])):
        _same(tnp.digitize(tnp.asarray(x), tnp.asarray(bins), right=right), np.digitize(x, bins, right=right))
    xi = DATA["int32"]
    _same(tnp.digitize(tnp.asarray(xi), tnp.asarray(np.array([-10, 0, 10])), right=right),
          np.digitize(xi, np.array([-10, 0, 10]), right=right))
    with pytest.raises(ValueError, match="monotonically"):
        tnp.digitize(tnp.asarray(x), tnp.asarray(np.array([0.0, 2, 1])))
    with pytest.raises(TypeError, match="complex"):
        tnp.digitize(tnp.asarray(np.array([1j])), tnp.asarray(np.array([0.0, 1])))


def test_histogram2d_and_dd():
    x, y = DATA["float64"], RNG.standard_normal(20000).astype(np.float32)
    for kw in ({}, {"bins": (5, 8)}, {"bins": 4, "range": [(-1, 1), (-2, 0)]}, {"bins": [[-1, 0, 1], [0, 0.5, 1, 3]]},
               {"bins": 6, "density": True}, {"bins": 3, "weights": RNG.random(20000)}):
        kwt = {k: (tnp.asarray(v) if k == "weights" else v) for k, v in kw.items()}
        got = tnp.histogram2d(tnp.asarray(x), tnp.asarray(y), **kwt)
        ref = np.histogram2d(x, y, **kw)
        for g, r in zip(got, ref):
            _same(g, r, exact=not (kw.get("density") or "weights" in kw))
    s = RNG.standard_normal((5000, 3)).astype(np.float32)
    h, edges = tnp.histogramdd(tnp.asarray(s), bins=(3, 4, 5))
    h0, edges0 = np.histogramdd(s, bins=(3, 4, 5))
    _same(h, h0)
    for e, e0 in zip(edges, edges0):
        _same(e, e0)
    with pytest.raises(ValueError, match="same length"):
        tnp.histogram2d(tnp.asarray(x), tnp.asarray(y[:5]))
    with pytest.raises(ValueError, match="dimension of bins"):
        tnp.histogramdd(tnp.asarray(s), bins=(3, 4))
    with pytest.raises(ValueError, match="one entry per dimension"):
        tnp.histogramdd(tnp.asarray(s), range=[(0, 1)])
    with pytest.raises(ValueError, match="monotonically increasing"):
        tnp.histogramdd(tnp.asarray(s), bins=[[0, 1], [1, 0], [0, 1]])


def test_numpy_dispatch():
    a = tnp.asarray(DATA["float64"])
    h, e = np.histogram(a, bins=5)
    assert isinstance(h, tnp.ndarray)
    _same(h, np.histogram(DATA["float64"], bins=5)[0])


@pytest.mark.parametrize("bins", [33, 100, 256, 257, 3000])
def test_many_bins(bins):
    """33 to 3000 bins, every bin hit and its edges included: counts and weighted sums against NumPy."""
    rng = np.random.default_rng(bins)
    x = rng.uniform(-1, 1, 20000)
    x[:bins] = np.linspace(-1, 1, bins)  # every bin, edges included
    w = rng.standard_normal(20000)
    _same(tnp.histogram(tnp.asarray(x), bins=bins)[0], np.histogram(x, bins=bins)[0])
    _same(tnp.histogram(tnp.asarray(x), bins=bins, weights=tnp.asarray(w))[0],
          np.histogram(x, bins=bins, weights=w)[0], exact=False)
    k = rng.integers(0, bins, 5000)
    _same(tnp.bincount(tnp.asarray(k)), np.bincount(k))
