"""Threads (issue #8) on the CPU: 8 threads x 1000 interpreted tile launches, tegula.numpy expressions per thread,
a brand-new kernel launched by 8 threads at once, and NVRTC compiles from 8 threads (the GIL is released around
compiles and interpreter runs, so they overlap). tests/gpu/test_gpu_threads.py does the same on the GPU."""

import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
import tegula.tile as tt
from threads import run_threads
from tegula.core import Program, ProgramOptions


@tt.kernel
def axpb(x, out, a: tt.float32, T: tt.Constant[int]):
    b = tt.bid(0)
    tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * a + 1.0)


def test_8_threads_x_1000_interpreted_launches():
    def work(i):
        x = np.random.default_rng(i).random(128).astype(np.float32)
        out = np.empty_like(x)
        for j in range(1000):
            tt.launch(axpb, grid=(2,), args=(x, out, float(j % 7), 64), interpret=True)
            if j % 97 == 0:
                np.testing.assert_allclose(out, x * (j % 7) + 1, rtol=1e-6)
        np.testing.assert_allclose(out, x * (999 % 7) + 1, rtol=1e-6)

    run_threads(work)


def test_array_expressions_per_thread():
    def work(i):
        x = np.random.default_rng(100 + i).standard_normal((64, 33))
        a = tnp.asarray(x)
        for j in range(100):
            got = ((a * j - i) ** 2).sum(axis=1)
            np.testing.assert_allclose(got.get(), ((x * j - i) ** 2).sum(axis=1), rtol=1e-12)

    run_threads(work)


def test_a_new_kernel_from_8_threads_at_once():
    @tt.kernel
    def fresh(x, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.sqrt(tt.abs(tt.load(x, index=(b,), shape=(T,)))))

    def work(i):
        x = np.random.default_rng(i).standard_normal(96).astype(np.float32)
        out = np.empty_like(x)
        tt.launch(fresh, grid=(3,), args=(x, out, 32), interpret=True)
        np.testing.assert_allclose(out, np.sqrt(np.abs(x)), rtol=1e-6)

    run_threads(work)


def test_compiles_from_8_threads(cache_dir, monkeypatch):
    try:
        tegula._tegula.nvrtc_version()
    except tegula.TegulaError as e:
        pytest.skip(f"NVRTC is not installed: {e}")
    results = {}

    def work(i):
        src = f'extern "C" __global__ void k{i % 4}(float* p) {{ p[threadIdx.x] = {i % 4}.0f; }}'
        p = Program(src, options=ProgramOptions(arch="sm_90"))
        results[i] = (p.compile("ptx").code, p.last_compile["cache"])

    run_threads(work)
    for i in range(8):
        assert results[i][0] == results[i % 4][0]  # the same source gives the same code, whoever compiled it
