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

This package is the top of tegula.numpy's layers (docs/architecture.md): it gathers the namespace from the
modules below, hands it to _ndarray.install (which binds the ndarray's NumPy methods) and wraps the ufuncs.
"""
from __future__ import annotations

import contextlib as _contextlib

import numpy as _np

from . import _core, _ndarray, exceptions  # exceptions first: it puts NumPy's AxisError under tegula's
from ._core import (
    Device,
    bfloat16,
    bool_,
    complex64,
    complex128,
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
from ._repeat import repeat  # noqa: F401
from ._sort import (argpartition, argsort, lexsort, median, nanmedian, nanpercentile, nanquantile,  # noqa: F401
                    partition, percentile, quantile, searchsorted, sort, unique)
from ._ufuncs import *  # noqa: F401,F403
from ._array_api import *  # noqa: F401,F403
from ._convolve import convolve, correlate  # noqa: F401
from ._construct import *  # noqa: F401,F403
from ._mathextra import *  # noqa: F401,F403
from ._reshaping import *  # noqa: F401,F403
from ._host_utils import *  # noqa: F401,F403
from ._setops import intersect1d, isin, setdiff1d, setxor1d, union1d  # noqa: F401
from ._flatiter import FlatIter as flatiter  # noqa: F401  (the type of ndarray.flat)
from ._index_tricks import broadcast, c_, index_exp, mgrid, ndenumerate, ndindex, ogrid, r_, s_  # noqa: F401
from ._histogram import bincount, digitize, histogram, histogram2d, histogram_bin_edges, histogramdd  # noqa: F401
from ._array_api import __dict__ as _adict

_ndarray.install(globals())

from ._ufunc_object import ufunc, wrap_namespace as _wrap_ufuncs  # noqa: E402

_wrap_ufuncs(globals())  # tnp.add.reduce, tnp.maximum.accumulate, tnp.multiply.outer, ...

AxisError = exceptions.AxisError
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
euler_gamma = _np.euler_gamma
bool = bool_  # noqa: A001 - the array API standard's name
dtype = _np.dtype
iinfo = _np.iinfo


class finfo:
    """np.finfo with the array API's Python-float attributes (NumPy's are NumPy scalars)."""

    def __init__(self, type):  # noqa: A002 - NumPy's name
        if isinstance(type, ndarray):
            type = type.dtype
        f = _np.finfo(type)
        self.bits, self.dtype = f.bits, f.dtype
        self.eps, self.max, self.min = float(f.eps), float(f.max), float(f.min)
        self.smallest_normal, self.resolution, self.tiny = float(f.smallest_normal), float(f.resolution), float(f.tiny)
        self.precision = f.precision

    def __repr__(self):
        return f"finfo(dtype={self.dtype}, eps={self.eps}, max={self.max})"
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
    """Counts of array kernels built, cache hits and launches in this process, and the host nanoseconds of the
    engine's phases: plan_ns (planning), lookup_ns (kernel cache hits), build_ns (IR to GPU code), launch_ns
    (argument packing and the launch; on the CPU without the interpreter's run of the kernel)."""
    return _core._tegula.array_stats()


class _Info:
    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": False, "max dimensions": 64}

    def default_device(self):
        return Device("cpu") if _core.default_device_id() < 0 else Device("cuda", 0)

    def devices(self):
        n = _core.cuda_device_count()
        return [Device("cuda", i) for i in range(n)] + [Device("cpu")]

    def default_dtypes(self, *, device=None):
        return {"real floating": _np.dtype("float64"), "complex floating": _np.dtype("complex128"),
                "integral": _np.dtype("int64"), "indexing": _np.dtype("int64")}

    _KINDS = {"bool": ["bool"], "signed integer": ["int8", "int16", "int32", "int64"],
              "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
              "real floating": ["float32", "float64"], "complex floating": ["complex64", "complex128"]}
    _KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
    _KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]

    def dtypes(self, *, device=None, kind=None):
        """The array API dtypes (float16 and bfloat16 also exist, as extensions)."""
        kinds = [kind] if isinstance(kind, str) or kind is None else list(kind)
        names = []
        for k in kinds:
            if k is None:
                names += ["bool"] + self._KINDS["numeric"]
            elif k in self._KINDS:
                names += self._KINDS[k]
            else:
                raise ValueError(f"unknown dtype kind {k!r}; expected one of {sorted(self._KINDS)}")
        return {n: _np.dtype(n) for n in dict.fromkeys(names)}


def __array_namespace_info__():
    return _Info()


_FUNCTION_MODULES = (_creation, _dtypes, _manipulation, _nanfunctions, _pad, _reductions, _selection, _ufuncs)
_NOT_API = {"annotations", "math", "builtins", "as_array", "dtype_name", "ndarray_type"}
__all__ = sorted({n for n in list(globals()) + [k for m in _FUNCTION_MODULES for k in vars(m)] + list(_adict)
                  if not n.startswith("_") and n not in _NOT_API and not isinstance(globals().get(n), type(_np))})


# NumPy's submodules, imported at first use (PEP 562: `tnp.linalg`, `from tegula.numpy import fft` and `import
# tegula.numpy.random` all load them then): fft (cuFFT), linalg, random (numpy.random's Generator API over
# Philox4x32-10), lib (lib.stride_tricks), emath (complex results where the real functions have none), testing
# (numpy.testing is 40 ms of imports). tests/python/test_lazy_import.py holds `import tegula.numpy` to this.
_SUBMODULES = ("emath", "fft", "lib", "linalg", "random", "testing")


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'tegula.numpy' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))
