"""tegula: native Python for NVIDIA GPUs, on a C++ core.

`import tegula` is lazy: it loads no CUDA library and imports no numpy. Submodules load on first
use: tegula.core (CUDA runtime and JIT compiler). tegula.cache_info() and the other cache_* functions are
tegula.core's, for the on-disk compile cache.
"""

from ._version import __version__

__all__ = ["core", "tile", "numpy", "math", "torch", "explain", "profile", "Profile", "nvtx_range", "TegulaError", "CUDAError", "CompileError", "DriverNotFoundError", "CacheError",
           "cache_info", "cache_entries", "cache_clear", "cache_prune", "cache_export", "cache_import"]

_SUBMODULES = ("core", "tile", "cli", "numpy", "math", "torch")
_ERRORS = ("TegulaError", "CUDAError", "CompileError", "DriverNotFoundError", "CacheError")
_CACHE = ("cache_info", "cache_entries", "cache_clear", "cache_prune", "cache_export", "cache_import")  # tegula.core's


def __getattr__(name):
    import importlib

    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "explain":
        from ._explain import explain

        return explain
    if name in ("profile", "Profile", "nvtx_range"):
        from . import _profile

        return getattr(_profile, name)
    if name in _ERRORS:
        from . import _tegula

        return getattr(_tegula, name)
    if name in _CACHE:
        from .core import _cache

        return getattr(_cache, name)
    raise AttributeError(f"module 'tegula' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
