"""Which scan a cumsum/cumprod takes: the array engine's (one block per row: right for many rows), the chunked tile
scan of _scan (few long rows on a GPU), or for one long row on a GPU a single-pass library scan
(cpp/tegula/libs/scan_arrays.hpp: tegula's chained scan for float32, CUB's for the rest) that reads each element
once, where the chunked scan reads it twice. 16-bit floats and complex numbers stay on the chunked scan or the
engine."""
from __future__ import annotations

from . import _core, _cub

_MIN_COLS = 1 << 15  # shorter rows: the engine's scan


def applies(a, axis):
    """True on a GPU when the scan of a along `axis` is long enough, over few enough rows, to be split into chunks
    (on the CPU the engine's scan is already one pass per row)."""
    if a._device_id < 0 or a._dtype_name.startswith("complex") or not -a.ndim <= axis < a.ndim:
        return False
    cols = a.shape[axis]
    rows = a.size // cols if cols else 0
    return cols >= _MIN_COLS and 0 < rows < 256


_CUB_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")


def cub_applies(a, axis):
    """True when the scan is of one long row on a GPU with CUB available, in a dtype CUB's scan takes."""
    if not applies(a, axis) or a._dtype_name not in _CUB_TYPES:
        return False
    return a.size == a.shape[axis] and _cub.ready(a)


def single_pass_scan(op, a, axis):
    """cumsum/cumprod of the single row of a along `axis` in one pass, in NumPy's result dtype. Which engine runs
    (tegula's chained scan for float32, CUB's for the rest) and its tile are chosen in C++
    (cpp/tegula/libs/scan_arrays.hpp; _tegula.scan_engine / set_scan_engine)."""
    return _core._tegula.inclusive_scan(a, op == "cumprod")


def result_dtype(dtype_name):
    """NumPy's cumsum/cumprod result: bool and signed integers widen to int64, unsigned ones to uint64."""
    if dtype_name == "bool" or dtype_name.startswith("int"):
        return "int64"
    if dtype_name.startswith("uint"):
        return "uint64"
    return dtype_name
