"""Program/ProgramOptions through NVRTC (no GPU needed): targets, name expressions, errors."""
import io

import pytest

import tegula.core as tc

AXPY = r"""
template <class T> __global__ void axpy(T* y, const T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
extern "C" __global__ void plain(float* y) { y[threadIdx.x] = 1.0f; }
"""


def test_ptx_and_cubin_for_an_explicit_arch():
    ptx = tc.Program(AXPY, options=tc.ProgramOptions(arch="sm_90")).compile("ptx")
    assert ptx.code_type == "ptx" and b".entry plain" in ptx.code and b".target sm_90" in ptx.code
    cubin = tc.Program(AXPY, options=tc.ProgramOptions(arch=90)).compile("cubin")
    assert cubin.code_type == "cubin" and cubin.code[:4] == b"\x7fELF"


def test_arch_specific_target():
    ptx = tc.Program(AXPY, options=tc.ProgramOptions(arch="sm_90a")).compile("ptx")
    assert b".target sm_90a" in ptx.code


def test_name_expressions_map_to_mangled_names():
    obj = tc.Program(AXPY, options=tc.ProgramOptions(arch=90)).compile(
        "ptx", name_expressions=["axpy<float>", "axpy<double>"])
    names = obj.name_expressions
    assert set(names) == {"axpy<float>", "axpy<double>"}
    assert all(v.startswith("_Z") for v in names.values())
    assert names["axpy<float>"] != names["axpy<double>"]
    assert names["axpy<float>"].encode() in obj.code


def test_headers_and_macros():
    src = '#include "scale.h"\nextern "C" __global__ void k(float* y) { y[0] = SCALE * FACTOR; }'
    obj = tc.Program(src, options=tc.ProgramOptions(arch=90, define_macro=[("FACTOR", "3.0f")]),
                     headers={"scale.h": "#define SCALE 2.0f"}).compile("ptx")
    assert b".entry k" in obj.code


def test_compile_error_carries_the_log_and_line():
    bad = 'extern "C" __global__ void k(float* y) {\n  y[0] = undefined_name;\n}\n'
    with pytest.raises(tc.CompileError) as info:
        tc.Program(bad, options=tc.ProgramOptions(arch=90), name="mine.cu").compile("ptx")
    msg = str(info.value)
    assert "mine.cu(2)" in msg and "undefined_name" in msg and "is undefined" in msg


def test_warnings_are_returned_as_logs():
    src = 'extern "C" __global__ void k(float* y) { int unused = 3; y[0] = 1.0f; }'
    logs = io.StringIO()
    p = tc.Program(src, options=tc.ProgramOptions(arch=90, extra_options=["--diag-warn=177"]))
    p.compile("ptx", logs=logs)
    assert p.last_compile["log"] == logs.getvalue()


def test_bad_arguments():
    with pytest.raises(ValueError, match="arch must look like"):
        tc.Program(AXPY, options=tc.ProgramOptions(arch="hopper")).compile("ptx")
    with pytest.raises(ValueError, match="target_type must be"):
        tc.Program(AXPY, options=tc.ProgramOptions(arch=90)).compile("sass")
    with pytest.raises(ValueError, match="code_type"):
        tc.Program(AXPY, code_type="ptx")
    with pytest.raises(TypeError, match="code must be a str"):
        tc.Program(b"bytes")


def test_options_render_to_nvrtc_flags():
    o = tc.ProgramOptions(std="c++20", include_path=["/x"], define_macro=["A", ("B", "2")], lineinfo=True,
                          use_fast_math=True, ftz=True, max_register_count=64, include_toolkit_headers=False)
    assert o.to_nvrtc() == ["--std=c++20", "-I/x", "-DA", "-DB=2", "-lineinfo", "--use_fast_math", "--ftz=true",
                            "--maxrregcount=64"]


def test_repeat_compile_is_a_memory_hit_returning_the_same_object():
    p = tc.Program(AXPY + "// memory-hit test\n", options=tc.ProgramOptions(arch=90))
    first = p.compile("ptx")
    assert p.last_compile["cache"] in ("compiled", "disk")
    second = p.compile("ptx")
    assert p.last_compile["cache"] == "memory" and second is first
    assert len(p.last_compile["key"]) == 64
