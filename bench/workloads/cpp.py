"""The C++ front end against its Python twins (issue #9's bar: the same speed): examples/cpp/softmax.cpp and
examples/cpp/matmul.cpp, timed by their own CUDA events, against examples/tile/softmax.py and tests/common/
matmul_kernels.matmul timed here, at the same sizes. The C++ examples come from the CMake build that
scripts/gpu_check.sh makes in build/gpu (TEGULA_CPP_EXAMPLES_DIR overrides)."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

from common import Skip, guarded, row, torch_cuda as _torch
from timing import torch_event_ms

W = "cpp"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))


def _binary(name):
    for d in (os.environ.get("TEGULA_CPP_EXAMPLES_DIR", ""), os.path.join(ROOT, "build", "gpu"),
              os.path.join(ROOT, "build", "dev")):
        path = os.path.join(d, f"tegula_example_{name}") if d else ""
        if path and os.path.isfile(path):
            return path
    raise Skip(f"tegula_example_{name} is not built (scripts/gpu_check.sh builds it in build/gpu)")


def _run(path, *args):
    out = subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"{os.path.basename(path)} failed: {(out.stdout + out.stderr)[-500:]}")
    return out.stdout


def _softmax(ctx):
    torch = _torch()
    import tegula.tile as tt

    rows, cols = (4096, 4096) if ctx.quick else (32768, 4096)
    text = _run(_binary("softmax"), "--bench", rows, cols)
    cpp = float(re.search(r"([0-9.]+) GB/s", text).group(1))
    spec = importlib.util.spec_from_file_location("softmax_example", os.path.join(ROOT, "examples", "tile", "softmax.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = torch.randn(rows, cols, device="cuda")
    out = torch.empty_like(x)
    fn = lambda: tt.launch(mod.softmax, grid=rows, args=(x, out, cols))  # noqa: E731
    ms = torch_event_ms(fn, repeat=ctx.pick(20, 5))
    py = 2 * 4 * rows * cols / (ms * 1e-3) / 1e9
    return [row(W, "tegula (C++)", "softmax_GBps", cpp, "GB/s", better="higher", ratio_vs=["tegula (Python)"],
                note=f"{rows}x{cols} fp32, examples/cpp/softmax.cpp"),
            row(W, "tegula (Python)", "softmax_GBps", py, "GB/s", better="higher", note="examples/tile/softmax.py")]


def _matmul(ctx):
    torch = _torch()
    import matmul_kernels as K
    import tegula.tile as tt

    n = 4096 if ctx.quick else 8192
    text = _run(_binary("matmul"), "--bench", n)
    cpp = float(re.search(r"([0-9.]+) TFLOP/s", text).group(1))
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    fn = lambda: tt.launch(K.matmul, grid=K.grid(n, n, 128, 256), args=(a, b, c, 128, 256, 64, 8))  # noqa: E731
    ms = torch_event_ms(fn, repeat=ctx.pick(10, 3))
    py = 2 * n ** 3 / (ms * 1e-3) / 1e12
    return [row(W, "tegula (C++)", f"matmul_tflops_{n}_bf16", cpp, "TFLOP/s", better="higher",
                ratio_vs=["tegula (Python)"], note="examples/cpp/matmul.cpp"),
            row(W, "tegula (Python)", f"matmul_tflops_{n}_bf16", py, "TFLOP/s", better="higher",
                note="tests/common/matmul_kernels.py matmul")]


def run(ctx):
    ctx.require_gpu()
    return guarded(W, "softmax", lambda: _softmax(ctx)) + guarded(W, "matmul", lambda: _matmul(ctx))
