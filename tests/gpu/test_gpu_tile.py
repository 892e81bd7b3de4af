"""Tile kernels on the GPU, compared with the CPU interpreter on the same fresh random inputs."""
import numpy as np
import pytest

import tegula.tile as tt

import tile_kernels as K

torch = pytest.importorskip("torch")


def on_gpu(a):
    return torch.from_numpy(np.ascontiguousarray(a)).cuda()


def both(kernel, grid, arrays, extra, outputs):
    """Runs on the GPU (torch tensors, outputs poisoned with NaN) and on the interpreter (numpy)."""
    host = [np.ascontiguousarray(a).copy() for a in arrays]
    dev = [on_gpu(a) for a in arrays]
    for i in outputs:
        host[i][...] = np.nan
        dev[i].fill_(float("nan"))
    tt.launch(kernel, grid=grid, args=(*dev, *extra))
    torch.cuda.synchronize()
    tt.launch(kernel, grid=grid, args=(*host, *extra), interpret=True)
    return [dev[i].cpu().numpy() for i in outputs], [host[i] for i in outputs]


@pytest.mark.parametrize("n, T", [(1000, 256), (1 << 20, 4096), (10_007, 1000)])
def test_chain(n, T):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    (gpu,), (ref,) = both(K.chain, -(-n // T), [x, y, np.empty_like(x)], (T,), [2])
    np.testing.assert_allclose(gpu, ref, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(gpu, K.chain_ref(x, y), rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("rows, cols, C", [(64, 4096, 4096), (37, 1000, 1000), (5, 700, 1024)])
def test_softmax(rows, cols, C):
    x = (np.random.default_rng().standard_normal((rows, cols)) * 3).astype(np.float32)
    (gpu,), (ref,) = both(K.softmax, rows, [x, np.empty_like(x)], (C,), [1])
    np.testing.assert_allclose(gpu, ref, rtol=1e-5, atol=1e-7)


def test_layernorm():
    rng = np.random.default_rng()
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((33, 768), (1, 768), (1, 768)))
    (gpu,), (ref,) = both(K.layernorm, 33, [x, w, b, np.empty_like(x)], (768, 1e-5), [3])
    np.testing.assert_allclose(gpu, ref, rtol=1e-4, atol=1e-5)


def test_persistent_sum():
    x = np.random.default_rng().random(3_000_001).astype(np.float32)
    out = torch.zeros(1, device="cuda")
    tt.launch(K.total, grid=132, args=(on_gpu(x), out, 2048))
    assert out.item() == pytest.approx(x.astype(np.float64).sum(), rel=1e-5)


def test_cumsum_and_control_flow():
    x = np.random.default_rng().standard_normal((8, 333)).astype(np.float32)
    (gpu,), (ref,) = both(K.row_cumsum, 8, [x, np.empty_like(x)], (333,), [1])
    np.testing.assert_allclose(gpu, ref, rtol=1e-4, atol=1e-4)
    (gpu,), (ref,) = both(K.clamp_rows, 8, [x, np.empty_like(x)], (1.5, 333), [1])
    np.testing.assert_allclose(gpu, ref, rtol=1e-6)


def test_generated_source_is_inspectable():
    x = torch.randn(4096, device="cuda")
    c = K.chain.compile((x, x, x, 4096))
    assert "__global__" in c.source and c.block_threads > 0 and "exp" in c.ir.print()


def test_custom_reduce_scan_and_gather_scatter_atomics():
    rng = np.random.default_rng()
    x = rng.standard_normal((6, 50)).astype(np.float32)
    (r, s), (r_ref, s_ref) = both(K.custom_reduce_scan, 6, [x, np.empty((6, 1), np.float32), np.empty_like(x)],
                                  (50,), [1, 2])
    np.testing.assert_allclose(r, r_ref, rtol=1e-6)
    np.testing.assert_allclose(s, s_ref, rtol=1e-4, atol=1e-4)
    n = 103
    v = rng.standard_normal(n).astype(np.float32)
    idx = rng.permutation(n).astype(np.int32)
    out, hist = torch.full((n,), float("nan"), device="cuda"), torch.zeros(4, dtype=torch.int32, device="cuda")
    tt.launch(K.permute_gather, grid=4, args=(on_gpu(v), on_gpu(idx), out, hist, 32))
    np.testing.assert_allclose(out.cpu().numpy(), v[idx] * 2, rtol=1e-6)
    assert list(hist.cpu().numpy()) == list(np.bincount(idx % 4, minlength=4))


def test_tegula_arrays_take_the_cpp_fast_path():
    """tt.launch with tegula.numpy arrays launches from C++ after the first call (no Python specialisation), with
    the array engine's rules: a pending input is computed first, and a pending expression that reads the output
    takes its value before the kernel overwrites it."""
    import tegula.numpy as tnp

    @tt.kernel
    def twice(a, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(a, index=(b,), shape=(T,)) * 2.0)

    n = 1 << 16
    x0 = np.random.default_rng(4).standard_normal(n).astype(np.float32)
    x = tnp.asarray(x0, device="cuda")
    out = tnp.zeros(n, dtype="float32", device="cuda")
    tt.launch(twice, grid=(n // 1024,), args=(x, out, 1024))
    assert twice._launcher.describe((x, out, 1024)) is not None  # C++ reads tegula arrays
    before = out + 1  # pending: reads out's current values
    lazy_in = x * 3  # pending input
    tt.launch(twice, grid=(n // 1024,), args=(lazy_in, out, 1024))
    np.testing.assert_array_equal(before.get(), x0 * 2 + 1)
    np.testing.assert_allclose(out.get(), x0 * 6, rtol=1e-6)
    assert twice._launcher.launch((n // 1024,), (x, out, 1024), None) is None  # a known variant: launched in C++
    np.testing.assert_array_equal(out.get(), x0 * 2)
