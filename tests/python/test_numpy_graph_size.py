"""Pending graphs that grow in a Python loop are cut by a rule, not by the user (docs/array_engine.md): a chain
deeper than max_graph_depth (64) has its most shared node on the deepest chain materialised, so a loop that
grows one expression runs a kernel every few dozen levels, each of bounded size, and the values stay NumPy's. The
tests count kernels (the work), not seconds."""
import numpy as np

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401

MAX_DEPTH = 64


def kernels(f):
    with tegula.profile(gpu_timing=False) as p:
        r = f()
        r.get()
    return len(p.launches), r


def test_a_loop_that_reuses_its_result(device, rng):
    """mandelbrot's shape, z = where(|z| < 2, z * z * 0.5 + c, z): four levels per iteration, z shared three ways
    (a contraction, so rounding differences do not grow chaotically as the real mandelbrot's do)."""
    c0 = rng.uniform(-0.3, 0.3, 300) + 1j * rng.uniform(-0.3, 0.3, 300)
    c = t(c0, device)
    for n in (10, 100, 400):
        def run():
            z = tnp.zeros_like(c)
            for _ in range(n):
                z = tnp.where(tnp.abs(z) < 2, z * z * 0.5 + c, z)
            return z

        count, got = kernels(run)
        z = np.zeros_like(c0)
        for _ in range(n):
            z = np.where(np.abs(z) < 2, z * z * 0.5 + c0, z)
        assert_same(got, z, rtol=1e-9, atol=1e-9)
        levels = 4 * n
        assert count <= 2 + levels // (MAX_DEPTH // 4), (n, count)  # each kernel covers a quarter of the limit or more
        assert count >= levels // MAX_DEPTH, (n, count)  # and never more than the limit


def test_a_long_chain_of_distinct_arrays(device, rng):
    xs = [rng.standard_normal(50) for _ in range(300)]
    ts = [t(x, device) for x in xs]

    def run():
        s = ts[0]
        for x in ts[1:]:
            s = s + x * 0.5
        return s

    count, got = kernels(run)
    want = xs[0]
    for x in xs[1:]:
        want = want + x * 0.5
    assert_same(got, want, rtol=1e-12)
    assert count <= 2 + 2 * 299 // (MAX_DEPTH // 4)


def test_a_doubling_dag_is_one_kernel(device, rng):
    """x = x + x fifty times: a DAG of 50 nodes (a tree of 2**50), depth 50: one kernel, no cut."""
    x0 = rng.standard_normal(40)

    def run():
        x = t(x0, device)
        for _ in range(50):
            x = x + x
        return x

    count, got = kernels(run)
    assert count == 1
    assert_same(got, x0 * 2.0 ** 50)
