"""The library layer on the GPU: tegula.numpy.matmul/@ and tegula.math.matmul through cuBLASLt (every float dtype,
transposed views as they lie, strided batches, epilogues with bias and aux), complex and integer products, against
float64 references."""
import numpy as np
import pytest

import tegula.math as tm
import tegula.numpy as tnp

RNG = np.random.default_rng(21)
TOL = {"float16": 5e-3, "bfloat16": 2e-2, "float32": 1e-5, "float64": 1e-12}


def _g(shape, dtype):
    x = RNG.standard_normal(shape)
    a = tnp.asarray(x.astype(np.float32) if dtype == "bfloat16" else x.astype(dtype), device="cuda")
    return a.astype(dtype) if dtype == "bfloat16" else a


def _ref(x):
    return x.astype("float64").get() if x.dtype != tnp.bfloat16 else x.astype("float32").get().astype(np.float64)


def _rel(got, want):
    g = _ref(got) if isinstance(got, tnp.ndarray) else got
    return np.linalg.norm(g - want) / np.linalg.norm(want)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("shapes", [((257, 129), (129, 300)), ((4, 64, 80), (4, 80, 48)), ((3, 50, 70), (70, 33)),
                                    ((1000,), (1000, 7))])
def test_matmul_through_cublaslt(dtype, shapes):
    a, b = _g(shapes[0], dtype), _g(shapes[1], dtype)
    r = a @ b
    assert r.dtype == dtype and r.device == tnp.Device("cuda", 0)
    assert _rel(r, np.matmul(_ref(a), _ref(b))) < TOL[dtype]


def test_transposed_and_strided_views():
    a, b = _g((300, 200), "float32"), _g((300, 100), "float32")
    assert _rel(a.T @ b, _ref(a).T @ _ref(b)) < 1e-5              # A transposed, as it lies
    assert _rel(b.T @ a, _ref(b).T @ _ref(a)) < 1e-5
    assert _rel(a[::2, ::3] @ b[:67:, :].T[:, ::2][:67], _ref(a)[::2, ::3] @ _ref(b)[:67, :].T[:, ::2][:67]) < 1e-5


def _copies(fn):
    import tegula

    with tegula.profile() as p:
        r = fn()
        r._materialize()
    return r, [l.name for l in p.launches if l.name == "tegula_copy"]


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_strided_vectors_and_narrow_unaligned_views_are_read_in_place(dtype):
    """NPBench's correlation / covariance: a column of the data @ the columns after it, every offset (8-byte
    aligned pointers, rows of 121 elements): one cuBLASLt call, no copy of either operand."""
    x = RNG.standard_normal((140, 121))
    if dtype == "complex128":
        x = x + 1j * RNG.standard_normal(x.shape)
    h = x.astype(dtype)
    d = tnp.asarray(h, device="cuda")
    tol = 1e-4 if dtype == "float32" else 1e-12

    def rel(got, want):
        return np.linalg.norm(got.get() - want) / np.linalg.norm(want)
    for i in (0, 1, 2, 7, 119):
        r, copies = _copies(lambda: d[:, i] @ d[:, i + 1:])
        assert copies == [] and r.shape == (120 - i,)
        assert rel(r, h[:, i] @ h[:, i + 1:]) < tol
    r, copies = _copies(lambda: d[3:8, 1:] @ d[1:121, 5])      # narrow, unaligned rows, a strided column
    assert copies == [] and rel(r, h[3:8, 1:] @ h[1:121, 5]) < tol
    r, copies = _copies(lambda: d[1:9, 1:].T @ d[1:9, 1:])     # wide and unaligned: copied into aligned rows
    assert rel(r, h[1:9, 1:].T @ h[1:9, 1:]) < tol


def test_complex_and_integer_products():
    x = RNG.standard_normal((40, 30)) + 1j * RNG.standard_normal((40, 30))
    y = RNG.standard_normal((30, 20)) + 1j * RNG.standard_normal((30, 20))
    r = tnp.asarray(x, device="cuda") @ tnp.asarray(y, device="cuda")
    assert r.dtype == tnp.complex128 and np.abs(r.get() - x @ y).max() < 1e-12
    i = RNG.integers(-9, 9, (70, 45)).astype(np.int32)
    np.testing.assert_array_equal((tnp.asarray(i, device="cuda") @ tnp.asarray(i.T, device="cuda")).get(), i @ i.T)


@pytest.mark.parametrize("epilog", ["relu_bias", "gelu_bias", "bias", "relu", "gelu_aux_bias"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_math_matmul_epilogues(epilog, dtype):
    a, b = _g((512, 256), dtype), _g((256, 384), dtype)
    bias = _g((384,), dtype) if "bias" in epilog else None
    r = tm.matmul(a, b, bias=bias, epilog=epilog)
    pre = _ref(a) @ _ref(b) + (_ref(bias) if bias is not None else 0)
    post = np.maximum(pre, 0) if epilog.startswith("relu") else tm._gelu(pre) if epilog.startswith("gelu") else pre
    if "aux" in epilog:
        r, aux = r
        assert _rel(aux, pre) < 2e-2
    assert _rel(r, post) < 2e-2


def test_math_matmul_alpha_beta_and_tf32():
    a, b, c = _g((128, 96), "float32"), _g((96, 64), "float32"), _g((128, 64), "float32")
    r = tm.matmul(a, b, c, alpha=2.0, beta=-0.5)
    assert _rel(r, 2 * (_ref(a) @ _ref(b)) - 0.5 * _ref(c)) < 1e-5
    t = tm.matmul(a, b, allow_tf32=True)
    assert _rel(t, _ref(a) @ _ref(b)) < 5e-3


def test_math_matmul_host_operands_come_back_as_numpy():
    a, b = RNG.standard_normal((200, 64)).astype(np.float32), RNG.standard_normal((64, 96)).astype(np.float32)
    bias = RNG.standard_normal(96).astype(np.float32)
    r = tm.matmul(a, b, bias=bias, epilog="relu_bias")
    assert isinstance(r, np.ndarray) and r.dtype == np.float32
    np.testing.assert_allclose(r, np.maximum(a.astype(np.float64) @ b + bias, 0), rtol=1e-4, atol=1e-4)


def test_math_matmul_autotune():
    a, b = _g((1024, 512), "bfloat16"), _g((512, 768), "bfloat16")
    bias = _g((768,), "bfloat16")
    mm = tm.Matmul(a, b, bias=bias, epilog="relu_bias").autotune(candidates=6, repeats=3)
    assert mm.timings and any(ms > 0 for _, ms in mm.timings)
    assert mm.kept is not None and mm.kept[1].startswith("algo ") and mm.timings[0][0] == 0
    r = mm.execute()
    assert _rel(r, np.maximum(_ref(a) @ _ref(b) + _ref(bias), 0)) < 2e-2


def test_math_matmul_sm_count():
    a, b = _g((1024, 512), "bfloat16"), _g((512, 768), "bfloat16")
    bias = _g((768,), "bfloat16")
    ref = np.maximum(_ref(a) @ _ref(b) + _ref(bias), 0)
    for sms in (16, 64):  # cuBLASLt plans for that many SMs: its own plan, the same result
        mm = tm.Matmul(a, b, bias=bias, epilog="relu_bias", sm_count=sms)
        assert _rel(mm.execute(), ref) < 2e-2 and _rel(mm.execute(), ref) < 2e-2
    assert _rel(tm.matmul(a, b, bias=bias, epilog="relu_bias", sm_count=32), ref) < 2e-2


def test_math_matmul_wide_autotune():
    a, b = _g((1024, 512), "bfloat16"), _g((512, 768), "bfloat16")
    bias = _g((768,), "bfloat16")
    mm = tm.Matmul(a, b, bias=bias, epilog="relu_bias").autotune(candidates=4, repeats=3, search="wide",
                                                                  max_configs=60)
    assert 4 < mm.screened <= 60  # more configurations than the heuristic's own
    assert len(mm.timings) <= 4 and mm.timings[0][0] == 0 and all(ms > 0 for _, ms in mm.timings)
    assert mm.kept[0] in mm.configs and len(set(mm.configs.values())) == len(mm.configs)
    ref = np.maximum(_ref(a) @ _ref(b) + _ref(bias), 0)
    for _ in range(2):  # the kept configuration runs every later product of this shape
        assert _rel(mm.execute(), ref) < 2e-2
    with pytest.raises(ValueError, match="'heuristic' or 'wide'"):
        mm.autotune(search="all")


def test_math_matmul_repeated_execute_reads_the_operands_each_time():
    """The second execute() takes the prepared fast path: a fresh result each call, and operands written in place
    between calls are seen (it keeps pointers, not values)."""
    a, b, bias = _g((300, 200), "float32"), _g((200, 160), "float32"), _g((160,), "float32")
    mm = tm.Matmul(a, b, bias=bias, epilog="relu_bias", allow_tf32=False)
    r1 = mm.execute()
    assert mm._fast is not None
    r2 = mm.execute()
    assert r2._data_ptr != r1._data_ptr and r2.shape == (300, 160) and r2.dtype == tnp.float32
    want = np.maximum(_ref(a) @ _ref(b) + _ref(bias), 0)
    assert _rel(r1, want) < 1e-5 and _rel(r2, want) < 1e-5
    a[...] = tnp.asarray(RNG.standard_normal((300, 200)).astype(np.float32), device="cuda")
    bias[...] = 1.0
    r3 = mm.execute()
    assert _rel(r3, np.maximum(_ref(a) @ _ref(b) + 1.0, 0)) < 1e-5
    assert _rel(r1, want) < 1e-5  # the earlier result is its own memory


@pytest.mark.parametrize("f8", ["float8_e4m3fn"])
@pytest.mark.parametrize("epilog", ["none", "relu_bias"])
def test_math_matmul_float8_through_cublaslt(f8, epilog):
    """tegula.math.matmul of torch float8 tensors: one cuBLASLt float8 call (a row-major, b = bt.T), alpha as the
    dequantisation scale, bfloat16 out; against float64 products of the same float8 values."""
    torch = pytest.importorskip("torch")
    dt = getattr(torch, f8)
    m, n, k = 256, 384, 512
    a = (torch.randn(m, k, device="cuda") * 2).to(dt)
    bt = (torch.randn(n, k, device="cuda") * 2).to(dt)
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    kw = {"bias": bias, "epilog": "relu_bias"} if epilog == "relu_bias" else {}
    got = tm.matmul(a, bt.T, alpha=0.25, **kw)
    assert got._dtype_name == "bfloat16" and got.shape == (m, n)
    ref = 0.25 * (a.double() @ bt.double().T)
    if epilog == "relu_bias":
        ref = torch.relu(ref + bias.double())
    g = torch.as_tensor(got.astype("float32"), device="cuda").double()
    assert ((g - ref).norm() / ref.norm()).item() < 1e-2
    with pytest.raises(ValueError, match="row-major"):
        tm.matmul(a, bt.T.contiguous())


def test_math_matmul_float8_e5m2_is_a_clear_error():
    """cuBLASLt multiplies e4m3 x e4m3 (and mixed pairs), not e5m2 x e5m2: a TypeError says so (seen on the H200:
    CUBLAS_STATUS_NOT_SUPPORTED from the heuristic)."""
    torch = pytest.importorskip("torch")
    a = torch.randn(64, 32, device="cuda").to(torch.float8_e5m2)
    bt = torch.randn(48, 32, device="cuda").to(torch.float8_e5m2)
    with pytest.raises(TypeError, match="float8_e4m3fn"):
        tm.matmul(a, bt.T)
