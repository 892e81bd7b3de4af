"""tegula.numpy.emath against numpy.emath: complex results where the real functions have none, real ones
elsewhere, NumPy's result dtypes (single precision for the small types), scalars and arrays."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same, device, quiet, t  # noqa: F401

VALUES = {"mixed": [-4.0, 0.25, 2.0, 9.0], "positive": [0.25, 2.0, 9.0], "unit": [-0.5, 0.0, 0.75],
          "outside": [-2.0, 0.5, 3.0]}


@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"])
@pytest.mark.parametrize("values", sorted(VALUES))
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "complex64"])
def test_functions_match_numpy(name, values, dtype, device):
    x = np.array(VALUES[values])
    if np.dtype(dtype).kind in "iu":
        x = np.round(x * 4)
    x = x.astype(dtype)
    with quiet():
        want = getattr(np.emath, name)(x)
        got = getattr(tnp.emath, name)(t(x, device))
    assert_same(got, want, rtol=2e-6 if "64" not in str(want.dtype) or want.dtype == np.complex64 else 1e-12,
                atol=1e-6)


def test_power_logn_and_scalars(device):
    with quiet():
        assert_same(tnp.emath.power(t([-2.0, 3.0], device), 2), np.emath.power(np.array([-2.0, 3.0]), 2))
        assert_same(tnp.emath.logn(2, t([-4.0, 8.0], device)), np.emath.logn(2, np.array([-4.0, 8.0])))
        assert complex(tnp.emath.sqrt(-1)) == np.emath.sqrt(-1) == 1j
        assert float(tnp.emath.sqrt(4.0)) == 2.0 and tnp.emath.sqrt(t([], device)).shape == (0,)
    assert set(tnp.emath.__all__) == set(np.emath.__all__)
