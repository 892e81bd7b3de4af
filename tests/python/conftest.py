"""Shared fixtures for the CPU test suite: a fresh compile-cache directory per test."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))

import pytest


@pytest.fixture
def cache_dir(tmp_path):
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    return str(d)


@pytest.fixture
def host_memory(monkeypatch):
    """Arrays default to the CPU interpreter for this test even where a GPU is present: for the tests that replace a
    library call (cuBLASLt, cuFFT, CUB, cuSOLVER) by NumPy reading the operands at their addresses, which must then
    be host memory (a device address read from the host would crash the process)."""
    import tegula.numpy as tnp

    monkeypatch.setattr(tnp._core, "_DEFAULT", -1)


# The NumPy suites run every case on the CPU interpreter, and on the GPU (device="cuda") where one is
# present. On the GPU each new expression is a new NVRTC compile, so by default a fixed tenth of the
# cuda cases runs (chosen by test id, the same every run); TEGULA_NUMPY_GPU_FULL=1 runs them all.
# tests/gpu/test_gpu_numpy.py always runs in full.
def pytest_collection_modifyitems(config, items):
    import zlib

    if os.environ.get("TEGULA_NUMPY_GPU_FULL") == "1":
        return
    skip = pytest.mark.skip(reason="cuda case not in the sampled tenth (TEGULA_NUMPY_GPU_FULL=1 runs all)")
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        # keyed by the path under tests/ and the test's name, not by the node id, which depends on where pytest
        # was started (the device script starts it from /tmp): the same tenth from anywhere
        key = os.path.relpath(str(item.path), tests).replace(os.sep, "/") + "::" + item.name
        if params.get("device") == "cuda" and zlib.crc32(key.encode()) % 10:
            item.add_marker(skip)
