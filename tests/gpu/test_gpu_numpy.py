"""tegula.numpy on the GPU at sizes that take every kernel shape (map, rows, row_loop, split) and
the strided-copy paths, against NumPy in float64, with torch interop (zero-copy both ways)."""
import numpy as np
import pytest

import tegula.numpy as tnp

torch = pytest.importorskip("torch")


@pytest.fixture
def rng():
    return np.random.default_rng()


def gpu(x):
    return tnp.asarray(x, device="cuda")


def test_fused_chain_and_softmax_match_numpy(rng):
    x = rng.standard_normal((513, 1000)).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    a, b = gpu(x), gpu(y)
    got = (tnp.exp(-a * a) * b + 0.5 * a).get()
    ref = np.exp(-x.astype(np.float64) ** 2) * y + 0.5 * x
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    e = tnp.exp(a - a.max(1, keepdims=True))
    s = (e / e.sum(1, keepdims=True)).get()
    r = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(s, r / r.sum(1, keepdims=True), rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("shape, axis", [((1 << 22,), None), ((3, 300_001), 1), ((300, 20_000), 1),
                                         ((20_000, 7), 0), ((6, 50, 70), (0, 2)), ((4096, 33), -1)])
@pytest.mark.parametrize("op", ["sum", "max", "min", "argmax", "mean"])
def test_reductions_of_every_kernel_shape(rng, shape, axis, op):
    x = rng.standard_normal(shape).astype(np.float32)
    if op == "argmax" and isinstance(axis, tuple):
        pytest.skip("argmax takes one axis")
    got = getattr(gpu(x), op)(axis=axis).get()
    ref = getattr(x.astype(np.float64), op)(axis=axis)
    if op == "argmax":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=2e-5, atol=1e-3 if op in ("sum", "mean") else 0)


def test_integer_and_half_reductions(rng):
    x = rng.integers(-100, 100, (1000, 1000)).astype(np.int32)
    assert gpu(x).sum().item() == int(x.astype(np.int64).sum())
    assert gpu(x).sum().dtype == np.int64
    h = rng.standard_normal(1 << 20).astype(np.float16)
    got = gpu(h).sum()
    assert got.dtype == np.float16
    np.testing.assert_allclose(float(got), h.astype(np.float64).sum(), rtol=2e-3, atol=1.0)


def test_views_inplace_and_aliasing(rng):
    x = rng.standard_normal((64, 130)).astype(np.float32)
    a = gpu(x)
    v = a[3:60:2, ::-3]
    np.testing.assert_array_equal((v * 2).get(), x[3:60:2, ::-3] * 2)
    y = a + 1               # pending: must keep the old values of a
    a[:, 5] = 7.0
    x2 = x.copy()
    x2[:, 5] = 7.0
    np.testing.assert_array_equal(y.get(), x + 1)
    np.testing.assert_array_equal(a.get(), x2)
    a[1:] += a[:-1]         # overlapping read and write: NumPy's answer
    x2[1:] += x2[:-1].copy()
    np.testing.assert_allclose(a.get(), x2, rtol=1e-6)
    np.testing.assert_array_equal(a.T.copy().get(), x2.T)


def test_torch_zero_copy_both_ways():
    t = torch.randn(1000, 37, device="cuda")
    a = tnp.asarray(t)
    a *= 2                  # writes through to torch's memory
    back = torch.as_tensor(a, device="cuda")
    assert back.data_ptr() == t.data_ptr()
    torch.testing.assert_close(back, t)
    s = torch.as_tensor(tnp.exp(a[:, 1:]), device="cuda")
    torch.testing.assert_close(s, torch.exp(t[:, 1:]))
    d = torch.from_dlpack(a[::2, 3:])  # DLPack: zero-copy, strided
    assert d.data_ptr() == t[::2, 3:].data_ptr() and d.stride() == t[::2, 3:].stride()
    torch.testing.assert_close(d, t[::2, 3:])


def test_fusion_builds_one_kernel_and_reuses_it(rng):
    x = gpu(rng.standard_normal(10_000).astype(np.float32))
    before = tnp.kernel_stats()
    for k in range(5):
        r = tnp.sqrt(tnp.abs(x)) * k + tnp.sin(x)
        r._materialize()
    after = tnp.kernel_stats()
    assert after["launches"] - before["launches"] == 5
    assert after["builds"] - before["builds"] <= 1
    assert "__global__" in tnp.last_kernel()[1]
