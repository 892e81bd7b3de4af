"""tegula.numpy.lib.stride_tricks against numpy.lib.stride_tricks: sliding_window_view (views over contiguous,
strided and pending arrays; every axis or some; errors), and as_strided's NotImplementedError."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view as np_windows

import tegula.numpy as tnp
from numpy_util import device, rng, t  # noqa: F401

windows = tnp.lib.stride_tricks.sliding_window_view


@pytest.mark.parametrize("args", [((2, 3),), (3, 1), ((2,), 0), ((2, 2), (0, 1)), ((1, 2), (1, 1)), ((4, 5),)])
def test_windows_match_numpy(args, device, rng):
    x = rng.standard_normal((4, 5))
    got = windows(t(x, device), *args)
    want = np_windows(x, *args)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)


def test_windows_of_strided_and_pending_arrays(device, rng):
    x = rng.standard_normal((4, 9))
    np.testing.assert_array_equal(windows(t(x, device)[:, ::2], 2, 1).get(), np_windows(x[:, ::2], 2, 1))
    np.testing.assert_allclose(windows(tnp.exp(t(x, device)), (2, 2)).get(), np_windows(np.exp(x), (2, 2)),
                               rtol=1e-15)


def test_windows_are_views(device):
    x = tnp.arange(6.0, device=device)
    w = windows(x, 3)
    w[1, 0] = 100.0  # tegula's view is writable (NumPy's needs writeable=True): the write reaches x
    assert x.get().tolist() == [0.0, 100.0, 2.0, 3.0, 4.0, 5.0]
    assert w[0, 1].item() == 100.0


@pytest.mark.parametrize("args", [((2,),), ((6, 1),), ((-1, 1),), ((2,), (0, 1))])
def test_errors_match_numpy(args):
    x = np.arange(20.0).reshape(4, 5)
    with pytest.raises(ValueError) as want:
        np_windows(x, *args)
    with pytest.raises(ValueError) as got:
        windows(tnp.asarray(x), *args)
    assert str(got.value) == str(want.value)


def test_as_strided_is_refused():
    with pytest.raises(NotImplementedError, match="sliding_window_view"):
        tnp.lib.stride_tricks.as_strided(tnp.arange(4), (2, 2), (8, 8))
    assert tnp.lib.stride_tricks.broadcast_to(tnp.arange(3), (2, 3)).shape == (2, 3)
