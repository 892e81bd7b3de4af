"""tegula.numpy.linalg on the GPU through cuSOLVER, against numpy.linalg in float64."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import linalg as L

RNG = np.random.default_rng(33)
TOL = {"float32": 2e-4, "float64": 1e-10, "complex64": 2e-4, "complex128": 1e-10}


def _m(shape, dtype):
    x = RNG.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


def _g(x):
    return tnp.asarray(x, device="cuda")


def _rel(got, want):
    g = got.get() if hasattr(got, "get") else got
    return np.linalg.norm(g - want) / max(np.linalg.norm(want), 1e-300)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_factorisations(dtype):
    n = 200
    a = _m((n, n), dtype) + n ** 0.5 * np.eye(n, dtype=dtype)
    b = _m((n, 3), dtype)
    tol = TOL[dtype] * 50
    assert _rel(L.solve(_g(a), _g(b)), np.linalg.solve(a, b)) < tol
    assert _rel(L.inv(_g(a)), np.linalg.inv(a)) < tol
    assert abs(complex(L.det(_g(a[:20, :20]))) / np.linalg.det(a[:20, :20]) - 1) < tol
    spd = a @ a.conj().T
    assert _rel(L.cholesky(_g(spd)), np.linalg.cholesky(spd)) < tol
    w, v = L.eigh(_g(spd))
    assert _rel(w, np.linalg.eigvalsh(spd)) < tol
    assert _rel(_g(spd) @ v, v.get() * w.get()[None, :]) < tol
    for shape in [(300, 120), (120, 300)]:
        x = _m(shape, dtype)
        q, r = L.qr(_g(x))
        assert _rel(q @ r, x) < tol
        u, s, vh = L.svd(_g(x), full_matrices=False)
        assert _rel(s, np.linalg.svd(x, compute_uv=False)) < tol
        assert _rel((u.get() * s.get()[None, :]) @ vh.get(), x) < tol


def test_errors_and_lstsq():
    with pytest.raises(L.LinAlgError, match="Singular matrix"):
        L.solve(_g(np.ones((4, 4))), _g(np.ones(4)))
    with pytest.raises(L.LinAlgError, match="not positive definite"):
        L.cholesky(_g(-np.eye(4)))
    a, b = _m((50, 8), "float64"), _m((50,), "float64")
    x, res, rank, s = L.lstsq(_g(a), _g(b))
    x0, res0, rank0, _ = np.linalg.lstsq(a, b)
    assert _rel(x, x0) < 1e-10 and _rel(res, res0) < 1e-8 and rank == rank0


@pytest.mark.parametrize("layout", ["plain", "transposed"])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_solve_vectors_batches_and_inputs_left_alone(dtype, layout, monkeypatch):
    """solve in both layouts (A's C-order copy solved with trans T, or a column-major copy with trans N): vector and
    matrix right-hand sides, a batch, a non-symmetric A, and the caller's arrays unchanged."""
    monkeypatch.setattr(L, "_SOLVE_LAYOUT", layout)
    n = 96
    a = _m((4, n, n), dtype) + 3 * n ** 0.5 * np.eye(n, dtype=dtype)
    a[:, 0, 1] += 50  # clearly non-symmetric: a transposed solve would be wrong
    b, v = _m((4, n, 5), dtype), _m((n,), dtype)
    ga, gb, gv = _g(a), _g(b), _g(v)
    tol = TOL[dtype] * 50
    assert _rel(L.solve(ga, gb), np.linalg.solve(a, b)) < tol
    assert _rel(L.solve(ga[1], gv), np.linalg.solve(a[1], v)) < tol
    assert abs(complex(L.det(ga[2, :12, :12])) / np.linalg.det(a[2, :12, :12]) - 1) < tol
    np.testing.assert_array_equal(ga.get(), a)
    np.testing.assert_array_equal(gb.get(), b)
    np.testing.assert_array_equal(gv.get(), v)


def _residual(a, x, b):
    a64, x64 = a.astype(np.float64), np.asarray(x, np.float64)
    return np.linalg.norm(a64 @ x64 - b) / (np.linalg.norm(a64) * np.linalg.norm(x64) + 1e-300)


@pytest.mark.parametrize("layout", ["plain", "transposed"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 5, 31, 32, 33, 100, 1000, 2500])
def test_solve_one_rhs_by_substitution(dtype, n, layout, monkeypatch):
    """One real right-hand side: getrf, then tegula's sync-free substitution kernels (not getrs), for the factors of
    A.T (plain layout: the trans T kernels) and of A (transposed layout: trans N). Random A without a diagonal boost,
    so getrf pivots; n around the 32-row blocks. The residual is as small as getrs's, and the vector and (n, 1) forms
    agree."""
    assert L._SOLVE_SUBSTITUTION
    monkeypatch.setattr(L, "_SOLVE_LAYOUT", layout)
    a = _m((n, n), dtype)
    a[0, -1] += 3.0  # non-symmetric
    b = _m((n,), dtype)
    ga, gb = _g(a), _g(b)
    x = L.solve(ga, gb).get()
    x2 = L.solve(ga, gb.reshape(n, 1)).get()
    monkeypatch.setattr(L, "_SOLVE_SUBSTITUTION", False)
    ref = L.solve(ga, gb).get()  # cuSOLVER's getrs
    eps = np.finfo(dtype).eps
    assert x.shape == (n,) and x2.shape == (n, 1)
    assert _residual(a, x, b) < max(10 * _residual(a, ref, b), 50 * n * eps)
    np.testing.assert_array_equal(x2[:, 0], x)
    np.testing.assert_array_equal(ga.get(), a)
    np.testing.assert_array_equal(gb.get(), b)


def test_solve_substitution_singular_and_repeated():
    """A zero pivot is LinAlgError before any substitution; many solves in a row reuse the compiled kernels and give
    the same answer (the flags and tickets start from zero each call)."""
    with pytest.raises(L.LinAlgError, match="Singular matrix"):
        L.solve(_g(np.ones((40, 40), np.float32)), _g(np.ones(40, np.float32)))
    a = _m((300, 300), "float64") + 20 * np.eye(300)
    b = _m((300,), "float64")
    ga, gb = _g(a), _g(b)
    first = L.solve(ga, gb).get()
    for _ in range(20):
        np.testing.assert_array_equal(L.solve(ga, gb).get(), first)
    assert _rel(first, np.linalg.solve(a, b)) < 1e-10
