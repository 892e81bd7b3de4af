"""Deferred in-place updates (array/deferred_update.hpp): `x += A @ y`, with A @ y a pending matrix-pass product and x
an array alone in its memory, waits as a pending node that writes into x's memory when x is read, so the next
statement's product over A joins the same pass (mvt's `x1 += A @ y_1; x2 += y_2 @ A`). NumPy's semantics hold: the
value is NumPy's (float64 reference), x keeps its memory (the same storage after the write), expressions and views
see the update from the statement on and never before, an array whose memory anything else can see (a view, another
array, an exported address) is written at once, and the update is applied exactly once whoever computes it first.
On the CPU interpreter the pass's host reference runs (_PASS_MIN_BYTES_CPU lowered); the cuda cases run the kernels."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula import _tegula
from numpy_util import device, matrix_pass_everywhere, pass_tol  # noqa: F401 - the fixtures


pytestmark = pytest.mark.usefixtures("matrix_pass_everywhere")


def mvt_data(dt, n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(n).astype(dt) for _ in range(4)] + [rng.standard_normal((n, n)).astype(dt)]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_mvt_reads_the_matrix_once(device, dt):
    x1, x2, y1, y2, A = mvt_data(dt, 700)
    t = [tnp.asarray(v, device=device) for v in (x1, x2, y1, y2, A)]
    tx1, tx2, ty1, ty2, tA = t
    ptr1, ptr2 = tx1._serial, tx2._serial  # the memory (not its address: showing that stops deferral)
    tx1 += tA @ ty1
    tx2 += ty2 @ tA
    assert tx1._pending and tx2._pending  # both writes wait
    got1 = tx1.get()
    assert _tegula.library_last()[1] == 2  # x2's product came along: one pass over A
    A64 = A.astype(np.float64)
    np.testing.assert_allclose(got1, x1 + A64 @ y1, **pass_tol(dt, 700))
    np.testing.assert_allclose(tx2.get(), x2 + y2 @ A64, **pass_tol(dt, 700))
    assert tx1._serial == ptr1 and tx2._serial == ptr2  # written where they were
    assert tx1.dtype == dt and not tx1._pending


def test_the_update_is_seen_from_its_statement_on(device):
    x, _, y, _, A = mvt_data(np.float64, 300, seed=3)
    tx, ty, tA = (tnp.asarray(v, device=device) for v in (x, y, A))
    before = tx * 2.0  # an expression of the old value: x is not alone, so the write happens at once
    tx += tA @ ty
    assert not tx._pending
    np.testing.assert_allclose(before.get(), 2 * x)
    tx2 = tnp.asarray(x, device=device)
    tx2 += tA @ ty
    assert tx2._pending
    after = tx2 * 2.0  # built after the statement: the new value
    view = tx2[10:20]
    new = x + A @ y
    np.testing.assert_allclose(after.get(), 2 * new, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(view.get(), new[10:20], rtol=1e-12, atol=1e-12)
    view[0] = 5.0  # the view is a view of x's memory
    assert tx2.get()[10] == 5.0


def test_arrays_others_can_see_are_written_at_once(device):
    x, _, y, _, A = mvt_data(np.float64, 200, seed=4)
    tA, ty = tnp.asarray(A, device=device), tnp.asarray(y, device=device)
    new = x + A @ y
    base = tnp.asarray(x, device=device)
    v = base[:]  # a view shares the memory
    base += tA @ ty
    assert not base._pending
    np.testing.assert_allclose(v.get(), new, rtol=1e-12, atol=1e-12)
    other = tnp.asarray(x, device=device)
    alias = other  # the same array object: still alone in its memory, so it waits; the alias sees the update
    other += tA @ ty
    np.testing.assert_allclose(alias.get(), new, rtol=1e-12, atol=1e-12)
    shown = tnp.asarray(x, device=device)
    _ = shown._data_ptr  # the address left the engine: a raw reader would miss a deferred write
    shown += tA @ ty
    assert not shown._pending
    np.testing.assert_allclose(shown.get(), new, rtol=1e-12, atol=1e-12)
    plain = tnp.asarray(x, device=device)
    plain += ty * 2.0  # no library call to wait for: written at once, as before
    assert not plain._pending


def test_applied_once_whoever_computes_it(device):
    x, _, y, _, A = mvt_data(np.float64, 250, seed=5)
    tA, ty = tnp.asarray(A, device=device), tnp.asarray(y, device=device)
    new = x + A @ y
    # read through an expression first (the plan computes the update inside it), then the array itself
    tx = tnp.asarray(x, device=device)
    tx += tA @ ty
    s = (tx * 1.0).sum()
    np.testing.assert_allclose(float(s), new.sum(), rtol=1e-10)
    np.testing.assert_allclose(tx.get(), new, rtol=1e-12, atol=1e-12)
    # a write into the matrix the update reads computes it first (NumPy: the value as of the statement)
    tx = tnp.asarray(x, device=device)
    tx += tA @ ty
    tA[:] = 0.0
    np.testing.assert_allclose(tx.get(), new, rtol=1e-12, atol=1e-12)
    # two updates in a row: the second computes the first, then waits itself
    tA = tnp.asarray(A, device=device)
    tx = tnp.asarray(x, device=device)
    tx += tA @ ty
    tx += tA @ ty
    np.testing.assert_allclose(tx.get(), x + 2 * (A @ y), rtol=1e-12, atol=1e-11)
    # an array dropped with its update pending: nothing to write, nothing left behind
    tx = tnp.asarray(x, device=device)
    tx += tA @ ty
    del tx
    np.testing.assert_allclose((tA @ ty).get(), A @ y, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("op", ["-=", "*=", "/="])
def test_other_operators_and_casts(device, op):
    x, _, y, _, A = mvt_data(np.float64, 128, seed=6)
    x = x + 3.0  # away from zero for /=
    tA, ty = tnp.asarray(A, device=device), tnp.asarray(y, device=device)
    ref = x.copy()
    tx = tnp.asarray(x, device=device)
    exec(f"ref {op} A @ y; tx {op} tA @ ty")
    np.testing.assert_allclose(tx.get(), ref, rtol=1e-11, atol=1e-12)
    # float32 target, float64 product: same_kind casting into the target's dtype, as NumPy
    x32 = x.astype(np.float32)
    tx32 = tnp.asarray(x32, device=device)
    tx32 += tA @ ty
    assert tx32.dtype == np.float32
    np.testing.assert_allclose(tx32.get(), (x32 + A @ y).astype(np.float32), rtol=2e-5, atol=2e-5)
    # an integer target: NumPy's casting error, at the statement
    ti = tnp.asarray(np.arange(128), device=device)
    with pytest.raises(TypeError, match="same_kind"):
        ti += tA @ ty
    np.testing.assert_array_equal(ti.get(), np.arange(128))
    # a shape that does not broadcast into the target: NumPy's error, at the statement
    tshort = tnp.asarray(np.zeros(7), device=device)
    with pytest.raises(ValueError):
        tshort += tA @ ty
