"""The NumPy functions added on top of tegula.numpy's own operations, run on the GPU: every case of
tests/python/test_numpy_extras.py (construction, mathematics, manipulation, host utilities), the set operations,
convolve/correlate, the complex reductions and inverse functions, and weighted quantiles, each against NumPy, with
array results checked to live on the GPU. (The CPU suite runs the same cases on the interpreter.)"""
import importlib.util
import os
import sys

import numpy as np
import pytest

import tegula.numpy as tnp

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name):
    """A module of the CPU suite (its folder on sys.path for its own helper imports)."""
    folder = os.path.join(_HERE, "..", "python")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXTRAS = _load("test_numpy_extras")


def _on_gpu(x):
    if isinstance(x, (tuple, list)):
        return all(_on_gpu(y) for y in x)
    return not isinstance(x, tnp.ndarray) or x.device == tnp.Device("cuda", 0)


@pytest.mark.parametrize("name", list(EXTRAS.CASES))
def test_extras_on_the_gpu(name):
    if EXTRAS._numpy_raises(EXTRAS.CASES[name]):
        EXTRAS.assert_same_error(EXTRAS.CASES[name])
        return
    with np.errstate(all="ignore"):
        want = EXTRAS.CASES[name](np)
    got = EXTRAS.CASES[name](tnp)
    assert _on_gpu(got), name
    EXTRAS._same(EXTRAS._host(got), want, name)


def test_setops_convolve_and_weighted_quantiles_on_the_gpu():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 2000, 100_000), rng.integers(1000, 3000, 50_000)
    for f in ("isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"):
        np.testing.assert_array_equal(getattr(tnp, f)(tnp.asarray(a), tnp.asarray(b)).get(), getattr(np, f)(a, b))
    x, v = rng.standard_normal(20_000), rng.standard_normal(300)
    for f in ("convolve", "correlate"):
        np.testing.assert_allclose(getattr(tnp, f)(tnp.asarray(x), tnp.asarray(v), "same").get(),
                                   getattr(np, f)(x, v, "same"), rtol=1e-9, atol=1e-9)
    q = rng.standard_normal((64, 1000))
    w = rng.integers(0, 5, (64, 1000)).astype(float) + 0.5
    np.testing.assert_array_equal(
        tnp.quantile(tnp.asarray(q), [0.1, 0.5, 0.9], axis=1, method="inverted_cdf", weights=tnp.asarray(w)).get(),
        np.quantile(q, [0.1, 0.5, 0.9], axis=1, method="inverted_cdf", weights=w))


def test_complex_reductions_and_inverse_functions_on_the_gpu():
    rng = np.random.default_rng(4)
    z = rng.standard_normal((300, 500)) + 1j * rng.standard_normal((300, 500))
    t = tnp.asarray(z)
    for f in ("argmax", "argmin", "max", "min"):
        np.testing.assert_array_equal(getattr(tnp, f)(t, axis=1).get(), getattr(np, f)(z, axis=1))
    small = 1 + 1e-3 * z
    np.testing.assert_allclose(tnp.prod(tnp.asarray(small), axis=1).get(), np.prod(small, axis=1), rtol=1e-12)
    np.testing.assert_allclose(tnp.cumprod(tnp.asarray(small[:4]), axis=1).get(), np.cumprod(small[:4], axis=1),
                               rtol=1e-11)
    for f in ("arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"):
        got, want = getattr(tnp, f)(t).get(), getattr(np, f)(z)
        assert np.max(np.abs(got - want) / np.abs(want)) < 1e-14, f
