"""driver_functions.def against cuda.h: no entry point may be resolved to a signature it is not called with."""
import os
import re

import pytest

DEF = os.path.join(os.path.dirname(__file__), "..", "..", "cpp", "tegula", "runtime", "driver_functions.def")


def _cuda_header():
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and os.path.isfile(os.path.join(home, "include", "cuda.h")):
            return os.path.join(home, "include", "cuda.h")
    pytest.skip("cuda.h not found (set CUDA_HOME)")


def test_versioned_entry_points_are_pinned():
    header = open(_cuda_header()).read()
    text = open(DEF).read()
    plain = re.findall(r"^TEGULA_CU\((\w+)\)", text, re.M)
    pinned = re.findall(r"^TEGULA_CU_AT\((\w+), *\d+\)", text, re.M)
    assert plain and "cuCtxGetDevice" in pinned and "cuCtxSynchronize" in pinned
    for name in plain:
        newer = re.findall(rf"CUresult CUDAAPI {name}_v(\d+)\(", header)
        mapped = re.search(rf"#define {name}\s", header)
        # A newer version with no macro mapping `name` to it: cuGetProcAddress(CUDA 13) would hand
        # back the newer signature while we call the old one. Such names must be TEGULA_CU_AT.
        assert not newer or mapped, f"{name} has {name}_v{newer[-1]} in cuda.h: pin it with TEGULA_CU_AT"
