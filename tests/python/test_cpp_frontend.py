"""The C++ front end's examples give the same tile IR as their Python twins (issue #9's bar): examples/cpp/softmax.cpp
against examples/tile/softmax.py and examples/cpp/matmul.cpp against tests/common/matmul_kernels.py, over several
shapes, and both run correctly (on the GPU when there is one, else on the CPU interpreter). The examples are built
by the CMake developer build (./dev.sh test); a pip install has none, and these tests then skip, saying so."""
import importlib.util
import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_DIRS = [os.environ.get("TEGULA_CPP_EXAMPLES_DIR", ""), os.path.join(ROOT, "build", "dev"),
              os.path.join(ROOT, "build", "gpu")]


def example(name):
    for d in BUILD_DIRS:
        path = os.path.join(d, f"tegula_example_{name}") if d else ""
        if path and os.path.isfile(path):
            return path
    pytest.skip(f"tegula_example_{name} is not built (./dev.sh test builds it; set TEGULA_CPP_EXAMPLES_DIR otherwise)")


def run(path, *args):
    out = subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def load_python_softmax():
    spec = importlib.util.spec_from_file_location("softmax_example", os.path.join(ROOT, "examples", "tile", "softmax.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.softmax


@pytest.mark.parametrize("stage", [None, "verify", "cse"])
@pytest.mark.parametrize("cols", [1000, 4096, 7])
def test_softmax_ir_matches_python(cols, stage):
    """The same builder calls in the same order: the IR is equal before the passes too, not only after them."""
    softmax = load_python_softmax()
    x = np.zeros((4, cols), np.float32)
    extra = [stage] if stage else []
    assert run(example("softmax"), "--ir", cols, *extra).rstrip("\n") == softmax.ir(x, x, cols, stage=stage).rstrip("\n")


@pytest.mark.parametrize("stage", [None, "verify"])
@pytest.mark.parametrize("m,n,k", [(256, 256, 128), (4000, 4100, 3900), (8192, 8192, 8192)])
def test_matmul_ir_matches_python(m, n, k, stage):
    import matmul_kernels as K

    # Only dtypes, ranks and constants enter the IR (extents are run-time values), so small arrays stand in.
    a, b, c = (np.zeros((2, 2), np.float16) for _ in range(3))
    extra = [stage] if stage else []
    got = run(example("matmul"), "--ir", m, n, k, *extra).rstrip("\n")
    assert got == K.matmul.ir(a, b, c, 128, 256, 64, 8, stage=stage).rstrip("\n")


def test_examples_run_correctly():
    assert "max error" in run(example("softmax"))
    assert "relative error" in run(example("matmul"))


def _python_absmax_cumprod():
    """The Python twin of examples/cpp/custom_combine.cpp."""
    import tegula.tile as tt

    @tt.kernel
    def absmax_cumprod(x, out_max, out_scan, C: tt.Constant[int]):
        row = tt.bid(0)
        v = tt.load(x, index=(row, 0), shape=(1, C))
        m = tt.reduce(v, 1, lambda a, b: tt.maximum(tt.abs(a), tt.abs(b)), 0.0, keepdims=True)
        tt.store(out_max, index=(row, 0), tile=m)
        s = tt.scan(v, 1, lambda a, b: a * b, 1.0)
        tt.store(out_scan, index=(row, 0), tile=s)

    return absmax_cumprod


@pytest.mark.parametrize("stage", [None, "verify"])
@pytest.mark.parametrize("cols", [64, 100])
def test_custom_reduce_and_scan_ir_matches_python(cols, stage):
    """tt::reduce / tt::scan with C++ lambdas as combine functions build the IR Python's tt.reduce / tt.scan build."""
    k = _python_absmax_cumprod()
    x, m = np.zeros((16, cols), np.float32), np.zeros((16, 1), np.float32)
    extra = [stage] if stage else []
    got = run(example("custom_combine"), "--ir", cols, *extra).rstrip("\n")
    assert got == k.ir(x, m, x, cols, stage=stage).rstrip("\n")
    assert "relative error" in run(example("custom_combine"))
