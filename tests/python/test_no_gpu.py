"""Without a CUDA driver, the first GPU call raises DriverNotFoundError saying what is missing."""
import pytest

import tegula.core as tc

pytestmark = pytest.mark.skipif(tc.driver_info()["available"], reason="a CUDA driver is present: these check its absence")


def test_device_raises_a_clear_error():
    with pytest.raises(tc.DriverNotFoundError, match="libcuda"):
        tc.Device()
    with pytest.raises(tc.DriverNotFoundError):  # the same answer every time
        tc.Buffer.allocate(16)


def test_driver_info_reports_why():
    info = tc.driver_info()
    assert info["available"] is False and "libcuda" in info["error"]


def test_launch_config_validation_needs_no_gpu():
    assert tc.LaunchConfig(grid=(4, 2), block=128).grid == (4, 2, 1)
    with pytest.raises(ValueError, match="positive"):
        tc.LaunchConfig(grid=0, block=1)
    with pytest.raises(ValueError, match="at most 1024"):
        tc.LaunchConfig(grid=1, block=(32, 64))
    with pytest.raises(ValueError, match="1 to 3"):
        tc.LaunchConfig(grid=(1, 1, 1, 1), block=1)
    with pytest.raises(TypeError, match="int or a tuple"):
        tc.LaunchConfig(grid="big", block=1)
