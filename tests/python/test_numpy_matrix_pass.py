"""Products over a matrix in memory as pending library nodes (libs/matrix_products.hpp): A @ x, x @ A and X @ A wait
until read, and then every held product over the same matrix is one matrix pass (bicg's `r @ A, A @ p`); values as
NumPy's in float64 within the dtype's tolerance; NumPy's semantics kept: a write into A or x after the product does
not change it, a product whose vector is another's result waits for it (atax), the transposed matrix and strided or
pending vectors work. On the CPU interpreter the pass's host reference runs (_PASS_MIN_BYTES_CPU lowered); the cuda
cases run the kernels."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from tegula import _tegula
from tegula.numpy import _matmul
from numpy_util import device, matrix_pass_everywhere, pass_tol  # noqa: F401 - the fixtures


pytestmark = pytest.mark.usefixtures("matrix_pass_everywhere")


def data(dt, rows, cols, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((rows, cols)).astype(dt), rng.standard_normal(cols).astype(dt),
            rng.standard_normal(rows).astype(dt))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("rows, cols", [(600, 1024), (37, 2052), (1000, 64), (3, 4)])
def test_a_pair_over_one_matrix_is_one_pass(device, dt, rows, cols):
    A, p, r = data(dt, rows, cols)
    tA, tp, tr = (tnp.asarray(v, device=device) for v in (A, p, r))
    y, z = tr @ tA, tA @ tp
    assert y._pending and z._pending
    got_y = y.get()
    assert _tegula.library_last()[1] == 2  # z came along
    assert not z._pending
    A64 = A.astype(np.float64)
    np.testing.assert_allclose(got_y, r.astype(np.float64) @ A64, **pass_tol(dt, rows))
    np.testing.assert_allclose(z.get(), A64 @ p.astype(np.float64), **pass_tol(dt, cols))
    assert got_y.dtype == dt and z.dtype == dt and y.shape == (cols,) and z.shape == (rows,)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_up_to_two_and_eight_products_join(device, dt):
    A, _, _ = data(dt, 256, 512)
    rng = np.random.default_rng(1)
    us = [rng.standard_normal(512).astype(dt) for _ in range(3)]
    vs = [rng.standard_normal(256).astype(dt) for _ in range(9)]
    tA = tnp.asarray(A, device=device)
    ys = [tA @ tnp.asarray(u, device=device) for u in us]
    zs = [tnp.asarray(v, device=device) @ tA for v in vs]
    ys[0]._materialize()
    assert _tegula.library_last()[1] == 2 + 8  # two M @ u and eight v @ M in one pass; one of each waits
    assert sum(y._pending for y in ys) == 1 and sum(z._pending for z in zs) == 1
    A64 = A.astype(np.float64)
    for u, y in zip(us, ys):
        np.testing.assert_allclose(y.get(), A64 @ u, **pass_tol(dt, 512))
    for v, z in zip(vs, zs):
        np.testing.assert_allclose(z.get(), v @ A64, **pass_tol(dt, 256))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_narrow_matrix_times_matrix(device, dt):
    wide, _, _ = data(dt, 300, 1032)
    A = wide[:, :1030]  # rows 16-byte aligned, the last vector of columns partly past the view
    X = np.random.default_rng(2).standard_normal((5, 300)).astype(dt)
    tA, tX = tnp.asarray(wide, device=device)[:, :1030], tnp.asarray(X, device=device)
    Z = tX @ tA
    assert Z._pending and Z.shape == (5, 1030)
    np.testing.assert_allclose(Z.get(), X.astype(np.float64) @ A.astype(np.float64), **pass_tol(dt, 300))
    # with a vector over the same matrix: 5 + 1 rows of v @ M in one pass
    v = np.random.default_rng(3).standard_normal(300).astype(dt)
    Z, z = tX @ tA, tnp.asarray(v, device=device) @ tA
    z._materialize()
    assert _tegula.library_last()[1] == 2 and not Z._pending
    np.testing.assert_allclose(Z.get(), X.astype(np.float64) @ A.astype(np.float64), **pass_tol(dt, 300))
    np.testing.assert_allclose(z.get(), v.astype(np.float64) @ A.astype(np.float64), **pass_tol(dt, 300))


def test_transposed_matrix_strided_and_pending_vectors(device):
    A, p, r = data(np.float64, 640, 512)
    tAT = tnp.asarray(np.ascontiguousarray(A.T), device=device).T  # A's values, column-major
    wide = tnp.asarray(np.repeat(p, 3), device=device)[::3]        # a strided vector
    tr = tnp.asarray(r, device=device)
    y, z = tAT @ wide, (tr * 2.0 + 1.0) @ tAT                     # a pending vector
    assert y._pending and z._pending
    np.testing.assert_allclose(y.get(), A @ p, **pass_tol(np.float64, 512))
    np.testing.assert_allclose(z.get(), (r * 2.0 + 1.0) @ A, **pass_tol(np.float64, 640))


def test_writes_after_the_product_do_not_change_it(device):
    A, p, r = data(np.float64, 128, 256)
    tA, tp, tr = (tnp.asarray(v, device=device) for v in (A, p, r))
    y, z = tA @ tp, tr @ tA
    tA[3, :] = 100.0  # NumPy computed y and z before this write
    tp[0] = -7.0
    np.testing.assert_allclose(y.get(), A @ p, **pass_tol(np.float64, 256))
    np.testing.assert_allclose(z.get(), r @ A, **pass_tol(np.float64, 128))
    A[3, :] = 100.0
    np.testing.assert_allclose((tA @ tp).get(), A @ np.where(np.arange(256) == 0, -7.0, p), **pass_tol(np.float64, 256))


def test_a_product_of_a_product_waits_for_it(device):
    A, p, _ = data(np.float64, 200, 512)
    tA, tp = tnp.asarray(A, device=device), tnp.asarray(p, device=device)
    y = tA @ tp
    w = y @ tA  # atax: (A @ x) @ A reads the first product: two passes, in order
    np.testing.assert_allclose(w.get(), (A @ p) @ A, rtol=1e-11, atol=1e-9)
    np.testing.assert_allclose(y.get(), A @ p, **pass_tol(np.float64, 512))


def test_mixed_dtypes_and_out(device):
    A, p, _ = data(np.float64, 64, 128)
    tA = tnp.asarray(A, device=device)
    tp32 = tnp.asarray(p.astype(np.float32), device=device)
    y = tA @ tp32  # the vector is cast to the product's float64
    assert y.dtype == np.float64
    np.testing.assert_allclose(y.get(), A @ p.astype(np.float32).astype(np.float64), **pass_tol(np.float64, 128))
    out = tnp.empty(64, dtype=np.float64, device=device)
    assert tnp.matmul(tA, tp32, out=out) is out
    np.testing.assert_allclose(out.get(), A @ p.astype(np.float32).astype(np.float64), **pass_tol(np.float64, 128))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        tA @ tnp.asarray(np.ones(127), device=device)


def test_empty_matrices(device):
    for shape in ((0, 32), (16, 0)):
        A = np.zeros(shape)
        tA = tnp.asarray(A, device=device)
        y = tA @ tnp.asarray(np.ones(shape[1]), device=device)
        z = tnp.asarray(np.ones(shape[0]), device=device) @ tA
        np.testing.assert_array_equal(y.get(), A @ np.ones(shape[1]))
        np.testing.assert_array_equal(z.get(), np.ones(shape[0]) @ A)


def test_explain_names_the_pass(device):
    A, p, r = data(np.float32, 128, 256)
    tA, tp, tr = (tnp.asarray(v, device=device) for v in (A, p, r))
    y, z = tA @ tp, tr @ tA
    report = tegula.explain(y)
    text = str(report)
    assert "matrix pass" in text and "2 product(s)" in text
    assert "tg_pass_1_1" in text
    assert not z._pending
    np.testing.assert_allclose(y.get(), A.astype(np.float64) @ p, **pass_tol(np.float32, 256))


def test_small_matrices_stay_with_the_library(device, monkeypatch):
    monkeypatch.setattr(_matmul, "_PASS_MIN_BYTES", 64 << 20)
    monkeypatch.setattr(_matmul, "_PASS_MIN_BYTES_CPU", None)
    A, p, _ = data(np.float64, 64, 128)
    y = tnp.asarray(A, device=device) @ tnp.asarray(p, device=device)
    assert _tegula.array_library(y) is None
