"""tegula.numpy.testing: NumPy's assertions over tegula arrays, so NumPy test code runs with one import changed."""
import numpy as np
import pytest

import tegula.numpy as tnp


def test_comparisons_take_tegula_arrays():
    a = tnp.arange(4.0)
    tnp.testing.assert_allclose(a, [0, 1, 2, 3])
    tnp.testing.assert_array_equal(a * 2, np.arange(4.0) * 2)
    tnp.testing.assert_equal(a.sum(), 6.0)  # a 0-d result compares as NumPy's scalar would
    tnp.testing.assert_almost_equal(a.mean(), 1.5)
    tnp.testing.assert_array_less(a, 4)
    tnp.testing.assert_equal([a, a.max()], [np.arange(4.0), 3.0])
    tnp.testing.assert_allclose(tnp.asarray([1, 2], dtype="bfloat16"), [1.0, 2.0])
    with pytest.raises(AssertionError):
        tnp.testing.assert_allclose(a, [0, 1, 2, 4])
    with pytest.raises(AssertionError):
        tnp.testing.assert_equal(a.sum(), 7.0)


def test_every_name_of_numpy_testing():
    import numpy.testing as nt

    assert set(tnp.testing.__all__) == set(nt.__all__)
    assert all(hasattr(tnp.testing, n) for n in nt.__all__)
    assert tnp.testing.assert_raises is nt.assert_raises  # calls functions: NumPy's own
    with tnp.testing.assert_raises(ValueError):
        tnp.ones(3).reshape(2, 2)
