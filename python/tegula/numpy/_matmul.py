"""matmul, dot, vecdot-free products (matmul, @, dot, inner, outer, tensordot) with NumPy's shape and dtype rules.

Where it runs:
- GPU arrays of float16, bfloat16, float32 (IEEE, no TF32) and float64: cuBLASLt, operands passed as they lie when
  one of their last two axes has unit stride (a transposed view costs nothing), batches as strided batches;
- GPU complex arrays: four real products over the parts; GPU integer and bool arrays: a tile kernel (CUDA cores,
  exact wrap-around as NumPy);
- CPU-interpreter arrays: NumPy on the host (its BLAS), the result copied back;
- a 1-D @ 1-D product (both devices): one fused multiply-and-sum of the array engine (strided views read in place);
- A @ x, x @ A and X @ A (X of at most 8 rows) over a large float32/float64 matrix A in memory on the GPU: a pending
  library node (libs/matrix_products.hpp), computed when read, together with every other held product over A in one
  pass over it (bicg's `r @ A, A @ p` read A once).
"""
from __future__ import annotations

import math
import os as _os

import numpy as _np

from . import _core
from ._common import _arr, _axis
from ._core import ndarray
from ._creation import ascontiguousarray, empty
from ._dtypes import result_type
from ._indexing import _launch
from ._manipulation import broadcast_to, moveaxis
from ._ufuncs import conjugate

_BLAS = ("float16", "bfloat16", "float32", "float64")


def _matmul_on_axes(a, b, axes, out, dtype):
    """matmul with the gufunc axes= argument: each operand's core axes (two, or one for a 1-D operand) moved last,
    multiplied, and the result's core axes moved where axes[2] says."""
    if not isinstance(axes, (list, tuple)) or len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs")
    a, b = _arr(a), _arr(b)
    cores = []
    for x, ax in zip((a, b), axes[:2]):
        ax = tuple(ax) if isinstance(ax, (list, tuple)) else (ax,)
        if len(ax) != min(x.ndim, 2):
            raise ValueError(f"axes item has {len(ax)} entries but the operand has {min(x.ndim, 2)} core dimensions")
        cores.append(moveaxis(x, list(ax), list(range(x.ndim - len(ax), x.ndim))))
    r = matmul(cores[0], cores[1], dtype=dtype)
    out_ax = axes[2]
    out_ax = tuple(out_ax) if isinstance(out_ax, (list, tuple)) else (out_ax,)
    n_core = (a.ndim >= 2) + (b.ndim >= 2)
    if len(out_ax) != n_core:
        raise ValueError(f"axes item for the output has {len(out_ax)} entries, the result has {n_core} core "
                         "dimensions")
    if n_core:
        r = moveaxis(r, list(range(r.ndim - n_core, r.ndim)), list(out_ax))
    if out is not None:
        out._assign(r)
        return out
    return r


def matmul(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K", axes=None, axis=None):
    if axis is not None:
        raise TypeError("matmul: axis can only be used with a single shared core dimension, not with the 3 distinct "
                        "ones implied by signature (n?,k),(k,m?)->(n?,m?).")
    if axes is not None:
        return _matmul_on_axes(x1, x2, axes, out, dtype)
    a, b = _arr(x1), _arr(x2)
    if b._device_id != a._device_id:
        raise ValueError(f"arrays on different devices ({_core.device_of(a)} and {_core.device_of(b)}) cannot be "
                         "combined; move one with .to_device()")
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             "signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    rt = _result_dtype(a, b)
    passed = _matrix_pass(a, b, rt)
    if passed is not None:
        return _dtype_and_out(passed, dtype, out)
    if a.ndim == 1 and b.ndim == 1 and rt != "bool":  # 1-D @ 1-D (lu's and trmm's loops): no reshapes on the way
        if a.shape[0] != b.shape[0]:
            raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                             f"(n?,k),(k,m?)->(n?,m?) (size {b.shape[0]} is different from {a.shape[0]})")
        return _dtype_and_out(_vector_dot(a, b, rt), dtype, out)
    squeeze_a, squeeze_b = a.ndim == 1, b.ndim == 1
    vec_b = b
    if squeeze_a:
        a = a.reshape(1, a.shape[0])
    if squeeze_b:
        b = b.reshape(b.shape[0], 1)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n?,k),(k,m?)->(n?,m?) (size {b.shape[-2]} is different from {a.shape[-1]})")
    batch = _np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if n == 1 and not squeeze_a and b.ndim == 2 and rt in ("float32", "float64") and _rows_reduce(a):
        # A @ x, and A @ a (k, 1) column (nbody's (G * (dx * inv_r3)) @ mass), kept 2-D
        r = _matrix_vector(a, vec_b if squeeze_b else b.reshape(1, k), rt, keepdims=not squeeze_b)
        squeeze_b = False  # already of the result's rank (and pending)
    elif 0 < k <= _TINY_K and rt in _TINY_K_DTYPES:
        r = _tiny_contraction(a, b, k, rt)
    elif batch and all(e == 1 for e in b.shape[:-2]) and _rows_fold(a):
        # a stack of matrices times one matrix (doitgen's (NR, NQ, 1, NP) @ (NP, NP)) is one product of all their
        # rows: one GEMM of (count * m) rows, not count small ones
        count = math.prod(batch)
        r = _product(a.reshape(count * m, k), b.reshape(k, n), (), count * m, n, k, rt).reshape(tuple(batch) + (m, n))
    else:
        r = _product(a, b, batch, m, n, k, rt)
    if squeeze_a:
        r = r.reshape(r.shape[:-2] + (r.shape[-1],))
    if squeeze_b:
        r = r.reshape(r.shape[:-1])
    return _dtype_and_out(r, dtype, out)


# Products over a matrix in memory of at least this many bytes wait as pending library nodes, so that the held
# products over the same matrix are one pass over it (libs/matrix_products.hpp); a smaller matrix stays in the GPU's
# L2 for a second product (50-60 MB), where cuBLASLt computes each at once. The CPU interpreter keeps NumPy's BLAS
# unless _PASS_MIN_BYTES_CPU is set (tests run the host reference of the pass that way). _NARROW_PASS: X @ A with X
# of 2 to 8 rows (mlp's (8, 30000) @ (30000, 10000)) takes the pass too.
# Off on the GPU unless TEGULA_MATRIX_PASS=1: its first GPU run (session 27) crashed the process at the first pass
# (session 29 found why: the op's describe() formatted numbers through an ostream, which the GPU machine's build of
# the extension cannot do; fixed, tests/python/test_source_rules.py); until a GPU run passes
# tests/gpu/test_gpu_matrix_pass.py and measures the pass against cuBLASLt, cuBLASLt keeps these products, and the
# CPU interpreter's tests keep the node's semantics.
_PASS_MIN_BYTES = (64 << 20) if _os.environ.get("TEGULA_MATRIX_PASS") == "1" else None
_PASS_MIN_BYTES_CPU = None
_NARROW_PASS = True
_PASS_MAX_ROWS = 8  # libs/matrix_pass.hpp: matrix_pass_max_z


def _matrix_pass(a, b, rt):
    """A @ x, x @ A or X @ A as a pending matrix-pass product (None where it does not apply: the matrix pending,
    small, of another dtype than the product's, or laid out so that the pass cannot read it in place)."""
    if rt not in ("float32", "float64"):
        return None
    if a.ndim == 2 and b.ndim == 1:
        mat, x, side = a, b, 0
    elif a.ndim == 1 and b.ndim == 2:
        mat, x, side = b, a, 1
    elif a.ndim == 2 and b.ndim == 2 and 2 <= a.shape[0] <= _PASS_MAX_ROWS and _NARROW_PASS:
        mat, x, side = b, a, 1
    else:
        return None
    least = _PASS_MIN_BYTES if mat._device_id >= 0 else _PASS_MIN_BYTES_CPU
    if least is None or mat._pending or mat._dtype_name != rt or mat.nbytes < least:
        return None
    need = mat.shape[1] if side == 0 else mat.shape[0]
    if x.shape[-1] != need:
        return None  # matmul's own check says it NumPy's way
    if not _core._tegula.matrix_product_applies(mat)[0]:
        return None
    if x.ndim == 2 and mat._strides[1] != 1:
        return None  # several rows only over a matrix with contiguous rows
    return _core._tegula.matrix_product(mat, x if x._dtype_name == rt else x.astype(rt), side)


_TINY_K = 8  # a contraction this short is memory-bound whatever computes it
_TINY_K_DTYPES = ("float32", "float64", "complex64", "complex128", "int8", "int16", "int32", "int64", "uint8",
                  "uint16", "uint32", "uint64")


def _tiny_contraction(a, b, k, rt):
    """a (..., m, k) @ b (..., k, n) with k <= 8 as the array engine's sum of k broadcast products,
    a[..., :, j, None] * b[..., j, None, :]: one elementwise kernel that reads its operands where they lie and fuses
    with what computes them and what consumes the product (stockham_fft's 4x4 butterfly over (4, 4^9) twiddled
    columns: its twiddle multiply, the product and the write into y are one pass, where a GEMM of k = 4 reads and
    writes as much and is a library call of its own). Sums in the order j = 0, 1, ..., k - 1, in rt (integers wrap
    as NumPy's do)."""
    x = a if a._dtype_name == rt else a.astype(rt)
    y = b if b._dtype_name == rt else b.astype(rt)
    acc = None
    for j in range(k):
        term = x[..., :, j:j + 1] * y[..., j:j + 1, :]
        acc = term if acc is None else acc + term
    return acc


def _product(a, b, batch, m, n, k, rt):
    """a (batch, m, k) @ b (batch, k, n) in dtype rt: NumPy on the CPU interpreter, else cuBLASLt (real and complex
    floats) or the tile kernel (integers, bool)."""
    if a._device_id < 0:
        return _host(a, b, rt)
    if rt in _BLAS:
        return _blas(a.astype(rt) if a._dtype_name != rt else a, b.astype(rt) if b._dtype_name != rt else b,
                     batch, m, n, k, rt)
    if rt in ("complex64", "complex128"):
        return _complex(a.astype(rt), b.astype(rt), batch, m, n, k, rt)
    return _tile(a.astype(rt), b.astype(rt), batch, m, n, k, rt)


def _rows_fold(a):
    """True when all of a's rows (every axis but the last) are one strided run, so a.reshape(-1, k) is a view (or a
    is pending, and its evaluation is contiguous anyway)."""
    if a._pending:
        return True
    run = None  # the stride the next outer axis must have
    for e, s in reversed(list(zip(a.shape[:-1], a._strides[:-1]))):
        if e == 1:
            continue
        if run is not None and s != run:
            return False
        run = s * e
    return True


def _result_dtype(a, b):
    """NumPy's result dtype of a product (bfloat16 with itself stays bfloat16, with anything else float32)."""
    da, db = a._dtype_name, b._dtype_name
    if "bfloat16" in (da, db):
        return "bfloat16" if da == db else "float32"
    if da == db:
        return da

    return _np.dtype(result_type(a, b)).name


def _dtype_and_out(r, dtype, out):
    if dtype is not None:
        r = r.astype(_core.dtype_name(dtype))
    if out is not None:
        if tuple(out.shape) != tuple(r.shape):
            raise ValueError(f"matmul: output operand has shape {tuple(out.shape)}, the result {tuple(r.shape)}")
        out._assign(r)
        return out
    return r


def _vector_dot(a, b, rt):
    """1-D @ 1-D: a fused multiply-and-sum in the array engine (views read in place: no copy of a strided
    column, no library call for what is one reduction)."""
    if rt == "bfloat16":
        return (a.astype("float32") * b.astype("float32")).sum().astype(rt)
    x, y = (a if a._dtype_name == rt else a.astype(rt)), (b if b._dtype_name == rt else b.astype(rt))
    s = (x * y)._reduce("sum", None, False)  # the engine's sum (NumPy's promotion), not the Python wrapper
    return s if s._dtype_name == rt else s.astype(rt)


def _rows_reduce(mat):
    """Whether A @ x is better as the array engine's fused multiply-and-sum than as a cuBLASLt call: when the matrix
    is 2-D and still a pending expression (gesummv's (alpha * A) @ x), which the sum then reads in place of
    computing it into memory first (A is computed in C order: the sum runs along its contiguous rows). Measured on
    an H100 (bench/probe_matvec.py, session 16): with A pending the engine is 1.5x-3x faster than materialising it
    and calling cuBLASLt; with A already in memory cuBLASLt's GEMV is faster (float64: 0.067 vs 0.094 ms at 4000^2,
    float32 16384^2 even), so that case, and x @ A, stay with the library."""
    return mat.ndim == 2 and mat._pending


def _matrix_vector(a, x, rt, keepdims=False):
    """A @ x as a fused multiply-and-sum in the array engine: one pass over A, whatever computed A fused into it
    (gesummv's (alpha * A) @ x reads A once and writes nothing but the result). x is (k,) or a (1, k) row;
    keepdims: the result is the (m, 1) column."""
    a, x = (a if a._dtype_name == rt else a.astype(rt)), (x if x._dtype_name == rt else x.astype(rt))
    return (a * x)._reduce("sum", 1, keepdims)


def _host(a, b, rt):
    """The CPU interpreter's arrays: NumPy's BLAS on the host (bfloat16 computed in float32)."""
    ha = a.astype("float32").get() if a._dtype_name == "bfloat16" else a.get()
    hb = b.astype("float32").get() if b._dtype_name == "bfloat16" else b.get()
    r = _np.matmul(ha, hb)
    out = _core.as_array(r.astype(_np.float32 if rt == "bfloat16" else rt), a._device_id)
    return out.astype("bfloat16") if rt == "bfloat16" else out


def _blas(a, b, batch, m, n, k, rt):
    """batch + (m, k) @ batch + (k, n) through cuBLASLt (cpp/tegula/libs/matmul_arrays.hpp hands each operand over
    in place where its layout allows, else as a padded copy; on the CPU its host reference runs)."""
    return _core._tegula.gemm(a, b, list(batch), m, n, k, rt)


_COMPLEX_LT = {}  # device -> False once cuBLASLt refused a complex product there (warned once)


def _complex(a, b, batch, m, n, k, rt):
    """One complex cuBLASLt product (as CuPy's zgemm: a single pass over the operands); where cuBLASLt refuses
    it, four real products of the parts, with a PerformanceWarning once."""
    if _COMPLEX_LT.get(a._device_id, True):
        try:
            return _blas(a, b, batch, m, n, k, rt)
        except ValueError as e:  # cuBLASLt NOT_SUPPORTED, INVALID_VALUE or no algorithm
            import warnings

            from tegula.tile import PerformanceWarning

            _COMPLEX_LT[a._device_id] = False
            warnings.warn(f"tegula.numpy: cuBLASLt refused a {rt} product ({e}); complex products on this device "
                          "run as four real products of the parts", PerformanceWarning, stacklevel=4)
    part = "float32" if rt == "complex64" else "float64"
    ar, ai = a.real.astype(part), a.imag.astype(part)
    br, bi = b.real.astype(part), b.imag.astype(part)
    re = _blas(ar, br, batch, m, n, k, part) - _blas(ai, bi, batch, m, n, k, part)
    im = _blas(ar, bi, batch, m, n, k, part) + _blas(ai, br, batch, m, n, k, part)
    return re + 1j * im


def _tile(a, b, batch, m, n, k, rt):
    """Integers and bool on the GPU: a tile kernel on the CUDA cores (exact, wrapping as NumPy does)."""
    count = math.prod(batch) if batch else 1
    work = "int32" if rt == "bool" else rt
    ca = ascontiguousarray(broadcast_to(a, tuple(batch) + (m, k)).astype(work).reshape(count, m, k))
    cb = ascontiguousarray(broadcast_to(b, tuple(batch) + (k, n)).astype(work).reshape(count, k, n))
    d = empty((count, m, n), work, device=_core.device_of(a))
    bm, bn, bk = 32, 32, 16
    _launch(_int_kernel(), (-(-m // bm) * -(-n // bn), count), (ca, cb, d, bm, bn, bk), a._device_id)
    r = d.reshape(tuple(batch) + (m, n))
    return (r != 0) if rt == "bool" else r


_INT_KERNEL = None


def _int_kernel():
    global _INT_KERNEL
    if _INT_KERNEL is None:
        import tegula.tile as tt

        @tt.kernel
        def int_matmul(a, b, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int]):
            pid = tt.bid(0)
            bat = tt.bid(1)
            num_n = tt.num_tiles(c, 2, (1, BM, BN))
            pm = pid // num_n
            pn = pid % num_n
            acc = tt.zeros((BM, BN), c.dtype)
            for kk in range(tt.num_tiles(a, 2, (1, BM, BK))):
                x = tt.load(a, index=(bat, pm, kk), shape=(1, BM, BK)).reshape((BM, BK))
                y = tt.load(b, index=(bat, kk, pn), shape=(1, BK, BN)).reshape((BK, BN))
                acc = acc + x @ y
            tt.store(c, index=(bat, pm, pn), tile=acc.reshape((1, BM, BN)))

        _INT_KERNEL = int_matmul
    return _INT_KERNEL


def dot(a, b, out=None):
    """NumPy's dot: a product with scalars; matmul for 1-D and 2-D operands; beyond, the sum over a's last axis and
    b's second-to-last (its only one when 1-D), as tensordot."""
    a, b = _arr(a), _arr(b)
    if a.ndim == 0 or b.ndim == 0:
        r = a * b
    else:
        ka, kb = a.ndim - 1, max(b.ndim - 2, 0)
        if a.shape[ka] != b.shape[kb]:
            def tight(shape):  # NumPy writes (2,3) and (3,)
                return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"

            raise ValueError(f"shapes {tight(a.shape)} and {tight(b.shape)} not aligned: {a.shape[ka]} (dim {ka}) "
                             f"!= {b.shape[kb]} (dim {kb})")
        r = matmul(a, b) if a.ndim <= 2 and b.ndim <= 2 else tensordot(a, b, axes=([ka], [kb]))
    if out is not None:
        out._assign(r)
        return out
    return r


def vdot(a, b):
    """The dot product of the flattened arrays, the first conjugated (NumPy's vdot): a 0-d array."""
    a, b = _arr(a), _arr(b)
    fa, fb = a.reshape(-1), b.reshape(-1)
    if fa.shape != fb.shape:
        raise ValueError(f"cannot reshape array of size {fb.shape[0]} into shape ({fa.shape[0]},)")
    return matmul(conjugate(fa) if fa._dtype_name.startswith("complex") else fa, fb)


def kron(a, b):
    """The Kronecker product: blocks a[i, j, ...] * b, as NumPy's (the smaller rank padded with leading ones)."""
    a, b = _arr(a), _arr(b)
    nd = max(a.ndim, b.ndim)
    sa, sb = (1,) * (nd - a.ndim) + a.shape, (1,) * (nd - b.ndim) + b.shape
    ia = [d for s in sa for d in (s, 1)]   # (a0, 1, a1, 1, ...)
    ib = [d for s in sb for d in (1, s)]   # (1, b0, 1, b1, ...)
    return (a.reshape(ia) * b.reshape(ib)).reshape(tuple(x * y for x, y in zip(sa, sb)))


def inner(a, b):
    a, b = _arr(a), _arr(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b

    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b, out=None):
    a, b = _arr(a).reshape(-1), _arr(b).reshape(-1)
    r = a.reshape(-1, 1) * b.reshape(1, -1)
    if out is not None:
        out._assign(r)
        return out
    return r


def tensordot(a, b, axes=2):
    """Contract axes of a with axes of b: the contracted axes are moved last / first and folded into one matmul."""
    a, b = _arr(a), _arr(b)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("axes must be a non-negative integer")
        ax_a, ax_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = [ax_a] if isinstance(ax_a, int) else list(ax_a)
        ax_b = [ax_b] if isinstance(ax_b, int) else list(ax_b)
    if len(ax_a) != len(ax_b):
        raise ValueError("shape-mismatch for sum")
    ax_a = [_axis(x, a.ndim) for x in ax_a] if a.ndim else ax_a  # (AxisError is an IndexError, as NumPy's here)
    ax_b = [_axis(x, b.ndim) for x in ax_b] if b.ndim else ax_b
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("shape-mismatch for sum")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    at = a.transpose(free_a + ax_a) if a.ndim else a
    bt = b.transpose(ax_b + free_b) if b.ndim else b
    ka = math.prod(a.shape[i] for i in ax_a)
    ma = math.prod(a.shape[i] for i in free_a)
    nb = math.prod(b.shape[j] for j in free_b)
    r = matmul(at.reshape(ma, ka), bt.reshape(ka, nb))
    return r.reshape(tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))
