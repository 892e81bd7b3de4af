"""Batched kernel spaces (docs/array_engine.md): where a leaf's kept axes do not merge into one stride (an inner
block of a 3-D array, x[1:-1, 1:-1, 1:-1]), the kernel runs over (batches, rows, columns) and reads every leaf in
place: NumPy's values, and no tegula_copy kernel (the CPU interpreter runs the very kernels the GPU runs)."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401


def launches(f):
    with tegula.profile(gpu_timing=False) as p:
        r = f()
        for x in r if isinstance(r, tuple) else (r,):
            x.get()
    return [r.name for r in p.launches]


I = (slice(1, -1),) * 3


def heat(m, a):
    return 0.125 * (a[2:, 1:-1, 1:-1] - 2.0 * a[I] + a[:-2, 1:-1, 1:-1]) + 0.125 * (
        a[1:-1, 2:, 1:-1] - 2.0 * a[I] + a[1:-1, :-2, 1:-1]) + 0.125 * (
        a[1:-1, 1:-1, 2:] - 2.0 * a[I] + a[1:-1, 1:-1, :-2]) + a[I]


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex64", "int32"])
def test_a_3d_stencil(dtype, device, rng):
    x = (rng.standard_normal((12, 40, 70)) * 10).astype(dtype)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(x.shape).astype(dtype)
    a = t(x, device)
    assert_same(heat(tnp, a), heat(np, x))


def test_heat_3d_steps_write_into_the_inner_block(device, rng):
    x, y = rng.standard_normal((10, 33, 35)), rng.standard_normal((10, 33, 35))
    a, b = t(x, device), t(y, device)
    for _ in range(3):
        b[I] = heat(tnp, a)
        a[I] = heat(tnp, b)
        y[I] = heat(np, x)
        x[I] = heat(np, y)
    assert_same(a, x)
    assert_same(b, y)


VIEWS = {
    "inner block": (slice(1, -1), slice(2, -1), slice(1, -3)),
    "strided rows": (slice(None), slice(None, None, 2), slice(None)),
    "reversed": (slice(None, None, -1), slice(1, None), slice(None, None, -1)),
    "4-d inner": None,
}


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("op", ["sum", "max", "argmin", "mean", "prod"])
def test_reductions_over_the_last_axis_of_unmergeable_views(view, op, device, rng):
    if view == "4-d inner":
        x = rng.standard_normal((3, 5, 9, 300))
        key = (slice(None), slice(1, -1), slice(1, -1), slice(2, None))
    else:
        x = rng.standard_normal((9, 30, 300))
        key = VIEWS[view]
    a = t(x, device)[key]
    xv = x[key]
    for axis in (-1,) if op == "argmin" else (-1, (-2, -1)):
        for keepdims in (False, True):
            kw = {} if op == "argmin" else {"keepdims": keepdims}
            assert_same(getattr(a, op)(axis=axis, **kw), getattr(xv, op)(axis=axis, **kw), rtol=1e-10, atol=1e-10)


def test_long_rows_of_an_inner_block(device, rng):
    x = rng.standard_normal((3, 6, 20000))
    a = t(x, device)[:, 1:-1, 5:]
    assert_same(a.sum(axis=-1), x[:, 1:-1, 5:].sum(axis=-1), rtol=1e-10)
    assert_same(a.argmax(axis=-1), x[:, 1:-1, 5:].argmax(axis=-1))
    assert_same(a.max(axis=-1, keepdims=True), x[:, 1:-1, 5:].max(axis=-1, keepdims=True))


def test_softmax_over_an_inner_block(device, rng):
    x = rng.standard_normal((6, 20, 50))
    a = t(x, device)[I]
    e = tnp.exp(a - a.max(axis=-1, keepdims=True))
    xe = np.exp(x[I] - x[I].max(axis=-1, keepdims=True))
    assert_same(e / e.sum(axis=-1, keepdims=True), xe / xe.sum(axis=-1, keepdims=True))


def test_broadcasts_along_the_batches(device, rng):
    x, w, v = rng.standard_normal((7, 20, 30)), rng.standard_normal((18, 28)), rng.standard_normal((5, 1, 28))
    a = t(x, device)
    got = a[1:-1, 1:-1, 1:-1] * t(w, device) + t(v, device)[:, :, None, :].sum(axis=1)
    assert_same(got, x[1:-1, 1:-1, 1:-1] * w + v[:, :, None, :].sum(axis=1))


def test_reductions_written_into_an_unmergeable_view(device, rng):
    x = rng.standard_normal((8, 30, 40))
    a = t(x, device)
    o, want = t(np.zeros((8, 30, 5)), device), np.zeros((8, 30, 5))
    o[1:-1, 1:-1, 2] = a[1:-1, 1:-1, 1:-1].sum(axis=-1)
    want[1:-1, 1:-1, 2] = x[1:-1, 1:-1, 1:-1].sum(axis=-1)
    assert_same(o, want, rtol=1e-12)


# ---- kernel counts --------------------------------------------------------------------------------------------
def test_a_3d_stencil_is_one_kernel_without_copies(rng):
    a = tnp.asarray(rng.standard_normal((12, 40, 70)), device="cpu")
    b = tnp.asarray(rng.standard_normal((12, 40, 70)), device="cpu")

    def step():
        b[I] = heat(tnp, a)
        return b

    assert launches(step) == ["tegula_array_kernel"]
    assert launches(lambda: a[I].sum(axis=-1)) == ["tegula_array_kernel"]
    assert launches(lambda: a[1:-1, 1:-1].max(axis=(1, 2))) == ["tegula_array_kernel"]
    # reduced axes that do not merge into one stride are still copied into the space's order first
    assert launches(lambda: a[I].max(axis=(1, 2))) == ["tegula_copy", "tegula_array_kernel"]


@pytest.mark.parametrize("n", [5, 64, 300])
@pytest.mark.parametrize("op", ["sum", "max", "prod"])
def test_middle_axis_reductions_with_interleaved_rows(n, op, device, rng):
    """Reductions over a middle axis whose rows interleave with the columns (all-pairs forces,
    (d * w[:, :, None]).sum(axis=1), or sum over (1, 2) of an image batch): batched spaces whose tiles are dense
    in memory, NumPy's values, and no tegula_copy (the space is read in place)."""
    pos, w = rng.standard_normal((n, 3)), rng.standard_normal((n, n))
    img = rng.standard_normal((4, 9, 7, 3))
    p_, w_, i_ = t(pos, device), t(w, device), t(img, device)

    def forces(m, p, ww):
        d = p[None, :, :] - p[:, None, :]
        return getattr(m, op)(d * ww[:, :, None] * 0.5, axis=1)

    assert_same(forces(tnp, p_, w_), forces(np, pos, w), rtol=1e-9 * n if op == "prod" else None)
    assert_same(getattr(tnp, op)(i_, axis=(1, 2)), getattr(np, op)(img, axis=(1, 2)), rtol=1e-9)
    assert_same(getattr(tnp, op)(i_[:, 1:, :, 1:], axis=1), getattr(np, op)(img[:, 1:, :, 1:], axis=1), rtol=1e-9)
    if device == "cpu":
        assert "tegula_copy" not in launches(lambda: forces(tnp, p_, w_))
        assert "tegula_copy" not in launches(lambda: getattr(tnp, op)(i_, axis=(1, 2)))


def test_a_convolution_window_is_copied_once_and_written_in_place(device, rng):
    """NPBench's conv2d: out[:, i, j, :] = sum(x[:, i:i+K, j:j+K, :, None] * w[None], axis=(1, 2, 3)). The window's
    reduced axes do not merge, so it is copied, once (not once per output channel: stride 0 along the axis it is
    broadcast over), and the reduction is written through the output view (no copy of the result)."""
    N, H, W, C, F, K = 3, 9, 8, 3, 5, 3
    x, w = rng.standard_normal((N, H, W, C)), rng.standard_normal((K, K, C, F))
    a, b = t(x, device), t(w, device)
    want = np.zeros((N, H - K + 1, W - K + 1, F))
    out = tnp.zeros((N, H - K + 1, W - K + 1, F), device=device)
    for i in range(H - K + 1):
        for j in range(W - K + 1):
            want[:, i, j, :] = np.sum(x[:, i:i + K, j:j + K, :, None] * w[None], axis=(1, 2, 3))
            out[:, i, j, :] = tnp.sum(a[:, i:i + K, j:j + K, :, None] * b[None], axis=(1, 2, 3))
    assert_same(out, want, rtol=1e-12)
    if device == "cpu":
        def step():
            out[:, 2, 3, :] = tnp.sum(a[:, 2:2 + K, 3:3 + K, :, None] * b[None], axis=(1, 2, 3))
            return out
        assert launches(step) == ["tegula_copy", "tegula_array_kernel"]
