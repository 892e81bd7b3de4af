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


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_solve_vectors_batches_and_inputs_left_alone(dtype):
    """solve factors A's C-order copy (A.T in column-major) and solves with trans T: vector and matrix right-hand
    sides, a batch, a non-symmetric A, and the caller's arrays unchanged."""
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
