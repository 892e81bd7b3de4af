"""tegula.numpy's tile kernels built into the package (issue #26: no first call waits for NVRTC where a ready kernel
can do the work). The tile kernels behind its data-dependent operations -- sort and search keys, compaction, advanced
indexing, searchsorted, random words, integer products, chunked scans -- are translated for sm_90 with no GPU, in
the specializations their callers launch, and so are the array engine's kernels of its fixed helper expressions (a
boolean mask's positions scan in every tile class; array_kernels()); NVRTC compiles them into
<package>/tegula_prebuilt_tile (cpp/tegula/jit/prebuilt.hpp). A launch looks its cubin up there after the disk cache and before NVRTC (a profile
lists such a compile with detail "package").

The build runs `python -m tegula.numpy._prebuild DIR` once the extension is built (CMakeLists.txt). The list below
is explicit: each entry passes what its caller passes (the same dtypes, constants, Python scalar types and array
layouts), so its translation's key is the key the launch looks up. tests/python/test_numpy_prebuild.py records
the launches a workload of those operations makes on the CPU interpreter and checks each one is listed; the GPU
test (tests/gpu/test_gpu_prebuilt.py) checks that a first call finds them.
"""
from __future__ import annotations

import concurrent.futures
import os
import sys
import time

import numpy as _np

_KEY_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
               "bfloat16", "float32", "float64")
_COMMON = ("bool", "uint8", "int32", "int64", "float32", "float64")
_ALL = _KEY_DTYPES + ("complex64", "complex128")
_COLUMNS = (1, 2, 3, 4, 8, 16, 32)  # advanced indexing's gathered/scattered row widths (Q) of the common dtypes


def _host(shape, dtype):
    """A host view of a fresh tegula CPU array: what tegula.numpy's _launch hands the interpreter, with the layout
    (contiguous, 16-byte aligned where a GPU allocation is) a launch of a fresh GPU array declares."""
    from . import _creation
    from ._indexing import host_arg

    return host_arg(_creation.empty(shape, dtype, device="cpu"))


def specializations():
    """[(kernel, args)]: every specialization the package carries."""
    from . import _generator, _index_kernels, _matmul, _scan, _sort
    from ._indexing import indexed_tiles
    from ._scan_engines import result_dtype

    out = []
    for d in _KEY_DTYPES:  # sort, argsort, unique, searchsorted keys
        kd = "uint64" if _sort._key_bits(d) == 64 else "uint32"
        for desc in (False, True):
            for signed_zero in (False, True):
                out.append((_sort._keys, (_host((8,), d), _host((8,), kd), 8, desc, _sort._T, signed_zero)))
            out.append((_sort._unkeys, (_host((8,), kd), _host((8,), d), 8, desc, _sort._T)))
    for kd in ("uint32", "uint64"):
        for right in (False, True):
            out.append((_sort._bsearch, (_host((8,), kd), _host((8,), kd), _host((8,), "int64"), 8, 8, 4, right,
                                         _sort._T)))
    T = _index_kernels.TILE
    for d in _ALL:  # boolean masks: x[m] (compress) and x[m] = v (expand); complex as its float pairs
        width, part = (2, "float32" if d == "complex64" else "float64") if d.startswith("complex") else (1, d)
        spread, packed = _host((8 * width,), part), _host((4 * width,), part)
        keep, pos = _host((8,), "bool"), _host((8,), "int64")
        out.append((_index_kernels.compress, (spread, keep, pos, packed, T, width)))
        out.append((_index_kernels.expand, (spread, keep, pos, packed, T, width)))
    for d in _KEY_DTYPES:  # advanced indexing: gathers and scatters of rows Q wide (complex: its float parts)
        for q in (_COLUMNS if d in _COMMON else (1,)):
            TR, TC, col_tiles = indexed_tiles(q)
            idx = _host((8,), "int64")
            for write in (False, True):
                out.append((_index_kernels.indexed, (_host((64,), d), idx, idx, idx, _host((8, q), d), 1, 1,
                                                     col_tiles, TR, TC, False, False, write)))
    out.append((_generator._philox, (_host((8, 4), "uint32"), _np.uint32(1), _np.uint32(2), _np.uint64(3),
                                     _generator._T)))
    for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):  # integer products
        for k in (3, 64):  # rows of k elements: unaligned and 16-byte aligned
            out.append((_matmul._int_kernel(), (_host((1, 8, k), d), _host((1, k, 8), d), _host((1, 8, 8), d), 32,
                                                32, 16)))
    for d in ("bool", "int32", "int64", "float16", "float32", "float64"):  # long scans of a few rows
        acc = "float32" if result_dtype(d) in ("float16", "bfloat16") else result_dtype(d)
        for mul in (False, True):
            x, totals = _host((2, 4096), d), _host((2, 4), acc)
            out.append((_scan._totals, (x, totals, 4096, 1, mul, _scan._T)))
            out.append((_scan._scan_chunks, (x, totals, _host((2, 4096), result_dtype(d)), 4096, 1, mul, _scan._T)))
    return out


# Mask lengths that reach every tile class of the positions scan a boolean mask needs below CUB's scan (shorter than
# _scan_engines._MIN_COLS): one row (rows kernel) up to 8192, scan_loop past it, (R, 4096) rows from 4 * 4096 on.
_MASK_SIZES = (1, 5, 200, 256, 257, 1000, 1024, 1025, 3000, 4096, 4097, 8192, 8193, 12000, 16384, 20000, 32767)


# 1-D lengths that reach every tile class of a plain scan or arg-reduction (the split kernel with partials from 2^15)
_REDUCE_SIZES = _MASK_SIZES + (100_000, 1_000_000)


def array_kernels(arch=90):
    """The array engine's kernels of tegula.numpy's fixed helper expressions, as the interpreter plans them (the plans
    a GPU makes): a boolean mask's positions (the inclusive scan of its int64 cast, and the complement's positions
    a logical_not in place derives from them) for every tile class below CUB's scan; and the plain 1-D forms the
    array VM cannot run on a first call (scans and arg-reductions have no VM form): cumsum below CUB's scan,
    argmax and argmin, of float32/64 and int32/64 arrays."""
    from tegula import _tegula

    from . import _creation, _reductions, _ufuncs
    from ._scan_engines import _MIN_COLS

    _tegula.array_record_kernels(True)
    try:
        for n in _MASK_SIZES:
            keep = _creation.asarray(_np.arange(n) % 3 == 0, device="cpu")
            x = _creation.zeros((n,), "float64", device="cpu")
            x[keep]._materialize()
            _ufuncs.logical_not(keep, out=keep)
            x[keep]._materialize()
        for d in ("float32", "float64", "int32", "int64"):
            for n in _REDUCE_SIZES:
                x = _creation.asarray(_np.arange(n).astype(d), device="cpu")
                if n < _MIN_COLS:  # longer ones are CUB's scan (prebuilt with the library kernels)
                    _reductions.cumsum(x)._materialize()
                _reductions.argmax(x)._materialize()
                _reductions.argmin(x)._materialize()
    finally:
        _tegula.array_record_kernels(False)
    return _tegula.array_recorded_translations(arch)


def translations(arch=90):
    """{cubin key: KernelTranslation} of every specialization and helper kernel for `arch`."""
    found = {}
    for kernel, args in specializations():
        t = kernel.translation(args, arch)
        found.setdefault(t.cubin_key, t)
    for t in array_kernels(arch):
        found.setdefault(t.cubin_key, t)
    return found


def build(directory, arch=90, threads=None):
    """Writes every specialization's cubin into `directory` (kept where its key is already there) and removes the
    entries no specialization asks for; returns (kernels, compiled)."""
    os.makedirs(directory, exist_ok=True)
    found = translations(arch)
    for name in os.listdir(directory):
        if name.endswith(".bin") and name[:-4] not in found:
            os.remove(os.path.join(directory, name))
    todo = [t for key, t in found.items() if not os.path.exists(os.path.join(directory, key + ".bin"))]
    with concurrent.futures.ThreadPoolExecutor(threads or os.cpu_count() or 1) as pool:
        for key in pool.map(lambda t: t.prebuild(directory), todo):
            assert key in found
    return len(found), len(todo)


def main(argv):
    if len(argv) != 1:
        print("usage: python -m tegula.numpy._prebuild DIR", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    from tegula import core

    try:
        n, compiled = build(argv[0])
    except core.DriverNotFoundError as e:  # no NVRTC on the build machine: the kernels compile on first use
        print(f"tegula-prebuild: tegula.numpy's tile kernels not prebuilt ({e}); they compile on first use")
        return 0
    print(f"tegula-prebuild: {n} tile and helper kernels of tegula.numpy for sm_90 in {argv[0]} ({compiled} compiled, "
          f"{n - compiled} kept, {time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
