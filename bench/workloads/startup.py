"""Startup costs: `import` of tegula and the anchors, a new process that compiles and launches one kernel
(cold and warm disk cache), and the in-process compile-cache hit."""
from __future__ import annotations

import json
import shutil
import tempfile
import time

from common import Skip, guarded, row, skipped
from timing import median, process_wall_s

W = "startup"
KERNEL = r'''
extern "C" __global__ void saxpy(float* y, const float* x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
'''

# Child programs: each prints one JSON line. argv[1] = 'gpu' or 'ptx' (tegula without a GPU: compile only).
TEGULA_CHILD = '''
import sys, json, time
t0 = time.perf_counter()
import tegula.core as tc
src = %r
p = tc.Program(src)
t_import = time.perf_counter() - t0
t_cuda = 0.0
if sys.argv[1] == "gpu":
    t1 = time.perf_counter()
    dev = tc.Device(); dev.set_current()
    t_cuda = time.perf_counter() - t1
    k = p.compile().get_kernel("saxpy")
    y = tc.Buffer.allocate(4096); x = tc.Buffer.allocate(4096)
    tc.launch(dev.default_stream, tc.LaunchConfig(grid=(4,), block=(256,)), k, y, x, 1024, 2.0)
    dev.sync()
else:
    p.compile(target_type="ptx")
print(json.dumps({"cache": p.last_compile["cache"], "compile_s": p.last_compile["seconds"],
                  "import_s": t_import, "cuda_init_s": t_cuda, "in_process_s": time.perf_counter() - t0}))
''' % KERNEL

CUPY_CHILD = '''
import json, time
t0 = time.perf_counter()
import cupy, numpy as np
k = cupy.RawKernel(%r, "saxpy")
y = cupy.empty(1024, dtype=cupy.float32); x = cupy.empty(1024, dtype=cupy.float32)  # no fill kernels to compile
k((4,), (256,), (y, x, np.int32(1024), np.float32(2.0)))
cupy.cuda.Device().synchronize()
print(json.dumps({"in_process_s": time.perf_counter() - t0}))
''' % KERNEL

CUDA_CORE_CHILD = '''
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, %r)
from common import import_cuda_core
import numpy as np
cc = import_cuda_core()
dev = cc.Device(); dev.set_current(); s = dev.create_stream()
prog = cc.Program(%r, code_type="c++", options=cc.ProgramOptions(std="c++17", arch="sm_" + dev.arch))
k = prog.compile("cubin").get_kernel("saxpy")
y = dev.allocate(4096, stream=s); x = dev.allocate(4096, stream=s)
cc.launch(s, cc.LaunchConfig(grid=4, block=256), k, y, x, np.int32(1024), np.float32(2.0))
s.sync()
print(json.dumps({"in_process_s": time.perf_counter() - t0}))
'''

CUDA_CORE_IMPORT = '''
try:
    from cuda.core import Device
except ImportError:
    from cuda.core.experimental import Device
'''


# The first result of a small NumPy program in a new process (issue #26): arange, sin/cos, a sum and a 512x256
# softmax. {np} is the library's module; the child prints seconds from its first line to the result, in process.
FIRST_RESULT_CHILD = '''
import json, time
t0 = time.perf_counter()
{imports}
x = np.arange(1 << 16, dtype=np.float32) / 4096
y = np.sin(x) * np.cos(x) + 1
s = float(y.sum())
a = np.arange(512 * 256, dtype=np.float32).reshape(512, 256) / 1000
e = np.exp(a - a.max(axis=1, keepdims=True))
p = e / e.sum(axis=1, keepdims=True)
v = float(p[7, 9])
t = time.perf_counter() - t0
{tail}
print(json.dumps({{"first_result_s": t, "sum": s, "p": v}}))
'''
TORCH_FIRST_RESULT_CHILD = '''
import json, time
t0 = time.perf_counter()
import torch
x = torch.arange(1 << 16, dtype=torch.float32, device="cuda") / 4096
y = torch.sin(x) * torch.cos(x) + 1
s = float(y.sum())
a = torch.arange(512 * 256, dtype=torch.float32, device="cuda").reshape(512, 256) / 1000
e = torch.exp(a - a.amax(dim=1, keepdim=True))
p = e / e.sum(dim=1, keepdim=True)
v = float(p[7, 9])
t = time.perf_counter() - t0
print(json.dumps({"first_result_s": t, "sum": s, "p": v}))
'''
FIRST_RESULT = {
    "tegula.numpy": ("import tegula.numpy as np", "", "TEGULA_CACHE_DIR"),
    "cupy": ("import cupy as np", "", "CUPY_CACHE_DIR"),
    "torch": (None, "", None),
}


def _first_result(ctx):
    """First result of FIRST_RESULT_CHILD in new processes, cold (an empty cache directory) and warm (the same one
    again), in process time from the child's first line (interpreter start excluded: the python row)."""
    if ctx.dev is None:
        raise Skip(ctx.gpu_reason)
    rows = []
    n = ctx.pick(3, 2)
    for impl, (imports, tail, cache_env) in FIRST_RESULT.items():
        mod = impl.split(".")[0]

        def one(impl=impl, imports=imports, tail=tail, cache_env=cache_env, mod=mod):
            _require_module(mod)
            code = TORCH_FIRST_RESULT_CHILD if imports is None else FIRST_RESULT_CHILD.format(imports=imports, tail=tail)
            dirs, cold, warm = [], [], []
            try:
                for _ in range(n):
                    dirs.append(tempfile.mkdtemp(prefix="tegula-bench-first-"))
                    env = {cache_env: dirs[-1]} if cache_env else None
                    _, out = process_wall_s(code, env=env, repeat=1)
                    cold.append(json.loads(out.strip().splitlines()[-1])["first_result_s"])
                    _, out = process_wall_s(code, env=env, repeat=1)
                    warm.append(json.loads(out.strip().splitlines()[-1])["first_result_s"])
            finally:
                for d in dirs:
                    shutil.rmtree(d, ignore_errors=True)
            bars = (dict(bar=0.30, ratio_vs=["cupy", "torch"]), dict(bar=0.20, ratio_vs=["cupy", "torch"])) \
                if impl == "tegula.numpy" else ({}, {})
            return [row(W, impl, "first_result_cold_s", median(cold), "s", **bars[0],
                        note="new process, empty cache: arange, sin*cos, sum, 512x256 softmax (in-process time)"),
                    row(W, impl, "first_result_warm_s", median(warm), "s", **bars[1],
                        note="the same program again with that cache (in-process time)")]

        rows += guarded(W, impl, one)
    return rows


def _bench_dir():
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _require_module(name):
    """Skip (rather than fail) an anchor that is not installed."""
    import importlib.util

    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise Skip(f"{name} is not installed")


def _imports(ctx):
    rows = []
    n_tegula, n_anchor = ctx.pick(5, 3), ctx.pick(3, 1)
    base = median(process_wall_s("pass", repeat=n_tegula)[0])
    rows.append(row(W, "python (empty)", "import_s", base, "s", note="interpreter start, included in all"))
    cases = [("tegula", "import tegula", n_tegula, dict(bar=0.2, ratio_vs=["cuda.core", "cupy", "torch"])),
             ("tegula.core", "import tegula.core", n_tegula, {}),
             ("tegula.numpy", "import tegula.numpy", n_tegula, dict(bar=0.15)),  # issue #26: what can wait, waits
             ("numpy", "import numpy", n_tegula, {}),  # tegula.numpy's floor: it imports NumPy
             ("cuda.core", CUDA_CORE_IMPORT, n_anchor, {}),
             ("cupy", "import cupy", n_anchor, {}),
             ("torch", "import torch", n_anchor, {})]

    def one(impl, code, n, extra):
        _require_module(impl)
        return row(W, impl, "import_s", median(process_wall_s(code, repeat=n)[0]), "s", **extra)

    for case in cases:
        rows += guarded(W, case[0], lambda: one(*case))
    return rows


def _cold_warm(impl, code, args, cache_env, n, check=None, **extra):
    """New-process wall time with an empty cache dir (a fresh one per run), then warm (the last dir again)."""
    dirs, cold, warm, cold_out, warm_out = [], [], [], [], []
    try:
        for _ in range(n):
            dirs.append(tempfile.mkdtemp(prefix="tegula-bench-cache-"))
            t, out = process_wall_s(code, args, env={cache_env: dirs[-1]} if cache_env else None, repeat=1)
            cold.append(t[0])
            cold_out.append(out)
        for _ in range(n):
            t, out = process_wall_s(code, args, env={cache_env: dirs[-1]} if cache_env else None, repeat=1)
            warm.append(t[0])
            warm_out.append(out)
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
    note = check(cold_out, warm_out) if check else None
    bars = extra.pop("bars", (None, None))
    return [row(W, impl, "new_process_compile_cold_s", median(cold), "s", bar=bars[0], note=note, **extra),
            row(W, impl, "new_process_compile_warm_s", median(warm), "s", bar=bars[1], note=note, **extra)]


def _tegula_check(cold_out, warm_out):
    def info(outs):
        return [json.loads(o.strip().splitlines()[-1]) for o in outs]

    cold, warm = info(cold_out), info(warm_out)
    note = (f"compile cold {median([c['compile_s'] for c in cold]):.3f}s warm {median([w['compile_s'] for w in warm]):.4f}s;"
            f" cache {sorted({c['cache'] for c in cold})}/{sorted({w['cache'] for w in warm})};"
            f" warm: import {median([w['import_s'] for w in warm]):.3f}s, CUDA init {median([w['cuda_init_s'] for w in warm]):.3f}s,"
            f" in-process {median([w['in_process_s'] for w in warm]):.3f}s")
    if any(c["cache"] != "compiled" for c in cold) or any(w["cache"] != "disk" for w in warm):
        note += " UNEXPECTED cache states"
    return note


def _new_process(ctx):
    n = ctx.pick(3, 1)
    rows = []
    if ctx.dev is None:
        impl = "tegula (ptx, no GPU)"
        rows += guarded(W, impl, lambda: _cold_warm(impl, TEGULA_CHILD, ["ptx"], "TEGULA_CACHE_DIR", n, _tegula_check))
        return rows + [skipped(W, a, f"new-process compile+launch needs a GPU: {ctx.gpu_reason}")
                       for a in ("tegula", "cupy", "cuda.core")]
    rows += guarded(W, "tegula", lambda: _cold_warm("tegula", TEGULA_CHILD, ["gpu"], "TEGULA_CACHE_DIR", n,
                                                    _tegula_check, bars=(0.5, 0.25), ratio_vs=["cupy", "cuda.core"]))
    rows += guarded(W, "cupy", lambda: _require_module("cupy") or _cold_warm("cupy", CUPY_CHILD, [], "CUPY_CACHE_DIR", n))
    rows += guarded(W, "cuda.core", lambda: _require_module("cuda.core") or _cold_warm("cuda.core", CUDA_CORE_CHILD % (_bench_dir(), KERNEL), [],
                                                       None, n, lambda c, w: "no disk cache: warm = cold"))
    return rows


def _cache_hit(ctx):
    tc = ctx.tc
    if tc is None:
        raise Skip(ctx.gpu_reason)
    target = None if ctx.dev is not None else "ptx"
    tc.Program(KERNEL).compile(target_type=target)
    n = ctx.pick(1000, 200)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            p = tc.Program(KERNEL)
            p.compile(target_type=target)
        times.append((time.perf_counter() - t0) * 1e6 / n)
    if p.last_compile["cache"] != "memory":
        raise RuntimeError(f"expected an in-memory cache hit, got {p.last_compile['cache']!r}")
    return row(W, "tegula", "cache_hit_us", median(times), "us", bar=50,
               note=None if ctx.dev is not None else "no GPU: ptx target")


def run(ctx):
    rows = _imports(ctx)
    rows += guarded(W, "tegula.numpy", lambda: _first_result(ctx))
    rows += _new_process(ctx)
    rows += guarded(W, "tegula", lambda: _cache_hit(ctx))
    return rows
