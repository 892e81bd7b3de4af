"""tegula.numpy.linalg against numpy.linalg. Arrays of the CPU interpreter use numpy.linalg on the host; the GPU
path (cuSOLVER on column-major copies, the transposes and conjugates that map its results back) is run here too,
on CPU arrays, with the cuSOLVER entry points replaced by SciPy's LAPACK calls of the same semantics: what a GPU
run adds is only cuSOLVER itself (tests/gpu/test_gpu_linalg.py)."""
import ctypes

import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error
from tegula.numpy import linalg as L

lapack = pytest.importorskip("scipy.linalg.lapack")
RNG = np.random.default_rng(17)
NP = {"float32": np.float32, "float64": np.float64, "complex64": np.complex64, "complex128": np.complex128}
PREFIX = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}


def _view(ptr, dtype, rows, cols, ld):
    """The column-major rows x cols matrix (leading dimension ld) at host address ptr, as a NumPy view."""
    dt = np.dtype(NP[dtype])
    buf = (ctypes.c_char * (ld * cols * dt.itemsize)).from_address(ptr)
    return np.frombuffer(buf, dt).reshape(cols, ld).T[:rows, :]


def _vec(ptr, dtype, n):
    dt = np.dtype(dtype)
    return np.frombuffer((ctypes.c_char * (max(n, 1) * dt.itemsize)).from_address(ptr), dt)[:n]


def _ptr(a):
    return a._array_interface(False)["data"][0]


def _mat(a, rows=None):
    """The column-major matrix a holds (a C-contiguous (columns, ld) array), rows x columns (ld rows by default)."""
    cols, ld = a.shape
    return _view(_ptr(a), a._dtype_name, ld if rows is None else rows, cols, ld)


class FakeSolver:
    """cuSOLVER's column-major in-place calls over arrays (the _tegula.solver_* signatures), done by LAPACK on host
    memory."""

    @staticmethod
    def solver_getrf(a, ipiv):
        dt, n = a._dtype_name, a.shape[0]
        A = _mat(a, n)
        lu, piv, info = getattr(lapack, PREFIX[dt] + "getrf")(A.copy(order="F"))
        A[...] = lu
        _vec(_ptr(ipiv), np.int64, n)[:] = piv + 1
        return int(info)

    @staticmethod
    def _getrs(trans, a, ipiv, b):
        dt, n = a._dtype_name, a.shape[0]
        A, B = _mat(a, n), _mat(b, n)
        x, info = getattr(lapack, PREFIX[dt] + "getrs")(np.asfortranarray(A), _vec(_ptr(ipiv), np.int64, n).astype(np.int32) - 1,
                                                        np.asfortranarray(B), trans={"N": 0, "T": 1, "C": 2}[trans])
        B[...] = x
        return int(info)

    @staticmethod
    def solver_gesv(trans, a, ipiv, b, substitute=False):
        info = FakeSolver.solver_getrf(a, ipiv)
        return info, FakeSolver._getrs(trans, a, ipiv, b)

    @staticmethod
    def solver_potrf(lower, a):
        A = _mat(a, a.shape[0])
        c, info = getattr(lapack, PREFIX[a._dtype_name] + "potrf")(np.asfortranarray(A), lower=lower, clean=False)
        A[...] = c
        return int(info)

    @staticmethod
    def solver_geqrf(a, tau):
        dt = a._dtype_name
        A = _mat(a)
        m, n = A.shape
        qr, t, _, info = getattr(lapack, PREFIX[dt] + "geqrf")(np.asfortranarray(A))
        A[...] = qr
        _vec(_ptr(tau), NP[dt], min(m, n))[:] = t
        return int(info)

    @staticmethod
    def solver_orgqr(k, a, tau):
        dt = a._dtype_name
        A = _mat(a)
        name = PREFIX[dt] + ("orgqr" if dt.startswith("float") else "ungqr")
        q, _, info = getattr(lapack, name)(np.asfortranarray(A), _vec(_ptr(tau), NP[dt], k).copy())
        A[...] = q
        return int(info)

    @staticmethod
    def solver_syevd(vectors, lower, a, w):
        dt, n = a._dtype_name, a.shape[0]
        A = _mat(a, n)
        name = PREFIX[dt] + ("syevd" if dt.startswith("float") else "heevd")
        vals, vecs, info = getattr(lapack, name)(np.asfortranarray(A), compute_v=int(vectors), lower=int(lower))
        _vec(_ptr(w), np.float32 if dt in ("float32", "complex64") else np.float64, n)[:] = vals
        if vectors:
            A[...] = vecs
        return int(info)

    @staticmethod
    def solver_gesvd(jobu, jobvt, a, s, u, vt):
        dt = a._dtype_name
        A = _mat(a)
        m, n = A.shape
        full = jobu == "A"
        compute = jobu != "N"
        uu, ss, vv, info = getattr(lapack, PREFIX[dt] + "gesdd")(np.asfortranarray(A), compute_uv=int(compute),
                                                                   full_matrices=int(full))
        _vec(_ptr(s), np.float32 if dt in ("float32", "complex64") else np.float64, min(m, n))[:] = ss
        if compute:
            _view(_ptr(u), dt, m, uu.shape[1], u.shape[1])[...] = uu
            _view(_ptr(vt), dt, n, n, vt.shape[1])[...] = vv
        return int(info)


@pytest.fixture(params=["host", "gpu-path"])
def path(request, monkeypatch):
    request.getfixturevalue("host_memory")  # both paths on host memory: "host" is the CPU interpreter's arrays
    if request.param == "gpu-path":
        monkeypatch.setattr(L, "_host", lambda *arrays: False)
        for name in dir(FakeSolver):
            if name.startswith("solver_"):
                monkeypatch.setattr(tnp._core._tegula, name, getattr(FakeSolver, name), raising=False)
    return request.param


def _m(shape, dtype):
    x = RNG.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(NP[dtype])


def _close(got, want, dtype, scale=1.0):
    tol = (2e-4 if dtype in ("float32", "complex64") else 1e-10) * scale
    np.testing.assert_allclose(got.get() if hasattr(got, "get") else got, want, rtol=tol, atol=tol)


DTYPES = ["float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_inv_det(path, dtype):
    a = _m((5, 5), dtype) + 3 * np.eye(5, dtype=NP[dtype])
    b, bs = _m((5,), dtype), _m((2, 5, 3), dtype)
    A = tnp.asarray(a)
    _close(L.solve(A, tnp.asarray(b)), np.linalg.solve(a, b), dtype, 10)
    _close(L.solve(A, tnp.asarray(bs)), np.linalg.solve(a, bs), dtype, 10)
    _close(L.inv(A), np.linalg.inv(a), dtype, 10)
    _close(L.det(A), np.linalg.det(a), dtype, 100)
    sign, logabs = L.slogdet(A)
    s0, l0 = np.linalg.slogdet(a)
    _close(sign, s0, dtype, 10)
    _close(logabs, l0, dtype, 10)
    batch = _m((3, 4, 4), dtype) + 2 * np.eye(4, dtype=NP[dtype])
    _close(L.det(tnp.asarray(batch)), np.linalg.det(batch), dtype, 100)


@pytest.mark.parametrize("layout", ["plain", "transposed"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_in_both_layouts(path, dtype, layout, monkeypatch):
    """solve's two cuSOLVER layouts (A's C-order copy with getrs T, or a column-major copy with getrs N) agree with
    NumPy on a clearly non-symmetric A."""
    monkeypatch.setattr(L, "_SOLVE_LAYOUT", layout)
    a = _m((6, 6), dtype) + 3 * np.eye(6, dtype=NP[dtype])
    a[0, 5] += 4
    b = _m((6, 2), dtype)
    _close(L.solve(tnp.asarray(a), tnp.asarray(b)), np.linalg.solve(a, b), dtype, 10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_qr_eigh(path, dtype):
    x = _m((6, 6), dtype)
    spd = x @ x.conj().T + 6 * np.eye(6, dtype=NP[dtype])
    _close(L.cholesky(tnp.asarray(spd)), np.linalg.cholesky(spd), dtype, 10)
    _close(L.cholesky(tnp.asarray(spd), upper=True), np.linalg.cholesky(spd, upper=True), dtype, 10)
    for shape in [(7, 4), (4, 7), (5, 5)]:
        a = _m(shape, dtype)
        for mode in ("reduced", "complete"):
            q, r = L.qr(tnp.asarray(a), mode=mode)
            q0, r0 = np.linalg.qr(a, mode=mode)
            assert q.shape == q0.shape and r.shape == r0.shape
            _close(q @ r, a, dtype, 10)                          # a factorisation of a,
            _close(q.conj().T @ q, np.eye(q0.shape[1]), dtype, 10)  # with orthonormal columns
        rr = L.qr(tnp.asarray(a), mode="r")  # R alone, (k, n); unique up to the signs of its rows
        _close(np.abs(rr.get()), np.abs(np.linalg.qr(a, mode="r")), dtype, 10)
    w, v = L.eigh(tnp.asarray(spd))
    w0 = np.linalg.eigvalsh(spd)
    _close(w, w0, dtype, 100)
    _close(tnp.asarray(spd) @ v, v.get() * w.get()[None, :], dtype, 1000)
    _close(L.eigvalsh(tnp.asarray(spd), UPLO="U"), w0, dtype, 100)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (5, 5), (2, 6, 3)])
def test_svd(path, dtype, shape):
    a = _m(shape, dtype)
    s0 = np.linalg.svd(a, compute_uv=False)
    _close(L.svd(tnp.asarray(a), compute_uv=False), s0, dtype, 10)
    for full in (True, False):
        u, s, vh = L.svd(tnp.asarray(a), full_matrices=full)
        u0, _, vh0 = np.linalg.svd(a, full_matrices=full)
        assert u.shape == u0.shape and vh.shape == vh0.shape
        k = min(shape[-2:])
        rec = (u.get()[..., :, :k] * s.get()[..., None, :]) @ vh.get()[..., :k, :]
        _close(rec, a, dtype, 10)


def test_lstsq_norm_rank_pinv_power(path):
    a, b = _m((8, 3), "float64"), _m((8,), "float64")
    x, res, rank, s = L.lstsq(tnp.asarray(a), tnp.asarray(b))
    x0, res0, rank0, s0 = np.linalg.lstsq(a, b)
    _close(x, x0, "float64", 10)
    _close(res, res0, "float64", 10)
    assert rank == rank0
    m = _m((4, 5), "float64")
    for ord_ in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        _close(L.norm(tnp.asarray(m), ord_), np.linalg.norm(m, ord_), "float64", 10)
    v = _m((6,), "float64")
    for ord_ in (None, 1, 2, 3, 0, np.inf, -np.inf):
        _close(L.norm(tnp.asarray(v), ord_), np.linalg.norm(v, ord_), "float64", 10)
    assert int(L.matrix_rank(tnp.asarray(m[:, :3] @ m[:3, :]))) == 3
    _close(L.pinv(tnp.asarray(m)), np.linalg.pinv(m), "float64", 100)
    sq = _m((4, 4), "float64") + 4 * np.eye(4)
    for p in (0, 1, 3, -2):
        _close(L.matrix_power(tnp.asarray(sq), p), np.linalg.matrix_power(sq, p), "float64", 100)
    _close(L.multi_dot([tnp.asarray(sq)] * 3), sq @ sq @ sq, "float64", 10)
    _close(L.cond(tnp.asarray(sq)), np.linalg.cond(sq), "float64", 100)


def test_tensorsolve_and_tensorinv(path):
    a = np.eye(6).reshape(6, 2, 3) + 0.1 * RNG.standard_normal((6, 2, 3))
    b = RNG.standard_normal(6)
    _close(L.tensorsolve(tnp.asarray(a), tnp.asarray(b)), np.linalg.tensorsolve(a, b), "float64", 10)
    a2 = np.eye(6).reshape(2, 3, 2, 3) + 0.1 * RNG.standard_normal((2, 3, 2, 3))
    b2 = RNG.standard_normal((3, 2))
    _close(L.tensorsolve(tnp.asarray(a2), tnp.asarray(b2), axes=(0,)), np.linalg.tensorsolve(a2, b2, axes=(0,)),
           "float64", 10)
    t = np.eye(24).reshape(4, 6, 8, 3) + 0.1 * RNG.standard_normal((4, 6, 8, 3))
    got = L.tensorinv(tnp.asarray(t), ind=2)
    assert got.shape == (8, 3, 4, 6)
    _close(got, np.linalg.tensorinv(t, ind=2), "float64", 10)
    for call in (lambda m: m.linalg.tensorinv(m.ones((2, 3)), ind=1), lambda m: m.linalg.tensorinv(m.ones((4, 2, 2)), ind=0),
                 lambda m: m.linalg.tensorsolve(m.ones((2, 3)), m.ones(2)), lambda m: m.linalg.norm(m.ones(3), "nuc"),
                 lambda m: m.linalg.norm(m.ones((3, 3)), "fro", axis=0), lambda m: m.linalg.norm(m.ones(3), axis=3)):
        assert_same_error(call)


def test_errors_as_numpy(path):
    with pytest.raises(L.LinAlgError, match="Singular matrix"):
        L.solve(tnp.asarray(np.ones((3, 3))), tnp.asarray(np.ones(3)))
    with pytest.raises(L.LinAlgError, match="Singular matrix"):
        L.inv(tnp.asarray(np.zeros((2, 2))))
    with pytest.raises(L.LinAlgError, match="must be square"):
        L.inv(tnp.asarray(np.ones((2, 3))))
    with pytest.raises(L.LinAlgError, match="not positive definite"):
        L.cholesky(tnp.asarray(-np.eye(3)))
    with pytest.raises(L.LinAlgError, match="at least two-dimensional"):
        L.svd(tnp.asarray(np.ones(3)))
    with pytest.raises(TypeError, match="float16 is unsupported"):
        L.inv(tnp.asarray(np.eye(2, dtype=np.float16)))
    assert float(L.det(tnp.asarray(np.ones((3, 3))))) == 0.0


def test_eig_and_eigvals(path):
    """General eigenproblems: NumPy's LAPACK on a host copy, said once by a PerformanceWarning for device arrays."""
    import warnings

    from tegula.tile import PerformanceWarning

    a = RNG.standard_normal((5, 5))
    L._SAID_HOST.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = L.eig(tnp.asarray(a))
        w = L.eigvals(tnp.asarray(a))
    said = [x for x in seen if issubclass(x.category, PerformanceWarning) and "runs on the host" in str(x.message)]
    assert len(said) == (2 if path == "gpu-path" else 0)
    want = np.linalg.eig(a)
    np.testing.assert_allclose(r.eigenvalues.get(), want.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(w.get(), np.linalg.eigvals(a), rtol=1e-12)
    vecs = r.eigenvectors.get()
    np.testing.assert_allclose(a @ vecs, vecs * r.eigenvalues.get(), atol=1e-10)
    with pytest.raises(L.LinAlgError, match="must be square"):
        L.eig(tnp.ones((2, 3)))
    np.testing.assert_allclose(np.sort_complex(tnp.poly(tnp.asarray(np.diag([1.0, 2.0, 3.0]))).get()),
                               np.sort_complex(np.poly(np.diag([1.0, 2.0, 3.0]))))
