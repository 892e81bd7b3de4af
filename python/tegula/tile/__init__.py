"""tegula.tile (import as tt): kernels over tiles of arrays, not threads.

    import tegula.tile as tt

    @tt.kernel
    def softmax(x, out, C: tt.Constant[int]):
        row = tt.bid(0)
        v = tt.load(x, index=(row, 0), shape=(1, C), padding="neg_inf")
        e = tt.exp(v - tt.max(v, axis=1, keepdims=True))
        tt.store(out, index=(row, 0), tile=e / tt.sum(e, axis=1, keepdims=True))

    tt.launch(softmax, grid=(rows,), args=(x, y, 4096))          # GPU arrays (tegula, torch, cupy)
    tt.launch(softmax, grid=(rows,), args=(xn, yn, 4096), interpret=True)   # numpy, on the CPU

The function is parsed from its source (not traced): for/while/if over run-time values become IR
regions. `softmax.ir(x, y, 4096)` prints the tile IR; `softmax.compile(args).source` the CUDA C++.
"""
from ._kernel import Compiled, Kernel, PerformanceWarning, kernel, launch
from ._ops import *  # noqa: F401,F403 - the tt.* operations
from ._ops import _TileOp
from ._types import (Constant, bfloat16, bool_, dtype, float8_e4m3fn, float8_e5m2, float16, float32, float64, int8,
                     int16, int32, int64, uint8, uint16, uint32, uint64)

__all__ = ["Autotuned", "Config", "autotune", "Constant", "Compiled", "Kernel", "PerformanceWarning", "TileSyntaxError", "kernel", "launch", "dtype", "bool_", "int8",
           "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32",
           "float64", "float8_e4m3fn", "float8_e5m2"] + [n for n, v in list(globals().items()) if isinstance(v, _TileOp)]

# Loaded at first use (PEP 562): the AST front end (_frontend, where TileSyntaxError lives) is first needed by a
# kernel's first launch, and tt.autotune's module by an autotuned kernel; `import tegula.tile` loads neither.
_LAZY = {"TileSyntaxError": "_frontend", "Autotuned": "_autotune", "Config": "_autotune", "autotune": "_autotune"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tegula.tile' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
