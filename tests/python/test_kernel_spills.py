"""Fused array kernels compile without register spills (issue #24: ptxas reports 0 bytes spilled for the kernels
NPBench produces; bench/probe_spills.py checks all of them). The shapes here spilled before session 26: a float64
comparison stored as bool (mandelbrot's `hypot(x, y) < 2`: 64 elements a thread, 255 registers), a stencil of many
views (vadv, cavity_flow: 64 x 64 tiles at 1024 threads, capped at 64 registers), complex twiddles with a division
(stockham_fft). NVRTC compiles for sm_90 without a GPU."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp

try:
    tegula._tegula.nvrtc_version()
    HAVE_NVRTC = True
except tegula.TegulaError:
    HAVE_NVRTC = False
pytestmark = pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC is not installed on this machine")


def spills(x):
    r = tegula.explain(x)
    res = r.resources
    return res["spill_stores"] + res["spill_loads"], res["registers"], r.block_threads


def test_float64_comparison_stored_as_bool():
    rng = np.random.default_rng(0)
    x, y = tnp.asarray(rng.random((300, 5000))), tnp.asarray(rng.random((300, 5000)))
    spilled, regs, threads = spills(tnp.hypot(x, y) < 1.0)
    assert spilled == 0, (regs, threads)


def test_stencil_of_many_views():
    rng = np.random.default_rng(1)
    a, b, c = (tnp.asarray(rng.random((200, 300))) for _ in range(3))
    e = (0.25 * (a[1:-1, 2:] + a[1:-1, :-2] + a[2:, 1:-1] + a[:-2, 1:-1]) - 0.5 * b[1:-1, 1:-1] * c[1:-1, 1:-1]
         + (a[1:-1, 1:-1] - b[2:, 1:-1]) * (c[:-2, 1:-1] - b[1:-1, :-2]) / (1.0 + c[1:-1, 2:] * c[1:-1, 2:])
         - 0.125 * (b[2:, 2:] - b[:-2, :-2]) * (c[2:, :-2] - a[:-2, 2:]))
    spilled, regs, threads = spills(e)
    assert spilled == 0, (regs, threads)


def test_complex_twiddles_with_a_division():
    i, j = tnp.mgrid[0:4, 0:4096]
    spilled, regs, threads = spills(tnp.exp(-2.0j * np.pi * i * j / 4096.0) * (1.5 + 0.5j))
    assert spilled == 0, (regs, threads)
