"""tegula.numpy's prebuilt tile kernels (tegula/numpy/_prebuild.py): the build wrote every listed specialization into
the package, a new process with an empty disk cache finds them there (no NVRTC), and the list holds every
specialization a workload of sort, argsort, unique, searchsorted, boolean masks, advanced indexing and the random
generator launches on the CPU interpreter (the launches a GPU makes pass the same arguments)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
import tegula.tile as tt
from tegula import _tegula
from tegula.numpy import _prebuild
from numpy_util import rng  # noqa: F401

PACKAGE_DIR = os.path.join(os.path.dirname(tegula.__file__), "tegula_prebuilt_tile")


def _nvrtc():
    try:
        _tegula.nvrtc_version()
    except tegula.core.DriverNotFoundError as e:
        pytest.skip(f"NVRTC is not available, so the build prebuilt nothing: {e}")


def test_the_build_wrote_every_listed_specialization():
    _nvrtc()
    found = _prebuild.translations()
    assert len(found) > 150
    missing = [t.name for key, t in found.items() if not os.path.exists(os.path.join(PACKAGE_DIR, key + ".bin"))]
    assert not missing, f"not in {PACKAGE_DIR} (rebuild: the build's prebuild step writes them): {missing}"
    stale = [n for n in os.listdir(PACKAGE_DIR) if n.endswith(".bin") and n[:-4] not in found]
    assert not stale


def test_the_kernels_code_does_not_depend_on_where_tegula_lies():
    """The build translates from the source tree, a launch from site-packages: the generated CUDA (which the key
    hashes) names tegula's files by their path inside the package, never an absolute one."""
    kernel, args = _prebuild.specializations()[0]
    source = kernel.translation(args, 90).source
    assert "@ tegula/numpy/_sort.py:" in source
    assert os.path.dirname(os.path.dirname(tegula.__file__)) not in source


def test_a_new_process_with_an_empty_cache_finds_them_in_the_package(tmp_path):
    """No NVRTC: every image comes from the package (compile_image's cache outcome 'package')."""
    _nvrtc()
    code = (
        "from tegula.numpy import _prebuild\n"
        "from collections import Counter\n"
        "print(dict(Counter(t.compile_image('cubin')['cache'] for t in _prebuild.translations().values())))\n")
    env = dict(os.environ, TEGULA_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    outcomes = eval(r.stdout.strip().splitlines()[-1])  # noqa: S307 - the dict this test printed
    assert set(outcomes) == {"package"}, outcomes


def _workload(rng):
    """The data-dependent operations whose tile kernels the package carries, over their dtypes."""
    for d in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
              "float64"):
        x0 = (rng.integers(0, 5, 50) if d != "bool" else rng.integers(0, 2, 50)).astype(d)
        x = tnp.asarray(x0, device="cpu")
        x.sort()
        tnp.argsort(x)
        tnp.sort(x, descending=True) if d != "bool" else None
        tnp.unique(x)
        tnp.unique(x, return_counts=True, return_inverse=True)
        tnp.searchsorted(tnp.sort(x), x[:7])
        tnp.searchsorted(tnp.sort(x), x[:7], side="right")
    for d in ("bool", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64",
              "complex128"):
        x0 = rng.standard_normal(40).astype(d) if d != "bool" else rng.integers(0, 2, 40).astype(bool)
        x = tnp.asarray(x0, device="cpu")
        m = x.real > 0 if d.startswith("complex") else (x != x[0])
        x[m]
        x[m] = x[m] + x[m]
        idx = tnp.asarray(rng.integers(0, 40, 9), device="cpu")
        x[idx]
        x[idx] = x[:9]
    for d in ("bool", "int32", "int64", "float32", "float64"):
        for q in (1, 2, 3, 4, 8, 16, 32):
            a = tnp.asarray(rng.integers(0, 3, (20, q)).astype(d), device="cpu")
            idx = tnp.asarray(rng.integers(0, 20, 6), device="cpu")
            a[idx]
            a[idx] = a[:6]
    b = tnp.asarray(rng.standard_normal(30).astype("float32"), device="cpu").astype("bfloat16")
    tnp.sort(b), tnp.argsort(b), tnp.unique(b), b[b > 0], b[tnp.asarray(rng.integers(0, 30, 5), device="cpu")]
    g = tnp.random.default_rng(3)
    g.random(100)
    g.standard_normal(100)
    g.integers(0, 10, 100)


def test_every_specialization_a_workload_launches_is_listed(rng, monkeypatch):
    listed = set(_prebuild.translations())
    seen = {}
    launch = tt.launch

    def recording(kernel, grid, args, *rest, **kw):
        t = kernel.translation(tuple(args), 90)
        seen.setdefault(t.cubin_key, (kernel.__name__, [getattr(a, "dtype", a) for a in args]))
        return launch(kernel, grid, args, *rest, **kw)

    monkeypatch.setattr(tt, "launch", recording)
    _workload(rng)
    assert len(seen) > 20
    missing = [what for key, what in seen.items() if key not in listed and what[0] not in ("_hist", "_scatter")]
    assert not missing, missing  # (_hist and _scatter: the CPU's radix passes; a GPU sorts with CUB)


def test_every_mask_positions_kernel_below_cubs_scan_is_listed(rng):
    """Boolean masks of any length below CUB's scan (32768), compacted and complemented in place: every scan kernel
    (and the complement's positions) they use is one the package carries."""
    listed = set(_prebuild.translations())
    _tegula.array_record_kernels(True)
    try:
        for n in sorted(set(int(v) for v in rng.integers(1, 32768, 12))) + [2, 4095, 8191, 16383, 16385]:
            keep = tnp.asarray(rng.integers(0, 2, n).astype(bool), device="cpu")
            x = tnp.asarray(rng.standard_normal(n), device="cpu")
            x[keep]._materialize()
            tnp.logical_not(keep, keep)
            x[keep]._materialize()
    finally:
        _tegula.array_record_kernels(False)
    scans = [t for t in _tegula.array_recorded_translations(90) if " = cumsum " in t.ir.print()]
    assert scans
    missing = [t.ir.print().split("{", 1)[0] for t in scans if t.cubin_key not in listed]
    assert not missing, missing


def test_plain_scans_and_arg_reductions_of_any_length_are_listed(rng):
    """cumsum (below CUB's scan), argmax and argmin of 1-D float32/64 and int32/64 arrays of lengths the list does not
    name: every kernel they use is one the package carries (a first call of them cannot run on the array VM)."""
    listed = set(_prebuild.translations())
    _tegula.array_record_kernels(True)
    try:
        for d in ("float32", "float64", "int32", "int64"):
            for n in sorted(set(int(v) for v in rng.integers(1, 300_000, 6))) + [7, 4095, 31000]:
                x = tnp.asarray(rng.integers(-50, 50, n).astype(d), device="cpu")
                if n < 1 << 15:
                    tnp.cumsum(x)._materialize()
                tnp.argmax(x)._materialize()
                tnp.argmin(x)._materialize()
    finally:
        _tegula.array_record_kernels(False)
    missing = [t.ir.print().split("{", 1)[0] for t in _tegula.array_recorded_translations(90)
               if t.cubin_key not in listed]
    assert not missing, missing
