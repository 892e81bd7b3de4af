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
from . import _creation, _dtypes, _manipulation, _nanfunctions, _reductions, _selection, _ufuncs
from ._creation import *  # noqa: F401,F403
from ._dtypes import *  # noqa: F401,F403
from ._manipulation import *  # noqa: F401,F403
from ._nanfunctions import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._selection import *  # noqa: F401,F403
from ._ufuncs import *  # noqa: F401,F403
from ._array_api import *  # noqa: F401,F403
from ._flatiter import FlatIter as flatiter  # noqa: F401  (the type of ndarray.flat)
from ._array_api import __dict__ as _adict

# NumPy's function modules that load at the first use of one of their names (PEP 562, __getattr__ below): `import
# tegula.numpy` compiles and runs none of them. Each entry lists the names the package takes from the module (its
# __all__ where it has one: tests/python/test_lazy_import.py holds the table to the modules). A name listed here
# wins over the same name of a module above, as the star imports of these modules, which came last, did.
_LAZY_MODULES = {
    "_pad": ("pad",),
    "_repeat": ("repeat",),
    "_sort": ("argpartition", "argsort", "lexsort", "median", "nanmedian", "nanpercentile", "nanquantile", "partition",
              "percentile", "quantile", "searchsorted", "sort", "unique", "unique_all", "unique_counts",
              "unique_inverse", "unique_values"),
    "_matmul": ("dot", "inner", "kron", "matmul", "outer", "tensordot", "vdot"),  # cuBLASLt on the GPU
    "_einsum": ("einsum",),
    "_convolve": ("convolve", "correlate"),
    "_construct": ("logspace", "geomspace", "indices", "fromfunction", "diag", "diagflat", "vander", "tril_indices",
                   "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices", "diag_indices",
                   "diag_indices_from", "atleast_3d", "bartlett", "blackman", "hamming", "hanning", "kaiser"),
    "_mathextra": ("bitwise_count", "spacing", "cbrt", "gcd", "lcm", "divmod", "modf", "frexp", "ldexp", "heaviside",
                   "sinc", "i0", "isposinf", "isneginf", "ptp", "nancumsum", "nancumprod", "ediff1d", "gradient",
                   "trapezoid", "interp", "unwrap", "average", "cov", "corrcoef", "array_equiv", "sort_complex",
                   "matvec", "vecmat", "polyval", "polyfit", "poly", "roots", "polyadd", "polysub", "polymul",
                   "polydiv", "polyder", "polyint"),
    "_reshaping": ("append", "delete", "insert", "column_stack", "row_stack", "dstack", "hsplit", "vsplit", "dsplit",
                   "rot90", "rollaxis", "resize", "trim_zeros", "ravel_multi_index", "unravel_index", "fill_diagonal",
                   "put", "place", "putmask", "put_along_axis", "select", "choose", "piecewise", "apply_along_axis",
                   "apply_over_axes", "require", "ix_", "packbits", "unpackbits", "cross", "block"),
    "_host_utils": ("fromregex", "isnat", "frompyfunc", "vectorize", "getbufsize", "setbufsize", "base_repr",
                    "binary_repr", "errstate", "geterr", "geterrcall", "seterr", "seterrcall", "einsum_path",
                    "format_float_positional", "format_float_scientific", "get_printoptions", "iterable",
                    "min_scalar_type", "mintypecode", "printoptions", "set_printoptions", "typename", "issubdtype",
                    "common_type", "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
                    "fromfile", "frombuffer", "fromiter", "fromstring", "array2string", "array_repr", "array_str",
                    "asarray_chkfinite", "isfortran", "shares_memory", "may_share_memory"),
    "_setops": ("intersect1d", "isin", "setdiff1d", "setxor1d", "union1d"),
    "_index_tricks": ("broadcast", "c_", "index_exp", "mgrid", "ndenumerate", "ndindex", "ogrid", "r_", "s_"),
    "_histogram": ("bincount", "digitize", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd"),
}
_LAZY_NAMES = {name: module for module, names in _LAZY_MODULES.items() for name in names}
for _name in _LAZY_NAMES:
    globals().pop(_name, None)
del _name

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
    (argument packing and the launch; on the CPU without the interpreter's run of the kernel); vm_launches (runs on
    the array VM, counted in launches too) and background_starts (fused kernels a first run left compiling in the
    background)."""
    return _core._tegula.array_stats()


def background_compile(enabled=None):
    """Whether the first run of an expression on a GPU may run on the array VM (one precompiled kernel that evaluates
    any elementwise expression or reduction) while its fused kernel compiles in the background, rather than wait
    for NVRTC. On by default; TEGULA_BACKGROUND_COMPILE=0 turns it off for the process, background_compile(False)
    from here on (first runs then wait for their compile: reproducible timings). Returns the setting before the
    call; also usable as `with background_compile(False): ...`."""
    prev = _core._tegula.array_vm_mode()
    if enabled is not None:
        _core._tegula.set_array_vm_mode("first" if enabled else "never")

    class _Restore:
        def __bool__(self):
            return prev != "never"

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            _core._tegula.set_array_vm_mode(prev)

    return _Restore()


def wait_for_compiles():
    """Blocks until every fused kernel compiling in the background has been built, so that the runs after it use
    fused kernels (benchmarks call it after their warm-up)."""
    _core._tegula.array_wait_compiles()


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


_FUNCTION_MODULES = (_creation, _dtypes, _manipulation, _nanfunctions, _reductions, _selection, _ufuncs)
_NOT_API = {"annotations", "math", "builtins", "as_array", "dtype_name", "ndarray_type"}
__all__ = sorted({n for n in list(globals()) + [k for m in _FUNCTION_MODULES for k in vars(m)] + list(_adict)
                  + list(_LAZY_NAMES)
                  if not n.startswith("_") and n not in _NOT_API and not isinstance(globals().get(n), type(_np))})


# NumPy's submodules, imported at first use (PEP 562: `tnp.linalg`, `from tegula.numpy import fft` and `import
# tegula.numpy.random` all load them then): fft (cuFFT), linalg, random (numpy.random's Generator API over
# Philox4x32-10), lib (lib.stride_tricks), emath (complex results where the real functions have none), testing
# (numpy.testing is 40 ms of imports). tests/python/test_lazy_import.py holds `import tegula.numpy` to this.
_SUBMODULES = ("emath", "fft", "lib", "linalg", "random", "testing")


def __getattr__(name):
    """A submodule, or a name of a function module in _LAZY_MODULES (the module's names are all bound then, its
    ufuncs wrapped as the package's are)."""
    import importlib

    if name in _SUBMODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    lazy = _LAZY_NAMES.get(name)
    if lazy is not None:
        module = importlib.import_module(f"{__name__}.{lazy}")
        names = {n: getattr(module, n) for n in _LAZY_MODULES[lazy] if _LAZY_NAMES[n] == lazy}
        _wrap_ufuncs(names)
        globals().update(names)
        return names[name]
    raise AttributeError(f"module 'tegula.numpy' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_LAZY_NAMES))
