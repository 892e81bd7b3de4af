"""Set operations (isin, intersect1d, union1d, setdiff1d, setxor1d) against NumPy: values, dtypes, shapes, NaNs,
empty inputs, mixed dtypes and return_indices."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(7)
CASES = [(RNG.integers(0, 20, 30), RNG.integers(10, 30, 25)),
         (np.array([1.5, np.nan, 2.0, 2.0]), np.array([np.nan, 2.0, 3])),   # NaN never equals NaN
         (np.array([], dtype=np.int64), np.array([1, 2])), (np.array([1, 2, 3]), np.array([], dtype=float)),
         (RNG.integers(0, 5, (3, 4)), np.array([[1, 3]])),                   # flattened; isin keeps the shape
         (np.array([1, 2, 3], dtype=np.int32), np.array([2.5, 3.0])),         # compared in the common dtype
         (np.array([True, False]), np.array([True]))]


@pytest.mark.parametrize("name", ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_as_numpy(name, case):
    a, b = CASES[case]
    want = getattr(np, name)(a, b)
    got = getattr(tnp, name)(tnp.asarray(a), tnp.asarray(b)).get()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_isin_invert_and_intersect_indices(case):
    a, b = CASES[case]
    np.testing.assert_array_equal(tnp.isin(tnp.asarray(a), b, invert=True).get(), np.isin(a, b, invert=True))
    for got, want in zip(tnp.intersect1d(tnp.asarray(a), tnp.asarray(b), return_indices=True),
                         np.intersect1d(a, b, return_indices=True)):
        np.testing.assert_array_equal(got.get(), want)


def test_assume_unique_and_bad_kind():
    a, b = np.array([5, 1, 3]), np.array([3, 4])
    np.testing.assert_array_equal(tnp.setdiff1d(tnp.asarray(a), tnp.asarray(b), assume_unique=True).get(),
                                  np.setdiff1d(a, b, assume_unique=True))
    np.testing.assert_array_equal(tnp.setxor1d(tnp.asarray(a), tnp.asarray(b), assume_unique=True).get(),
                                  np.setxor1d(a, b, assume_unique=True))
    with pytest.raises(ValueError, match="Invalid kind"):
        tnp.isin(tnp.asarray(a), b, kind="hash")
