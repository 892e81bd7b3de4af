"""tegula.core.Communicator without a GPU: NCCL loads (dlopen) and names its version, dtypes and reductions NCCL
lacks are clear errors, and making a communicator on a machine with no GPU says why. The collectives run in
tests/gpu/test_gpu_collectives.py."""
import pytest

import tegula.core as tc
from tegula import _tegula


def _nccl_or_skip():
    try:
        return _tegula.nccl_info()
    except tc.DriverNotFoundError as e:
        pytest.skip(f"no NCCL library on this machine: {e}")


def test_nccl_loads_and_names_its_version():
    info = _nccl_or_skip()
    assert "libnccl" in info and "(NCCL 2." in info


def test_dtypes_and_reductions():
    assert _tegula.nccl_dtype("float32") == 7 and _tegula.nccl_dtype("bfloat16") == 9
    assert [_tegula.nccl_op(o) for o in ("sum", "prod", "max", "min", "avg")] == [0, 1, 2, 3, 4]
    with pytest.raises(TypeError, match="not complex64"):
        _tegula.nccl_dtype("complex64")
    with pytest.raises(ValueError, match="'mean' is not one of sum"):
        _tegula.nccl_op("mean")


def test_no_gpu_is_a_clear_error():
    info = tc.driver_info()
    if info.get("available") and info.get("device_count"):
        pytest.skip("this machine has a GPU: tests/gpu/test_gpu_collectives.py covers it")
    with pytest.raises(tc.DriverNotFoundError):
        tc.Communicator()
