"""Reductions over a leading (strided) axis whose kept axes are contiguous: A.sum(0), A.T.sum(1), x.max(0) of a 3-D
array. The array engine's col_loop kernel loads (columns x rows) tiles with the rows contiguous and reduces each
tile's leading axis into a carry, so no transposed copy is made; large ones split the columns into partial
sums combined by a second kernel. Checked against NumPy over dtypes, operations, keepdims, out=, views, NaNs and
both the one-kernel and the partials path."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, random, rng, t  # noqa: F401


def _assert_sum_close(got, x0, axis=0):
    """A sum against the float64 (complex128) sum, within a few units of the dtype's epsilon times the sum of
    magnitudes (cancellation makes a relative bound on the result meaningless)."""
    kind = np.dtype(got.dtype).kind
    wide = np.complex128 if kind == "c" else np.float64
    want = x0.astype(wide).sum(axis=axis)
    if kind in "iub":
        assert_same(got, x0.sum(axis=axis))
        return
    eps = np.finfo(np.dtype(got.dtype)).eps
    bound = 8 * eps * np.abs(x0.astype(wide)).sum(axis=axis) + np.finfo(np.dtype(got.dtype)).tiny
    assert got.dtype == x0.sum(axis=axis).dtype
    assert np.all(np.abs(got.get().astype(wide) - want) <= bound)


def _load_shapes(ir):
    """The tile shapes of every load in one kernel's IR."""
    return [line.split("shape = [", 1)[1].split("]", 1)[0] for line in ir.splitlines() if " = load " in line]


def test_a_column_sum_is_one_col_loop_kernel_reading_rows_contiguously(rng):
    """A.sum(0) of a C-ordered matrix: one kernel whose loads are (32, 128) tiles (columns x rows), no copy."""
    from tegula import _tegula

    a0 = rng.standard_normal((300, 200))
    a = tnp.asarray(a0, device="cpu")
    with tegula.profile(gpu_timing=False) as p:
        got = a.sum(0)
        got._materialize()
    assert [k.name for k in p.launches] == ["tegula_array_kernel"]
    ir = _tegula.array_last_kernel()[0]
    assert _load_shapes(ir) == ["32, 128"]
    assert "%parts" in ir.split("{", 1)[0]
    assert_same(got, a0.sum(0), rtol=1e-12)


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "mean", "any", "all", "nansum", "nanmax"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex128", "int32", "int64", "uint8", "bool"])
def test_column_reductions_keep_numpys_values(device, rng, op, dtype):
    if dtype == "bool" and op in ("mean", "nansum", "nanmax"):
        pytest.skip("NumPy's bool mean/nan* differ only in dtype rules covered elsewhere")
    if dtype.startswith("complex") and op in ("min", "max", "nanmax"):
        pytest.skip("complex ordering is covered by test_numpy_reductions")
    if op == "prod" and dtype[0] in "fc":
        x0 = rng.uniform(0.9, 1.1, (67, 45)).astype(dtype)
    elif op == "prod":
        x0 = random(rng, (67, 45), dtype, low=0, high=2)
    else:
        x0 = random(rng, (67, 45), dtype)
    x = t(x0, device)
    with np.errstate(all="ignore"):
        want = getattr(np, op)(x0, axis=0)
    got = getattr(tnp, op)(x, axis=0)
    assert got.dtype == want.dtype
    if op in ("sum", "nansum", "mean") and dtype in ("float16", "float32"):
        _assert_sum_close(got * (67 if op == "mean" else 1), x0)
    else:
        assert_same(got, want)


@pytest.mark.parametrize("shape, axis", [((5, 7, 9), 0), ((2, 130, 3), 0), ((129, 257), 0), ((1000, 3), 0),
                                         ((3, 1000), 0), ((2, 2), 0), ((4, 6, 5), (0,))])
def test_column_sums_over_shapes_keep_numpys_values(device, rng, shape, axis):
    x0 = rng.standard_normal(shape)
    x = t(x0, device)
    assert_same(x.sum(axis=axis), x0.sum(axis=axis), rtol=1e-12)
    assert_same(x.sum(axis=axis, keepdims=True), x0.sum(axis=axis, keepdims=True), rtol=1e-12)


def test_transposed_and_strided_views_reduce_in_place(device, rng):
    a0 = rng.standard_normal((90, 70))
    a = t(a0, device)
    assert_same(a.T.sum(1), a0.T.sum(1), rtol=1e-12)
    assert_same(a[::2].sum(0), a0[::2].sum(0), rtol=1e-12)
    assert_same(a[1:-1, 3:-2].max(0), a0[1:-1, 3:-2].max(0), rtol=0)
    assert_same(a[::-1].min(0), a0[::-1].min(0), rtol=0)


def test_fused_producers_and_broadcast_leaves(device, rng):
    a0, b0, v0, w0 = (rng.standard_normal((80, 60)), rng.standard_normal((80, 60)), rng.standard_normal(60),
                      rng.standard_normal(80))
    a, b, v, w = t(a0, device), t(b0, device), t(v0, device), t(w0, device)
    assert_same((a * b + 1.0).sum(0), (a0 * b0 + 1.0).sum(0), rtol=1e-12)
    assert_same((a * v[None, :]).sum(0), (a0 * v0[None, :]).sum(0), rtol=1e-12)
    assert_same((a * w[:, None]).sum(0), (a0 * w0[:, None]).sum(0), rtol=1e-12)
    assert_same(np.exp(a).sum(0) / 3.0, np.exp(a0).sum(0) / 3.0, rtol=1e-12)


def test_nans_propagate_down_columns(device, rng):
    a0 = rng.standard_normal((40, 30))
    a0[7, 3] = a0[39, 29] = a0[0, 0] = np.nan
    a = t(a0, device)
    assert_same(a.max(0), a0.max(0), rtol=0)
    assert_same(a.min(0), a0.min(0), rtol=0)
    assert_same(a.sum(0), a0.sum(0), rtol=1e-12)
    assert_same(tnp.nanmax(a, axis=0), np.nanmax(a0, axis=0), rtol=0)


def test_arg_reductions_down_columns_keep_first_index(device, rng):
    a0 = rng.integers(0, 4, (50, 33)).astype(np.float64)
    a = t(a0, device)
    assert_same(a.argmax(0), a0.argmax(0), rtol=0)
    assert_same(a.argmin(0), a0.argmin(0), rtol=0)


def test_out_views_take_the_column_result(device, rng):
    a0 = rng.standard_normal((70, 50))
    a = t(a0, device)
    out0 = np.full((3, 50), 7.0)
    out = t(out0, device)
    tnp.sum(a, axis=0, out=out[1])
    out0[1] = a0.sum(0)
    assert_same(out, out0, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex64"])
def test_large_column_reductions_take_the_partials_path(rng, dtype):
    """R * C >= 2^20: the columns are split into partial results combined by a second kernel."""
    x0 = random(rng, (1100, 1000), dtype)
    x = tnp.asarray(x0, device="cpu")
    with tegula.profile(gpu_timing=False) as p:
        got = x.sum(0)
        got._materialize()
    assert len(p.launches) == 2
    _assert_sum_close(got, x0)
    assert_same(x.max(0), x0.max(0), rtol=0)
