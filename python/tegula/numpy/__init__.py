"""tegula.numpy: NumPy's API on the GPU, fused automatically.

    import tegula.numpy as np
    x = np.asarray(host_array)              # or np.zeros(...), np.arange(...), a torch/cupy array
    y = np.exp(-x * x) * x + 0.5 * x        # recorded, not run
    print(y.sum())                          # one fused kernel computes y and its sum

Elementwise operations, casts, where and reductions build a lazy expression; the first thing that
needs the values (printing, .get(), float(), a view, an in-place write, a library call)
compiles the whole expression into one kernel, cached by its structure. `eager()` turns this off.
Without a GPU (or with TEGULA_INTERPRET=1) arrays live on the CPU interpreter, which runs the very
same kernels; it says so once. Differences from NumPy: docs/numpy_differences.md.
"""
from __future__ import annotations

import contextlib as _contextlib

import numpy as _np

from . import _core, _ndarray
from ._core import (
    Device,
    bfloat16,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    ndarray,
    uint8,
    uint16,
    uint32,
    uint64,
)
from . import _creation, _dtypes, _manipulation, _nanfunctions, _pad, _reductions, _selection, _ufuncs
from ._creation import *  # noqa: F401,F403
from ._dtypes import *  # noqa: F401,F403
from ._manipulation import *  # noqa: F401,F403
from ._nanfunctions import *  # noqa: F401,F403
from ._pad import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._selection import *  # noqa: F401,F403
from ._ufuncs import *  # noqa: F401,F403
from ._array_api import *  # noqa: F401,F403
from ._array_api import __dict__ as _adict

_ndarray.install()

AxisError = _core._tegula.AxisError
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
euler_gamma = _np.euler_gamma
bool = bool_  # noqa: A001 - the array API standard's name
dtype = _np.dtype
finfo, iinfo = _np.finfo, _np.iinfo
__array_api_version__ = "2024.12"


def eager(on=True):
    """Turn lazy fusion off (every operation runs at once) -- also usable as `with eager(): ...`."""
    prev = _core._tegula.array_eager()
    _core._tegula.array_set_eager(on)

    @_contextlib.contextmanager
    def restore():
        try:
            yield
        finally:
            _core._tegula.array_set_eager(prev)

    return restore()


def synchronize(device=None):
    """Waits for all queued array work on the device."""
    d = _core.device_id(device)
    if d >= 0:
        _core._tegula.array_synchronize(d)


def last_kernel():
    """(tile IR, CUDA source, block threads) of the most recent array kernel: what fusion produced."""
    return _core._tegula.array_last_kernel()


def kernel_stats():
    """Counts of array kernels built, cache hits and launches in this process."""
    return _core._tegula.array_stats()


class _Info:
    def capabilities(self):
        return {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 64}

    def default_device(self):
        return Device("cpu") if _core.default_device_id() < 0 else Device("cuda", 0)

    def devices(self):
        n = _core._tegula.device_count() if _core._tegula.driver_info().get("available") else 0
        return [Device("cuda", i) for i in range(n)] + [Device("cpu")]

    def default_dtypes(self, *, device=None):
        return {"real floating": _np.dtype("float64"), "complex floating": _np.dtype("complex128"),
                "integral": _np.dtype("int64"), "indexing": _np.dtype("int64")}

    def dtypes(self, *, device=None, kind=None):
        names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64"]
        return {n: _np.dtype(n) for n in names}


def __array_namespace_info__():
    return _Info()


_FUNCTION_MODULES = (_creation, _dtypes, _manipulation, _nanfunctions, _pad, _reductions, _selection, _ufuncs)
__all__ = sorted({n for n in list(globals()) + [k for m in _FUNCTION_MODULES for k in vars(m)] + list(_adict)
                  if not n.startswith("_")})
