"""Whether CUB's algorithms (compiled by NVRTC from the CCCL headers: cpp/tegula/libs/cub_jit.hpp) can run for an
array: on a GPU where the headers were found. The first time they cannot, a PerformanceWarning says why and that
tegula's own tile kernels run instead (the radix sort's 4-bit passes, the chunked scan)."""
from __future__ import annotations

from . import _core

_READY = {}  # "ready" -> whether the CCCL headers were found (looked up once per process)


def ready(x):
    """True when x lies on a GPU where CUB can be compiled."""
    if x._device_id < 0:
        return False
    ok = _READY.get("ready")
    if ok is None:
        try:
            _core._tegula.cub_include_dir()
            ok = True
        except _core._tegula.DriverNotFoundError as e:
            import warnings

            import tegula.tile as _tt

            warnings.warn(f"sorting and scanning with tegula's tile kernels (slower than CUB): {e}",
                          _tt.PerformanceWarning, stacklevel=4)
            ok = False
        _READY["ready"] = ok
    return ok
