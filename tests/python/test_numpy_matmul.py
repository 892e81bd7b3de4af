"""matmul / @ / dot / inner / outer / tensordot with NumPy's rules, and tegula.math.matmul's epilogues, on the CPU
interpreter (host NumPy), plus the GPU path's pieces that run anywhere: how operands are passed to cuBLASLt
(unit-stride views as they lie, others copied with padded rows) and the integer tile kernel (interpreter)."""
import numpy as np
import pytest

import tegula.math as tm
import tegula.numpy as tnp
from tegula.numpy import _matmul as M

RNG = np.random.default_rng(11)


def _r(shape, dtype):
    if np.dtype(dtype).kind in "iub":
        return RNG.integers(-4, 5, shape).astype(dtype)
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("sa,sb", [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 4)), ((3, 5), (5, 4)),
                                   ((2, 3, 5), (5, 4)), ((2, 1, 3, 5), (4, 5, 6)), ((7, 3, 5), (7, 5, 2))])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool", "complex128"])
def test_matmul_shapes_and_dtypes(sa, sb, dtype):
    a, b = _r(sa, dtype), _r(sb, dtype)
    want = np.matmul(a, b)
    got = tnp.asarray(a) @ tnp.asarray(b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)


def test_errors_and_mixed_dtypes():
    a, b = tnp.asarray(_r((3, 4), "float32")), tnp.asarray(_r((5, 2), "float32"))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        tnp.matmul(a, b)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        tnp.matmul(tnp.asarray(3.0), a)
    x, y = _r((3, 4), "int16"), _r((4, 2), "float32")
    assert (tnp.asarray(x) @ tnp.asarray(y)).dtype == np.matmul(x, y).dtype


def test_dot_inner_outer_tensordot():
    a, b, v = _r((3, 4), "float64"), _r((4, 5), "float64"), _r((4,), "float64")
    np.testing.assert_allclose(tnp.dot(tnp.asarray(a), tnp.asarray(b)).get(), a @ b)
    np.testing.assert_allclose(tnp.dot(tnp.asarray(v), tnp.asarray(v)).get(), v @ v)
    np.testing.assert_allclose(tnp.inner(tnp.asarray(a), tnp.asarray(a)).get(), np.inner(a, a))
    np.testing.assert_allclose(tnp.outer(tnp.asarray(v), tnp.asarray(v)).get(), np.outer(v, v))
    t, u = _r((2, 3, 4), "float64"), _r((3, 4, 5), "float64")
    np.testing.assert_allclose(tnp.tensordot(tnp.asarray(t), tnp.asarray(u), axes=2).get(), np.tensordot(t, u, 2))
    np.testing.assert_allclose(tnp.tensordot(tnp.asarray(t), tnp.asarray(u), axes=([1], [0])).get(),
                               np.tensordot(t, u, ([1], [0])))
    with pytest.raises(ValueError, match="shape-mismatch"):
        tnp.tensordot(tnp.asarray(t), tnp.asarray(u), axes=([0], [0]))


@pytest.mark.parametrize("sa,sb", [((2, 5, 3), (3,)), ((2, 5, 3), (3, 4)), ((5, 3), (2, 3, 4)), ((2, 5, 3), (6, 3, 4)),
                                   ((3,), (2, 3, 4))])
def test_dot_beyond_two_dimensions(sa, sb):
    """N-D dot sums over a's last axis and b's second-to-last, as NumPy's."""
    a, b = _r(sa, "float64"), _r(sb, "float64")
    got = tnp.dot(tnp.asarray(a), tnp.asarray(b)).get()
    assert got.shape == np.dot(a, b).shape
    np.testing.assert_allclose(got, np.dot(a, b), rtol=1e-12)


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (2, 3)), ((2, 5, 3), (2, 4)), ((3,), (2, 4, 4))])
def test_dot_mismatch_says_what_numpy_says(sa, sb):
    with pytest.raises(ValueError) as mine:
        tnp.dot(tnp.ones(sa), tnp.ones(sb))
    with pytest.raises(ValueError) as numpys:
        np.dot(np.ones(sa), np.ones(sb))
    assert str(mine.value) == str(numpys.value)


def _operand(x, batch, rows, cols, narrow=False):
    """How cpp/tegula/libs/matmul_arrays.cpp hands x to cuBLASLt: (array read, None, trans, ld, batch stride)."""
    y, trans, ld, bs, _ = tnp._core._tegula.gemm_operand(x, list(batch), rows, cols, narrow)
    return y, None, trans, ld, bs


def test_operands_pass_as_they_lie_when_cublaslt_can_read_them():
    x = tnp.asarray(_r((64, 32), "float32"))
    _, _, trans, ld, _ = _operand(x, (), 64, 32)
    assert (trans, ld) == (False, 32)
    _, _, trans, ld, _ = _operand(x.T, (), 32, 64)  # a transposed view: no copy
    assert (trans, ld) == (True, 32)
    y, _, trans, ld, _ = _operand(x[:, ::2], (), 64, 16)  # strided: copied, rows padded to 16 bytes
    assert (trans, ld) == (False, 16) and y.shape == (64, 16)
    src = _r((10, 7), "float32")
    z, _, trans, ld, _ = _operand(tnp.asarray(src), (), 10, 7)  # 28-byte rows: copied, padded to 32 bytes
    assert (trans, ld) == (False, 8) and z.shape == (10, 8)
    np.testing.assert_array_equal(z.get()[:, :7], src)
    bt = tnp.asarray(_r((5, 64, 32), "float32"))
    _, _, trans, ld, bs = _operand(bt, (5,), 64, 32)
    assert (trans, ld, bs) == (False, 32, 64 * 32)


@pytest.mark.parametrize("dtype", ["int32", "int8", "bool", "uint16"])
def test_integer_tile_kernel_on_the_interpreter(dtype):
    a, b = _r((3, 40, 33), dtype), _r((3, 33, 20), dtype)
    got = M._tile(tnp.asarray(a, device="cpu"), tnp.asarray(b, device="cpu"), (3,), 40, 20, 33, dtype)
    np.testing.assert_array_equal(got.get(), np.matmul(a, b))


@pytest.mark.parametrize("epilog", ["none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "gelu_aux_bias"])
def test_math_matmul_epilogues(epilog):
    a, b, c = _r((30, 20), "float32"), _r((20, 10), "float32"), _r((30, 10), "float32")
    bias = _r((10,), "float32") if "bias" in epilog else None
    pre = 0.5 * (a.astype(np.float64) @ b) + 2.0 * c + (bias if bias is not None else 0)
    post = np.maximum(pre, 0) if epilog.startswith("relu") else tm._gelu(pre) if epilog.startswith("gelu") else pre
    for host in (True, False):  # NumPy operands give NumPy results; tegula operands tegula arrays
        conv = (lambda x: x) if host else (lambda x: None if x is None else tnp.asarray(x))
        r = tm.matmul(conv(a), conv(b), conv(c), alpha=0.5, beta=2.0, epilog=epilog, bias=conv(bias))
        rs = r if isinstance(r, tuple) else (r,)
        assert all(isinstance(x, np.ndarray if host else tnp.ndarray) for x in rs)
        rs = [np.asarray(x) if host else x.get() for x in rs]
        if "aux" in epilog:
            np.testing.assert_allclose(rs[1], pre, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(rs[0], post, rtol=1e-5, atol=1e-5)


def test_math_matmul_errors():
    a, b = _r((3, 4), "float32"), _r((4, 5), "float32")
    with pytest.raises(ValueError, match="needs bias"):
        tm.matmul(a, b, epilog="relu_bias")
    with pytest.raises(ValueError, match="unknown epilog"):
        tm.matmul(a, b, epilog="swish")
    with pytest.raises(TypeError, match="one dtype"):
        tm.matmul(a, b.astype(np.float64))
    with pytest.raises(ValueError, match="contracted dimension"):
        tm.matmul(a, a)
    with pytest.raises(TypeError, match="takes float16"):
        tm.matmul(a.astype(np.int32), b.astype(np.int32))


# ---- the GPU path's marshalling on CPU arrays: the same C++ entry points hand the operands to the host reference of
# the cuBLASLt call (cpp/tegula/libs/host_gemm.hpp) in the layouts cuBLASLt would get them ----------------------
@pytest.fixture
def fake_gpu(host_memory):
    def run_on_gpu_path(a, b):
        x, y = tnp.asarray(a), tnp.asarray(b)
        batch = tuple(np.broadcast_shapes(x.shape[:-2], y.shape[:-2]))
        return M._blas(x, y, batch, x.shape[-2], y.shape[-1], x.shape[-1], x._dtype_name)
    return run_on_gpu_path


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gpu_path_layouts(fake_gpu, dtype):
    a, b = _r((4, 37, 29), dtype), _r((29, 23), dtype)
    cases = [(a[0], b), (a, b), (a[:, ::2, :], b), (np.ascontiguousarray(a[0].T).T, b),
             (a[0], np.ascontiguousarray(b.T).T), (a[0][:, ::2], b[::2]), (a[:1], b), (a[0], b[:, :1])]
    for x, y in cases:
        got = fake_gpu(x, y)
        np.testing.assert_allclose(got.get(), np.matmul(x, y), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gpu_path_strided_vectors_and_narrow_unaligned_views(fake_gpu, dtype):
    """correlation's data[:, i] @ data[:, i + 1:]: a strided row or column is its own leading dimension, and a
    narrow product (one side <= 16) reads unaligned rows where they lie: no copy, the layout cuBLASLt gets is right."""
    d = _r((40, 33), dtype)
    x = tnp.asarray(d)
    for i in (0, 1, 5):
        row = x[:, i].reshape(1, 40)
        _, _, trans, ld, _ = _operand(row, (), 1, 40)
        assert (trans, ld) == (True, 33)
        got = M._blas(row, x[:, i + 1:], (), 1, 32 - i, 40, dtype)
        np.testing.assert_allclose(got.get()[0], d[:, i] @ d[:, i + 1:], rtol=1e-5, atol=1e-5)
    col = x[1:, 5].reshape(39, 1)
    _, _, trans, ld, _ = _operand(col, (), 39, 1)
    assert (trans, ld) == (False, 33)
    v, _, trans, ld, _ = _operand(x[3:8, 1:], (), 5, 32, narrow=True)  # 33-element rows: as they lie
    assert (trans, ld) == (False, 33) and v.shape == (5, 32)
    got = M._blas(x[3:8, 1:], x[1:33, 5].reshape(32, 1), (), 5, 1, 32, dtype)
    np.testing.assert_allclose(got.get()[:, 0], d[3:8, 1:] @ d[1:33, 5], rtol=1e-5, atol=1e-5)
    w, _, trans, ld, _ = _operand(x[3:30, 1:], (), 27, 32)  # wide: copied into 16-byte rows
    assert not trans and ld * w.itemsize % 16 == 0


def _engine_kernels(p):
    """How many kernels a profile holds when every one is the array engine's (a fused kernel, or on a GPU's first
    run the array VM's); else -1."""
    names = [k.name for k in p.launches]
    return len(names) if all(n == "tegula_array_kernel" or n.startswith("tegula_vm") for n in names) else -1


def test_a_pending_matrix_times_a_vector_is_one_fused_kernel():
    """gesummv's alpha * A @ x + beta * B @ x: (alpha * A) is not computed into memory; each product is one
    multiply-and-sum kernel over A (bench/probe_matvec.py: 1.5x-3x faster than the library on a computed A)."""
    import tegula

    a, b, x = _r((70, 50), "float64"), _r((70, 50), "float64"), _r((50,), "float64")
    ta, tb, tx = tnp.asarray(a), tnp.asarray(b), tnp.asarray(x)
    with tegula.profile(gpu_timing=False) as p:
        r = 1.5 * ta @ tx + 0.5 * tb @ tx
        r._materialize()
    assert _engine_kernels(p) == 3  # two sums, then their sum
    np.testing.assert_allclose(r.get(), 1.5 * a @ x + 0.5 * b @ x, rtol=1e-12)
    r = (ta * 2).astype("float32") @ tx.astype("float32")
    assert r.dtype == np.float32 and r.shape == (70,)
    np.testing.assert_allclose(r.get(), (a * 2).astype(np.float32) @ x.astype(np.float32), rtol=1e-5,
                               atol=1e-5 * float(np.abs(a * 2).sum(axis=1).max()))  # float32 sums cancel
    assert (tnp.zeros((0, 3)) * 2 @ tnp.ones(3)).shape == (0,)
    m = _r((50, 1), "float64")  # nbody's (G * (dx * inv_r3)) @ mass: a (k, 1) column, the same one kernel
    with tegula.profile(gpu_timing=False) as p:
        r = (2.0 * ta) @ tnp.asarray(m)
        r._materialize()
    assert _engine_kernels(p) == 1 and r.shape == (70, 1)
    np.testing.assert_allclose(r.get(), (2.0 * a) @ m, rtol=1e-12)
    assert (tnp.zeros((3, 0)) * 2 @ tnp.ones(0)).get().tolist() == [0.0, 0.0, 0.0]


def test_gpu_path_transposed_views_and_epilogues(fake_gpu):
    a, b = _r((64, 48), "float32"), _r((48, 40), "float32")
    x, y = tnp.asarray(a), tnp.asarray(b)
    got = M._blas(x.T.T, y, (), 64, 40, 48, "float32")
    np.testing.assert_allclose(got.get(), a @ b, rtol=1e-5, atol=1e-5)
    xt = tnp.asarray(np.ascontiguousarray(a.T))  # (48, 64) in memory: its .T is a transposed view of A
    got = M._blas(xt.T, y, (), 64, 40, 48, "float32")
    np.testing.assert_allclose(got.get(), a @ b, rtol=1e-5, atol=1e-5)
    bias = _r((40,), "float32")
    d, aux = tm.Matmul(xt.T, y, bias=tnp.asarray(bias), epilog="gelu_aux_bias").execute()
    assert d.shape == aux.shape == (64, 40)
    np.testing.assert_allclose(aux.get(), a @ b + bias, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d.get(), tm._gelu(a.astype(np.float64) @ b + bias), rtol=1e-5, atol=1e-5)


def test_math_matmul_batches_c_broadcast_and_bfloat16():
    """Batches broadcast as NumPy's, c broadcasts to the result (a row, a column, another dtype), bias is cast to the
    result's dtype; bfloat16 products are summed in double and rounded once."""
    a, b = _r((3, 1, 9, 6), "float32"), _r((4, 6, 5), "float32")
    ref = a.astype(np.float64) @ b
    for c in (_r((5,), "float32"), _r((9, 1), "float32"), _r((3, 4, 9, 5), "float64"), _r((1, 9, 5), "float32")):
        got = tm.matmul(tnp.asarray(a), tnp.asarray(b), tnp.asarray(c), beta=-1.5, bias=tnp.asarray(np.ones(5)),
                        epilog="relu_bias")  # a float64 bias, cast to float32
        assert got.shape == (3, 4, 9, 5) and got.dtype == tnp.float32
        np.testing.assert_allclose(got.get(), np.maximum(ref - 1.5 * c + 1.0, 0), rtol=1e-5, atol=1e-5)
    x = tnp.asarray(_r((8, 16), "float32")).astype("bfloat16")
    y = tnp.asarray(_r((16, 24), "float32")).astype("bfloat16")
    got = tm.matmul(x, y, epilog="gelu")
    assert got.dtype == x.dtype and got.shape == (8, 24)
    pre = x.astype("float32").get().astype(np.float64) @ y.astype("float32").get()
    np.testing.assert_allclose(got.astype("float32").get(), tm._gelu(pre), rtol=1e-2, atol=1e-2)


def test_math_matmul_checks_before_it_runs():
    a, b = tnp.asarray(_r((6, 4), "float32")), tnp.asarray(_r((4, 5), "float32"))
    pending = a * 2
    with pytest.raises(ValueError, match=r"bias must have shape \(5,\), got \(4,\)"):
        tm.matmul(pending, b, bias=tnp.ones(4, dtype="float32"))
    with pytest.raises(ValueError, match=r"c of shape \(2, 5\) does not broadcast to the result \(6, 5\)"):
        tm.matmul(pending, b, tnp.ones((2, 5), dtype="float32"), beta=1.0)
    with pytest.raises(TypeError, match="out_dtype is for float8 products"):
        tm.matmul(pending, b, out_dtype="float16")
    with pytest.raises(ValueError, match="takes matrices"):
        tm.matmul(tnp.ones(4, dtype="float32"), b)
    with pytest.raises(ValueError, match="takes no bias"):
        tm.matmul(pending, b, bias=tnp.ones(5, dtype="float32"), epilog="relu")
    with pytest.raises(ValueError, match="could not be broadcast"):
        tm.matmul(tnp.ones((2, 6, 4), dtype="float32"), tnp.ones((3, 4, 5), dtype="float32"))
    np.testing.assert_allclose(tm.matmul(pending, b).get(), 2 * a.get().astype(np.float64) @ b.get(), rtol=1e-5)


def test_math_matmul_repeated_execute_on_the_cpu():
    """execute()'s second call is the plan's own run (one C++ call): new results, the operands' current values."""
    a, b = tnp.asarray(_r((5, 4), "float64")), tnp.asarray(_r((4, 3), "float64"))
    bias = tnp.asarray(_r((3,), "float64"))
    mm = tm.Matmul(a, b, bias=bias, epilog="relu_bias")
    r1 = mm.execute()
    assert mm._fast is not None
    want = np.maximum(a.get() @ b.get() + bias.get(), 0)
    a[...] = 1.0
    r2 = mm.execute()
    np.testing.assert_allclose(r1.get(), want, rtol=1e-12)
    np.testing.assert_allclose(r2.get(), np.maximum(np.ones((5, 4)) @ b.get() + bias.get(), 0), rtol=1e-12)


def test_math_matmul_float8_on_the_cpu():
    """torch float8 tensors are read in C++ (tegula.numpy has no float8): a row-major, b the transpose of a row-major
    array; on the CPU the host reference gives the product of their float8 values."""
    torch = pytest.importorskip("torch")
    a = (torch.randn(8, 32) * 2).to(torch.float8_e4m3fn)
    bt = (torch.randn(16, 32) * 2).to(torch.float8_e4m3fn)
    got = tm.matmul(a, bt.T, alpha=0.5)
    assert got._dtype_name == "bfloat16" and got.shape == (8, 16)
    ref = 0.5 * (a.double() @ bt.double().T).numpy()
    np.testing.assert_allclose(got.astype("float32").get(), ref, rtol=2e-2, atol=2e-2)
    with pytest.raises(ValueError, match="row-major"):
        tm.matmul(a, bt.T.contiguous())
    with pytest.raises(TypeError, match="one dtype"):
        tm.matmul(a, bt.T.to(torch.float8_e5m2))


def test_autotune_arguments_and_what_it_keeps(host_memory):
    a, b = _r((64, 48), "float32"), _r((48, 40), "float32")
    x, y = tnp.asarray(a), tnp.asarray(b)
    mm = tm.Matmul(x, y, epilog="relu")
    with pytest.raises(ValueError, match="'heuristic' or 'wide'"):
        mm.autotune(search="everything")
    with pytest.raises(ValueError, match="max_configs >= 1"):
        mm.autotune(search="wide", max_configs=0)
    for bad in (0, -3, 2.5, "all"):
        with pytest.raises(ValueError, match="sm_count must be a positive int"):
            tm.Matmul(x, y, sm_count=bad)
    np.testing.assert_allclose(mm.execute().get(), np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)
    host = tm.Matmul(x, y).autotune()  # CPU-interpreter arrays: nothing to tune
    assert host.timings == [] and host._planned and host.kept is None and host.screened == 0
    # what a GPU's rows (rank, ms, ratio, config, kept, round_robin) become
    mm._keep_tuning([(0, 1.0, 1.0, "algo 0", False, True), (1, 0.9, 0.9, "algo 1", True, True),
                     (2, 0.95, 0.8, "algo 2", False, False), (3, -1.0, -1.0, "algo 3", False, False)])
    assert mm.timings == [(0, 1.0), (1, 0.9)] and mm.configs == {0: "algo 0", 1: "algo 1"}
    assert mm.kept == (1, "algo 1") and mm.screened == 4
    assert [rank for rank, *_ in mm.screen] == [2, 1, 0]


def test_vdot_and_kron():
    a, b = _r((2, 3), "float64"), _r((3, 2), "float64")
    np.testing.assert_allclose(float(tnp.vdot(tnp.asarray(a), tnp.asarray(b))), np.vdot(a, b))
    c = _r((3,), "float64") + 1j * _r((3,), "float64")
    d = _r((3,), "float64") + 1j * _r((3,), "float64")
    np.testing.assert_allclose(complex(tnp.vdot(tnp.asarray(c), tnp.asarray(d))), np.vdot(c, d))  # a conjugated
    with pytest.raises(ValueError, match="cannot reshape array of size 4"):
        tnp.vdot(tnp.ones(3), tnp.ones(4))
    rng = np.random.default_rng(3)
    for sa, sb in [((2, 2), (2, 3)), ((3,), (2, 2)), ((2, 1, 3), (2, 2)), ((2,), (3,))]:
        x, y = rng.integers(0, 5, sa), rng.integers(0, 5, sb)
        got, want = tnp.kron(tnp.asarray(x), tnp.asarray(y)).get(), np.kron(x, y)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_einsum_interleaved_form():
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]), as NumPy's."""
    a, b = _r((2, 3), "float64"), _r((3, 4), "float64")
    for args in [(a, [0, 1], b, [1, 2]), (a, [0, 1], b, [1, 2], [0, 2]), (a, [0, 1], [1, 0]),
                 (a, [Ellipsis, 1], b, [1, 2], [Ellipsis, 2]), (a, [0, 1], [])]:
        want = np.einsum(*args)
        got = tnp.einsum(*(tnp.asarray(x) if isinstance(x, np.ndarray) else x for x in args))
        np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    with pytest.raises(ValueError, match="valid range"):
        tnp.einsum(tnp.asarray(a), [0, 60])


def test_matmul_axes():
    """The gufunc axes= argument: core axes anywhere in the operands and the output."""
    rng = np.random.default_rng(8)
    a, b, v = rng.standard_normal((3, 2, 5)), rng.standard_normal((5, 4, 3)), rng.standard_normal(5)
    for x, y, axes in [(a, b, [(1, 2), (0, 1), (1, 0)]), (a, v, [(0, 2), (0,), (0,)]),
                       (a, rng.standard_normal((3, 5, 4)), [(-2, -1), (-2, -1), (-2, -1)])]:
        want = np.matmul(x, y, axes=axes)
        got = tnp.matmul(tnp.asarray(x), tnp.asarray(y), axes=axes).get()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12)
    with pytest.raises(TypeError, match="axis can only be used"):
        tnp.matmul(tnp.ones((2, 2)), tnp.ones((2, 2)), axis=0)


def test_a_stack_times_one_matrix_is_one_product(monkeypatch):
    """doitgen's (NR, NQ, 1, NP) @ (NP, NP): the stack's rows fold into one product of NR * NQ rows (one GEMM on a
    GPU, not NR * NQ products of one row; k = 9: past the tiny contractions); a stack whose rows are not one strided run keeps its batch."""
    calls = []
    real = M._product
    monkeypatch.setattr(M, "_product", lambda a, b, batch, m, n, k, rt: calls.append((tuple(batch), m)) or
                        real(a, b, batch, m, n, k, rt))
    a, c = _r((5, 6, 1, 9), "float64"), _r((9, 9), "float64")
    got = tnp.asarray(a) @ tnp.asarray(c)
    assert calls == [((), 30)] and got.shape == (5, 6, 1, 9)
    np.testing.assert_allclose(got.get(), a @ c, rtol=1e-12)
    calls.clear()
    x = _r((4, 3, 9), "float32")
    got = tnp.matmul((tnp.asarray(x) * 2), tnp.asarray(c.astype(np.float32)[None]))  # pending; b batch of one
    assert calls == [((), 12)]
    np.testing.assert_allclose(got.get(), (x * 2) @ c.astype(np.float32)[None], rtol=1e-5)
    calls.clear()
    t = tnp.asarray(x).transpose(1, 0, 2)  # (3, 4, 7) whose rows are not one run
    got = t @ tnp.asarray(c.astype(np.float32))
    assert calls == [((3,), 4)]
    np.testing.assert_allclose(got.get(), x.transpose(1, 0, 2) @ c.astype(np.float32), rtol=1e-5)
    v = _r((9,), "float64")
    np.testing.assert_allclose((tnp.asarray(a) @ tnp.asarray(v)).get(), a @ v, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32", "uint8"])
@pytest.mark.parametrize("shapes", [((4, 4), (4, 300)), ((5, 1), (1, 7)), ((3, 8), (8, 2)),
                                    ((2, 1, 6, 3), (5, 3, 4)), ((4,), (4, 9)), ((7, 2), (2,))])
def test_tiny_contractions_are_engine_sums_with_numpys_values(dtype, shapes, monkeypatch):
    """k <= 8 (stockham_fft's 4x4 butterflies, mlp's (8, 3) @ (3, S0)): the array engine's sum of k broadcast products,
    no library product, NumPy's values, shapes (batch broadcast, 1-D operands) and dtype (integers wrap)."""
    calls = []
    monkeypatch.setattr(M, "_product", lambda *args: calls.append(args))
    sa, sb = shapes
    a, b = _r(sa, dtype), _r(sb, dtype)
    got = tnp.asarray(a) @ tnp.asarray(b)
    want = a @ b
    assert calls == [] and got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


def test_tiny_contractions_fuse_with_their_operands_and_consumers():
    """stockham_fft's step: the twiddle multiply, its reshape, the 4x4 product and the cast are one kernel."""
    import tegula

    d0 = _r((4, 4), "complex128")
    x0, w0 = _r((64,), "complex128"), _r((64,), "complex128")
    d, x, w = (tnp.asarray(v, device="cpu") for v in (d0, x0, w0))
    with tegula.profile(gpu_timing=False) as p:
        got = d @ (x * w).reshape(4, 16)
        got._materialize()
    assert [k.name for k in p.launches] == ["tegula_array_kernel"]
    np.testing.assert_allclose(got.get(), d0 @ (x0 * w0).reshape(4, 16), rtol=1e-12)
