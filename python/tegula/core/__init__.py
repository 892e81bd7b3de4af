"""tegula.core: the CUDA runtime (devices, streams, events, memory, modules, launch) and JIT.

Names follow cuda.core where it has them: Device, Stream, Event, Buffer, Program,
ProgramOptions, ObjectCode, Kernel, LaunchConfig, launch(stream, config, kernel, *args). The one on-disk compile
cache of every component: cache_info, cache_entries, cache_clear, cache_prune, cache_export, cache_import (_cache).
"""
from .. import _libs, _tegula
from .._tegula import (
    Buffer,
    CacheError,
    CompileError,
    CUDAError,
    Device,
    DriverNotFoundError,
    Event,
    Kernel,
    LaunchConfig,
    ObjectCode,
    Stream,
    TegulaError,
    device_count,
    driver_info,
    launch,
)
from ._collectives import Communicator
from ._program import Program, ProgramOptions

_libs.register(_tegula)

__all__ = [
    "Buffer", "CacheError", "Communicator", "CompileError", "CUDAError", "Device", "DriverNotFoundError", "Event",
    "Kernel", "LaunchConfig", "ObjectCode", "Program", "ProgramOptions", "Stream", "TegulaError",
    "device_count", "driver_info", "launch",
    "CacheEntry", "cache_clear", "cache_components", "cache_entries", "cache_export", "cache_import", "cache_info",
    "cache_prune",
]


# The cache functions (_cache) load at first use: their bundle code imports tarfile, json, hashlib and tempfile,
# which `import tegula.numpy` (through tegula.core) should not pay for (tests/python/test_lazy_import.py).
_CACHE_NAMES = ("CacheEntry", "cache_clear", "cache_components", "cache_entries", "cache_export", "cache_import",
                "cache_info", "cache_prune")


def __getattr__(name):
    if name in _CACHE_NAMES:
        from . import _cache

        return getattr(_cache, name)
    raise AttributeError(f"module 'tegula.core' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_CACHE_NAMES))
