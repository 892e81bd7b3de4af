"""tegula.numpy.linalg: NumPy's linear algebra over cuSOLVER (LU, Cholesky, QR, symmetric eigensolver, SVD) and
cuBLASLt on the GPU, and numpy.linalg (LAPACK) on the host for arrays of the CPU interpreter.

The factorisations work in place on column-major copies (the transposed C-order copy of a matrix is its
column-major layout), one matrix at a time over any leading batch axes. Each factorisation reads its status word
back (as CuPy does), so singular or indefinite input raises numpy.linalg.LinAlgError with NumPy's message.
Integer inputs compute in float64, float32/complex64 stay single precision; float16 and bfloat16 are refused, as
NumPy refuses float16."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from ._common import _arr, _axis

LinAlgError = _np.linalg.LinAlgError

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals",
           "lstsq", "norm", "vector_norm", "matrix_norm", "matrix_rank", "pinv", "matrix_power", "multi_dot", "cond",
           "matmul", "tensordot", "outer", "vecdot", "trace", "diagonal", "matrix_transpose", "cross", "tensorinv",
           "tensorsolve", "eig", "eigvals"]


# ---- helpers ------------------------------------------------------------------------------------
def _work_dtype(*arrays):
    names = [a._dtype_name for a in arrays]
    for n in names:
        if n in ("float16", "bfloat16"):
            raise TypeError(f"array type {n} is unsupported in linalg")
    if any(n.startswith("complex") for n in names):
        return "complex64" if all(n in ("complex64", "float32") for n in names) else "complex128"
    return "float32" if all(n == "float32" for n in names) else "float64"


def _square(a):
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _host(*arrays):
    """Whether NumPy computes the answer on host copies: arrays of the CPU interpreter, and arrays with no elements
    (a zero-size batch or 0 x 0 matrices: nothing to move, and NumPy's shapes, dtypes and errors, where cuSOLVER
    would be called with nothing to do). The results go back to the first array's device."""
    return arrays[0]._device_id < 0 or any(x.size == 0 for x in arrays)


def _to(x, like):
    return _core.as_array(_np.asarray(x), like._device_id)


def _cm(m):
    """A column-major device copy of the matrix m (its transpose in C order)."""
    return ascontiguousarray(m.T)


def _batched(a, core_ndim):
    """(batch shape, list of index tuples) over a's leading axes."""
    batch = tuple(a.shape[:a.ndim - core_ndim])
    return batch, list(_np.ndindex(*batch)) if batch else [()]


def _stack(parts, batch, like):
    if not batch:
        return parts[0]
    r = stack(parts, axis=0)
    return r.reshape(batch + tuple(r.shape[1:]))


# ---- LU: solve, inv, det, slogdet -----------------------------------------------------------------
# How solve lays A out for cuSOLVER: "plain" factors A's C-order copy (A.T in column-major order) and solves with
# trans T; "transposed" makes a column-major copy of A and solves with trans N. On the H200 (2026-12-03, 4096
# float32, one right-hand side) getrf + getrs took 12.47 ms with "plain" and 12.32 ms with "transposed" (whose
# transposing copy took 0.15 ms). With the substitution kernels the plain copy is the cheaper one.
_SOLVE_LAYOUT = "plain"
# One real right-hand side: tegula's substitution kernels (cpp/tegula/libs/lu_substitution.hpp) instead of getrs,
# which spends about 1 ms on it.
_SOLVE_SUBSTITUTION = True


def _lu_input(m, dt, transposed=False):
    """A new buffer for getrf to factor in place (one fused copy kernel), and int64 pivots: of m.T by default (m's
    C-order copy is m.T in column-major order, a plain copy; callers solve with trans "T", and det(m.T) = det(m));
    of m itself with transposed=True (a transposing copy; callers solve with trans "N")."""
    n = m.shape[-1]
    lu = _cm(m.astype(dt)) if transposed else ascontiguousarray(m.astype(dt))
    piv = empty((n,), "int64", device=_core.device_of(m))
    return lu, piv


def _lu(m, dt, transposed=False):
    """(LU factors, int64 pivots, info) of the square matrix m on the GPU (see _lu_input)."""
    lu, piv = _lu_input(m, dt, transposed)
    info = _core._tegula.solver_getrf(lu, piv)
    return lu, piv, info


def solve(a, b):
    a, b = _arr(a), _arr(b)
    _square(a)
    if _host(a, b):
        return _to(_np.linalg.solve(a.get(), b.get()), a)
    dt = _work_dtype(a, b)
    n = a.shape[-1]
    vector = b.ndim == 1
    bb = b.reshape(n, 1) if vector else b
    if bb.shape[-2] != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(m,m),(m,n)->(m,n) (size {bb.shape[-2]} is different from {n})")
    batch = tuple(_np.broadcast_shapes(a.shape[:-2], bb.shape[:-2]))

    A = broadcast_to(a, batch + (n, n))
    B = broadcast_to(bb, batch + (n, bb.shape[-1]))
    parts = []
    transposed = _SOLVE_LAYOUT == "transposed"
    for idx in (list(_np.ndindex(*batch)) if batch else [()]):
        lu, piv = _lu_input(A[idx], dt, transposed)
        x = _cm(B[idx].astype(dt))  # a new buffer: getrs writes the solution over it
        # getrf and getrs (or the substitution kernels) in one call, with one wait (not one after each)
        info, info_s = _core._tegula.solver_gesv("N" if transposed else "T", lu, piv, x,
                                                 _SOLVE_SUBSTITUTION)
        if info > 0:
            raise LinAlgError("Singular matrix")
        if info_s < 0:
            raise ValueError(f"solve: invalid argument {-info_s}")
        parts.append(x.T)
    r = _stack(parts, batch, a)
    return r.reshape(r.shape[:-1]) if vector else r


def inv(a):
    a = _arr(a)
    _square(a)
    if _host(a):
        return _to(_np.linalg.inv(a.get()), a)

    n = a.shape[-1]
    return solve(a, eye(n, dtype=_work_dtype(a), device=_core.device_of(a)))


def _det_parts(a):
    """(sign, log|det|) arrays over the batch, from LU factors on the GPU."""
    dt = _work_dtype(a)
    n = a.shape[-1]
    batch, idxs = _batched(a, 2)
    signs, logs = [], []
    for idx in idxs:
        lu, piv, _ = _lu(a[idx], dt)
        d = lu.diagonal()  # the factors' diagonal (the same elements in either major order)
        swaps = (piv != arange(1, n + 1, dtype="int64", device=_core.device_of(a))).sum()
        perm = 1 - 2 * (swaps % 2)
        absd = _ufuncs.abs(d)
        logs.append(_ufuncs.log(absd).sum())
        if dt.startswith("complex"):
            unit = d / _ufuncs.where(absd == 0, 1, absd)
            signs.append(_prod_complex(unit) * perm)
        else:
            signs.append(_ufuncs.sign(d).prod() * perm)
    return _stack(signs, batch, a), _stack(logs, batch, a)


def _prod_complex(z):
    # The array engine has no complex product reduction yet: multiply the phases as angles.

    ang = _ufuncs.angle(z).sum()
    mag = (_ufuncs.abs(z) > 0).all()
    return _ufuncs.where(mag, _ufuncs.exp(1j * ang), 0)


def det(a):
    a = _arr(a)
    _square(a)
    if _host(a):
        return _to(_np.linalg.det(a.get()), a)

    sign, logabs = _det_parts(a)
    return sign * _ufuncs.exp(logabs)


def slogdet(a):
    a = _arr(a)
    _square(a)
    if _host(a):
        r = _np.linalg.slogdet(a.get())
        return type(r)(_to(r.sign, a), _to(r.logabsdet, a))
    sign, logabs = _det_parts(a)
    return _np.linalg._linalg.SlogdetResult(sign, logabs) if hasattr(_np.linalg, "_linalg") else (sign, logabs)


# ---- Cholesky, QR ------------------------------------------------------------------------------------
def cholesky(a, /, *, upper=False):
    a = _arr(a)
    _square(a)
    if _host(a):
        return _to(_np.linalg.cholesky(a.get(), upper=upper), a)

    dt = _work_dtype(a)
    batch, idxs = _batched(a, 2)
    parts = []
    for idx in idxs:
        c = _cm(a[idx].astype(dt))
        if _core._tegula.solver_potrf(True, c) > 0:
            raise LinAlgError("Matrix is not positive definite")
        low = tril(c.T)
        parts.append(triu(low.conj().T) if upper else low)
    return _stack(parts, batch, a)


def qr(a, mode="reduced"):
    a = _arr(a)
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if _host(a):
        r = _np.linalg.qr(a.get(), mode=mode)
        return tuple(_to(x, a) for x in r) if isinstance(r, tuple) else _to(r, a)
    dt = _work_dtype(a)
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    batch, idxs = _batched(a, 2)
    qs, rs, hs, taus = [], [], [], []
    for idx in idxs:
        h = _cm(a[idx].astype(dt))
        tau = empty((max(k, 1),), dt, device=_core.device_of(a))
        _core._tegula.solver_geqrf(h, tau)
        if mode == "raw":
            hs.append(h)
            taus.append(tau[:k])
            continue
        rows = m if mode == "complete" else k
        rs.append(triu(h.T[:rows, :]))
        if mode == "r":
            continue
        qcols = m if mode == "complete" else k
        qbuf = zeros((qcols, m), dt, device=_core.device_of(a))
        qbuf[:k] = h[:k]
        _core._tegula.solver_orgqr(k, qbuf, tau)
        qs.append(qbuf.T)
    if mode == "raw":
        return _stack(hs, batch, a), _stack(taus, batch, a)
    if mode == "r":
        return _stack(rs, batch, a)
    return _np.linalg._linalg.QRResult(_stack(qs, batch, a), _stack(rs, batch, a)) \
        if hasattr(_np.linalg, "_linalg") and hasattr(_np.linalg._linalg, "QRResult") else (_stack(qs, batch, a), _stack(rs, batch, a))


# ---- eigenvalues, SVD -----------------------------------------------------------------------------
def _eigh(a, UPLO, vectors):
    dt = _work_dtype(a)
    rdt = "float32" if dt in ("float32", "complex64") else "float64"
    n = a.shape[-1]
    batch, idxs = _batched(a, 2)
    ws, vs = [], []

    for idx in idxs:
        c = _cm(a[idx].astype(dt))
        w = empty((n,), rdt, device=_core.device_of(a))
        if _core._tegula.solver_syevd(vectors, UPLO == "L", c, w) > 0:
            raise LinAlgError("Eigenvalues did not converge")
        ws.append(w)
        vs.append(c.T)
    return _stack(ws, batch, a), (_stack(vs, batch, a) if vectors else None)


def eigh(a, UPLO="L"):
    a = _arr(a)
    _square(a)
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    if _host(a):
        w, v = _np.linalg.eigh(a.get(), UPLO)
        return _np.linalg._linalg.EighResult(_to(w, a), _to(v, a)) if hasattr(_np.linalg, "_linalg") else (_to(w, a), _to(v, a))
    w, v = _eigh(a, UPLO, True)
    return _np.linalg._linalg.EighResult(w, v) if hasattr(_np.linalg, "_linalg") else (w, v)


_SAID_HOST = set()


def _host_eig(name, a):
    """eig/eigvals of a device array: NumPy's LAPACK geev on a host copy (cuSOLVER's Xgeev is not wired in yet),
    said once per function by a PerformanceWarning; the results come back to a's device."""
    if not _host(a) and name not in _SAID_HOST:  # (an empty a goes to the host silently: no work to move)
        import warnings

        from tegula.tile import PerformanceWarning

        _SAID_HOST.add(name)
        warnings.warn(f"tegula.numpy.linalg.{name} runs on the host (NumPy's LAPACK) and copies the result back: "
                      "there is no GPU path for general (non-symmetric) eigenproblems yet; eigh is on the GPU",
                      PerformanceWarning, stacklevel=3)
    return a.get()


def eig(a):
    """Eigenvalues and right eigenvectors of general square matrices (NumPy's EigResult), see _host_eig."""
    a = _arr(a)
    _square(a)
    w, v = _np.linalg.eig(_host_eig("eig", a))
    return _np.linalg._linalg.EigResult(_to(w, a), _to(v, a)) if hasattr(_np.linalg, "_linalg") else (_to(w, a),
                                                                                                     _to(v, a))


def eigvals(a):
    a = _arr(a)
    _square(a)
    return _to(_np.linalg.eigvals(_host_eig("eigvals", a)), a)


def eigvalsh(a, UPLO="L"):
    a = _arr(a)
    _square(a)
    if _host(a):
        return _to(_np.linalg.eigvalsh(a.get(), UPLO), a)
    return _eigh(a, UPLO, False)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a = _arr(a)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if _host(a):
        r = _np.linalg.svd(a.get(), full_matrices, compute_uv, hermitian)
        return type(r)(*(_to(x, a) for x in r)) if compute_uv else _to(r, a)

    dt = _work_dtype(a)
    rdt = "float32" if dt in ("float32", "complex64") else "float64"
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    batch, idxs = _batched(a, 2)
    us, ss, vhs = [], [], []
    dev = _core.device_of(a)
    for idx in idxs:
        x = a[idx].astype(dt)
        tall = m >= n
        # gesvd needs rows >= columns: a wide matrix is factored as its transpose (see the module notes).
        rows, cols = (m, n) if tall else (n, m)
        buf = _cm(x) if tall else _contig(x)
        s = empty((k,), rdt, device=dev)
        job_u = ("A" if full_matrices else "S") if compute_uv else "N"
        ucols = rows if (compute_uv and full_matrices) else k
        u = empty((ucols, rows), dt, device=dev)      # column-major rows x ucols
        vt = empty((cols, cols), dt, device=dev)      # column-major cols x cols
        info = _core._tegula.solver_gesvd(job_u, "A" if compute_uv else "N", buf, s, u, vt)
        if info > 0:
            raise LinAlgError("SVD did not converge")
        ss.append(s)
        if compute_uv:
            if tall:
                us.append(u.T)
                vhs.append(vt.T)
            else:
                us.append(vt)     # U = conj(V') is the row-major view of V'^H's column-major buffer
                vhs.append(u)     # V^H = U'^T is the row-major view of U's column-major buffer
    if not compute_uv:
        return _stack(ss, batch, a)
    res = (_stack(us, batch, a), _stack(ss, batch, a), _stack(vhs, batch, a))
    return _np.linalg._linalg.SVDResult(*res) if hasattr(_np.linalg, "_linalg") else res


def _contig(x):
    return ascontiguousarray(x)


def svdvals(x, /):
    return svd(x, compute_uv=False)


# ---- built on the above -----------------------------------------------------------------------------
def lstsq(a, b, rcond=None):
    a, b = _arr(a), _arr(b)
    if _host(a, b):
        x, res, rank, s = _np.linalg.lstsq(a.get(), b.get(), rcond=rcond)
        return _to(x, a), _to(res, a), int(rank), _to(s, a)
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    m, n = a.shape
    vector = b.ndim == 1
    bb = b.reshape(m, 1) if vector else b
    if bb.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    u, s, vh = svd(a, full_matrices=False)
    eps = _np.finfo(s.dtype).eps if s.dtype != "bfloat16" else 2.0 ** -7
    cut = (eps * max(m, n) if rcond is None else rcond) * float(s[0]) if s.shape[0] else 0.0
    keep = s > cut
    rank = int(keep.sum())
    inv_s = _ufuncs.where(keep, 1.0 / _ufuncs.where(keep, s, 1.0), 0.0)
    ub = matmul(u.conj().T, bb.astype(u.dtype))
    x = matmul(vh.conj().T, ub * inv_s.reshape(-1, 1).astype(ub.dtype))
    if rank == n and m > n:
        r = matmul(a.astype(x.dtype), x) - bb.astype(x.dtype)
        res = (_ufuncs.abs(r) ** 2).sum(axis=0)
    else:
        from ._creation import empty

        res = empty((0,), s.dtype, device=_core.device_of(a))
    return (x.reshape(n) if vector else x), (res if not vector or res.shape[0] == 0 else res.reshape(res.shape[0])), rank, s


def pinv(a, rcond=None, hermitian=False, *, rtol=None):
    a = _arr(a)
    if _host(a):
        return _to(_np.linalg.pinv(a.get(), rcond=1e-15 if rcond is None and rtol is None else (rcond if rcond is not None else rtol), hermitian=hermitian), a)
    u, s, vh = svd(a, full_matrices=False)
    tol = (1e-15 if rcond is None and rtol is None else (rcond if rcond is not None else rtol)) * s.max(axis=-1, keepdims=True)
    inv_s = _ufuncs.where(s > tol, 1.0 / _ufuncs.where(s > tol, s, 1.0), 0.0)
    return matmul(vh.conj().swapaxes(-1, -2) * inv_s[..., None, :].astype(vh.dtype), u.conj().swapaxes(-1, -2))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = _arr(A)
    if _host(A):
        return _to(_np.linalg.matrix_rank(A.get(), tol=tol, hermitian=hermitian, rtol=rtol), A)
    if A.ndim < 2:
        return (A != 0).any().astype("int64")
    s = svd(A, compute_uv=False)
    if tol is None:
        r = (max(A.shape[-2:]) * _np.finfo(s.dtype).eps) if rtol is None else rtol
        tol = s.max(axis=-1, keepdims=True) * r
    return (s > tol).sum(axis=-1)


def tensorinv(a, ind=2):
    """The inverse of a viewed as a square matrix: its first `ind` axes against the rest (NumPy's)."""
    a = _arr(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = a.shape[ind:] + a.shape[:ind]
    return inv(a.reshape(math.prod(a.shape[ind:]), -1)).reshape(invshape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b: a's trailing axes (after moving `axes` last) are x's shape."""
    a, b = _arr(a), _arr(b)
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = a.transpose(order)
    oldshape = a.shape[-(an - b.ndim):] if an > b.ndim else ()
    prod = math.prod(oldshape)
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement             "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(prod, prod), b.reshape(-1)).reshape(oldshape)


def matrix_power(a, n):
    a = _arr(a)
    _square(a)
    if not isinstance(n, (int, _np.integer)):
        raise TypeError("exponent must be an integer")
    if n == 0:
        from ._manipulation import broadcast_to

        return broadcast_to(eye(a.shape[-1], dtype=a.dtype, device=_core.device_of(a)), a.shape).copy()
    if n < 0:
        a, n = inv(a), -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    arrays = [_arr(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    r = arrays[0]
    for x in arrays[1:]:
        r = matmul(r, x)
    if out is not None:
        out._assign(r)
        return out
    return r


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = _arr(x)
    ax = axis
    v = _ufuncs.abs(x)
    if ord == _np.inf:
        return v.max(axis=ax, keepdims=keepdims)
    if ord == -_np.inf:
        return v.min(axis=ax, keepdims=keepdims)
    if ord == 0:
        return (x != 0).sum(axis=ax, keepdims=keepdims).astype(v.dtype if v.dtype.kind == "f" else "float64")
    if ord == 1:
        return v.sum(axis=ax, keepdims=keepdims)
    if ord == 2:
        return _ufuncs.sqrt((v * v).sum(axis=ax, keepdims=keepdims))
    return (v ** ord).sum(axis=ax, keepdims=keepdims) ** (1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def norm(x, ord=None, axis=None, keepdims=False):
    x = _arr(x)
    if x._dtype_name.startswith(("int", "uint", "bool")):
        x = x.astype("float64")
    if axis is None and ord is None:
        r = _ufuncs.sqrt((_ufuncs.abs(x) ** 2).sum())
        return r.reshape((1,) * x.ndim) if keepdims else r
    if axis is None:
        axis = tuple(range(x.ndim))
    if isinstance(axis, (int, _np.integer)) or len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        one = int(axis) if isinstance(axis, (int, _np.integer)) else int(axis[0])
        if not -x.ndim <= one < x.ndim:
            raise _core._tegula.AxisError(f"axis {one} is out of bounds for array of dimension {x.ndim}")
        return vector_norm(x, axis=one % x.ndim, keepdims=keepdims, ord=2 if ord is None else ord)
    axis = tuple(_axis(a, x.ndim) for a in axis)
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    r0, c0 = axis
    v = _ufuncs.abs(x)
    if ord in (None, "fro"):
        r = _ufuncs.sqrt((v * v).sum(axis=axis, keepdims=keepdims))
    elif ord in (1, -1):
        s = v.sum(axis=r0, keepdims=True)
        r = s.max(axis=c0, keepdims=True) if ord == 1 else s.min(axis=c0, keepdims=True)
        r = r if keepdims else r.reshape(tuple(e for i, e in enumerate(r.shape) if i not in axis))
    elif ord in (_np.inf, -_np.inf):
        s = v.sum(axis=c0, keepdims=True)
        r = s.max(axis=r0, keepdims=True) if ord == _np.inf else s.min(axis=r0, keepdims=True)
        r = r if keepdims else r.reshape(tuple(e for i, e in enumerate(r.shape) if i not in axis))
    elif ord in (2, -2, "nuc"):
        from ._manipulation import moveaxis

        y = moveaxis(moveaxis(x, r0, -2), c0 if c0 > r0 else c0 + 1, -1) if (r0, c0) != (x.ndim - 2, x.ndim - 1) else x
        s = svd(y, compute_uv=False)
        r = s.max(axis=-1) if ord == 2 else s.min(axis=-1) if ord == -2 else s.sum(axis=-1)
        if keepdims:
            shape = list(x.shape)
            shape[r0] = shape[c0] = 1
            r = r.reshape(shape)
    else:
        raise ValueError("Invalid norm order for matrices.")
    return r


def cond(x, p=None):
    x = _arr(x)
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        return s[..., 0] / s[..., -1] if p in (None, 2) else s[..., -1] / s[..., 0]
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


def trace(x, /, *, offset=0, dtype=None):
    return _trace(_arr(x), offset, -2, -1, dtype)


def diagonal(x, /, *, offset=0):
    return _diagonal(_arr(x), offset, -2, -1)


def matrix_transpose(x, /):
    return _arr(x).swapaxes(-1, -2)


def cross(x1, x2, /, *, axis=-1):
    a, b = _arr(x1), _arr(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("incompatible dimensions for cross product (dimension must be 3)")
    a, b = moveaxis(a, axis, -1), moveaxis(b, axis, -1)
    r = stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1], a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
               a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)
    return moveaxis(r, -1, axis)


def vecdot(x1, x2, /, *, axis=-1):
    return _vecdot(x1, x2, axis=axis)


from ._matmul import matmul, outer, tensordot  # noqa: E402,F401
from . import _ufuncs
from ._array_api import tril, triu, vecdot as _vecdot
from ._creation import arange, ascontiguousarray, empty, eye, zeros
from ._manipulation import broadcast_to, diagonal as _diagonal, moveaxis, stack, trace as _trace
