"""convolve and correlate against NumPy: every mode, either array the longer, integers and booleans exactly, float
and complex to rounding, more taps than one chunk, and NumPy's errors."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error

RNG = np.random.default_rng(12)


def _pair(kind, la, lv):
    if kind == "int64":
        return RNG.integers(-5, 5, la), RNG.integers(-5, 5, lv)
    if kind == "bool":
        return RNG.random(la) > 0.5, RNG.random(lv) > 0.5
    a, v = RNG.standard_normal(la), RNG.standard_normal(lv)
    if kind == "complex128":
        a, v = a + 1j * RNG.standard_normal(la), v + 1j * RNG.standard_normal(lv)
    return a.astype(kind), v.astype(kind)


@pytest.mark.parametrize("kind", ["int64", "bool", "float32", "float64", "complex128"])
@pytest.mark.parametrize("la,lv", [(5, 3), (3, 5), (1, 1), (7, 7), (300, 70), (10, 1), (1, 10)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_as_numpy(name, mode, la, lv, kind):
    a, v = _pair(kind, la, lv)
    want = getattr(np, name)(a, v, mode)
    got = getattr(tnp, name)(tnp.asarray(a), tnp.asarray(v), mode).get()
    assert got.shape == want.shape and got.dtype == want.dtype
    if kind in ("int64", "bool"):
        np.testing.assert_array_equal(got, want)
    else:
        tol = 1e-4 if kind == "float32" else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("call", [lambda m: m.convolve(m.asarray([]), m.asarray([1])),
                                  lambda m: m.convolve(m.asarray([1]), m.asarray([])),
                                  lambda m: m.correlate(m.ones((2, 2)), m.asarray([1])),
                                  lambda m: m.convolve(m.asarray([1, 2]), m.asarray([1]), mode="bad")])
def test_errors_as_numpy(call):
    assert_same_error(call)
