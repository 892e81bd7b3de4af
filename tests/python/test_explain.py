"""The code analyzer (tegula.explain and `tegula explain`): IR stages, CUDA, PTX, resources from ptxas and occupancy,
for tile kernels, fused tegula.numpy expressions and raw Programs. NVRTC compiles for sm_90 without a GPU."""
import contextlib
import io
import os

import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from tegula import _explain as E
from tegula.core import Program
from tile_kernels import softmax

try:
    tegula._tegula.nvrtc_version()
    HAVE_NVRTC = True
except tegula.TegulaError:
    HAVE_NVRTC = False
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_nvrtc = pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC is not installed on this machine")


AXPY = 'extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {\n' \
       '  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n'


def test_occupancy_arithmetic():
    o = E.occupancy(90, 64, 0, 256)  # 64 regs x 32 = 2048 per warp -> 32 warps -> 4 blocks of 8 warps
    assert (o["blocks_per_sm"], o["warps_per_sm"], o["limited_by"]) == (4, 32, "registers")
    assert E.occupancy(90, 32, 0, 1024)["blocks_per_sm"] == 2  # 64 warps / 32
    assert E.occupancy(90, 16, 0, 32) == {"block_threads": 32, "blocks_per_sm": 32, "warps_per_sm": 32,
                                          "occupancy": 0.5, "limited_by": "blocks"}
    s = E.occupancy(90, 32, 100 * 1024, 128)  # 100 KiB + 1 KiB reserved per block -> 2 blocks in 228 KiB
    assert (s["blocks_per_sm"], s["limited_by"]) == (2, "shared memory")
    assert E.occupancy(90, 32, 300 * 1024, 128)["blocks_per_sm"] == 0
    assert E.occupancy(86, 32, 0, 1024)["blocks_per_sm"] == 1  # 48 warps per SM on sm_86
    with pytest.raises(ValueError, match="1..1024"):
        E.occupancy(90, 32, 0, 2048)


def test_ptxas_report_parsing():
    log = ("ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Function properties for k\n"
           "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
           "ptxas info    : Used 99 registers, used 1 barriers, 4096 bytes smem, 380 bytes cmem[0]\n")
    assert E._parse_ptxas(log)["k"] == {"registers": 99, "spill_stores": 8, "spill_loads": 4, "stack_frame": 16,
                                        "static_shared": 4096, "barriers": 1, "constant": 380}


@needs_nvrtc
def test_tile_kernel_report():
    x = np.random.rand(64, 1024).astype(np.float32)
    r = tegula.explain(softmax, x, np.empty_like(x), 1024, arch=90)
    assert r.stages == list(tegula._tegula.pipeline_stages())
    assert r.ir().startswith("func @softmax") and "exp" in r.ir("canonicalize")
    with pytest.raises(ValueError, match="no stage"):
        r.ir("nope")
    assert "softmax" in r.source and ".entry" in r.ptx
    res = r.resources
    assert res["registers"] > 0 and res["spill_stores"] == 0 and res["dynamic_shared"] == r.dynamic_shared
    o = r.occupancy()
    assert o["block_threads"] == r.block_threads and 0 < o["occupancy"] <= 1
    assert [t["block_threads"] for t in r.occupancy_table()][0] == r.block_threads
    text = str(r)
    assert "kernel softmax (sm_90)" in text and "registers" in text and "occupancy" in text


@needs_nvrtc
def test_tile_matmul_report_names_its_clusters():
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
    import matmul_kernels as K

    z = np.zeros((256, 256), np.float16)
    text = str(tegula.explain(K.matmul.with_options(cluster=2), z, z, z, 128, 256, 64, 8, arch=90))
    assert "clusters of 2 blocks" in text and "TMA tensor maps" in text
    assert "clusters of" not in str(tegula.explain(K.matmul, z, z, z, 128, 256, 64, 8, arch=90))


@needs_nvrtc
def test_fused_array_report():
    a = tnp.asarray(np.random.rand(100, 300).astype(np.float32))
    y = tnp.exp(-a * a) * a + 0.5 * a
    r = tegula.explain(y, arch=90)
    assert "exp" in r.ir() and r.stages == ["final"]
    assert "__global__" in r.source and r.resources["registers"] > 0
    np.testing.assert_allclose(y.get(), np.exp(-a.get() ** 2) * a.get() + 0.5 * a.get(), rtol=1e-6)
    with pytest.raises(ValueError, match="pending"):
        tegula.explain(y)


@needs_nvrtc
def test_tile_array_and_ir_reports_go_through_the_kernel_module(monkeypatch):
    # One compile driver (cpp/tegula/kernel): the reports run no pass pipeline, codegen or Program of their own.
    def refuse(*args, **kwargs):
        raise AssertionError("a report drove the compiler itself")

    for name in ("run_pipeline", "generate_kernel", "generate_cuda"):
        monkeypatch.setattr(tegula._tegula, name, refuse)
    monkeypatch.setattr(Program, "compile", refuse)
    x = np.random.rand(8, 256).astype(np.float32)
    tile = tegula.explain(softmax, x, np.empty_like(x), 256, arch=80)
    a = tnp.asarray(x)
    array = tegula.explain(tnp.sin(a) * 2, arch=80)
    with open(os.path.join(ROOT, "tests/ir/dce_basic.tir")) as f:
        ir = E.for_ir(f.read(), "dce_basic.tir", arch=80)
    for r in (tile, array, ir):
        assert ".target sm_80" in r.ptx and r.resources["registers"] > 0 and "sm_80" in str(r)
    # The report's cubin is the request the kernel module's launches compile (the -v report is its own entry).
    t = softmax.translation((x, np.empty_like(x), 256), 80)
    assert t.options == [] and t.program_name == "softmax.cu" and t.source == tile.source
    assert t.compile_image("cubin")["key"] != t.compile_image("cubin_with_resources")["key"]
    with pytest.raises(ValueError, match="'cubin', 'ptx' or 'cubin_with_resources'"):
        t.compile_image("sass")


@needs_nvrtc
def test_program_report():
    r = tegula.explain(Program(AXPY))
    assert r.name == "axpy" and r.resources["registers"] > 0
    assert r.occupancy(256)["occupancy"] > 0
    with pytest.raises(ValueError, match="no fixed block size"):
        r.occupancy()
    with pytest.raises(ValueError, match="no tile IR"):
        r.ir()
    two = Program(AXPY + AXPY.replace("axpy", "axpy2"))
    with pytest.raises(ValueError, match="2 extern"):
        tegula.explain(two)
    assert tegula.explain(two, "axpy2").resources["registers"] > 0
    tmpl = Program("template <class T> __global__ void fill(T* p, T v) { p[threadIdx.x] = v; }")
    assert tegula.explain(tmpl, "fill<double>").resources["registers"] > 0


@needs_nvrtc
def test_sass_or_a_clear_error():
    r = tegula.explain(Program(AXPY))
    if E._tool("nvdisasm") or E._tool("cuobjdump"):
        assert "axpy" in r.sass
    else:
        with pytest.raises(FileNotFoundError, match="nvdisasm or cuobjdump"):
            r.sass


def test_bad_input():
    with pytest.raises(TypeError, match="explain\\(\\) takes"):
        tegula.explain(42)
    with pytest.raises(ValueError, match="dtype\\[shape\\]"):
        E.parse_args_spec("float32[4,4] @@")
    args = E.parse_args_spec("f32[2,3] int64[5] 7 2.5")
    assert args[0].shape == (2, 3) and args[0].dtype == np.float32 and args[1].dtype == np.int64 and args[2:] == [7, 2.5]


@needs_nvrtc
def test_cli(tmp_path):
    from tegula import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["explain", os.path.join(ROOT, "examples/tile/softmax.py") + ":softmax", "--args",
                         "float32[128,4096] float32[128,4096] 4096", "--arch", "90"]) == 0
    assert "kernel softmax (sm_90)" in out.getvalue() and "occupancy by block size" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["explain", os.path.join(ROOT, "tests/ir/dce_basic.tir"), "--show", "stages"]) == 0
    assert "// ---- after cse ----" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["explain", os.path.join(ROOT, "tests/ir/dce_basic.tir"), "--show", "resources"]) == 0
    assert "registers:" in out.getvalue()
