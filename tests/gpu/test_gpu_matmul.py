"""Tile matmul on the GPU: the tensor-core path (wgmma + copy engine, sm_90) against a float64 reference and
the CPU interpreter; fused epilogues; non-multiple-of-tile shapes; the fallback path and its warning."""
import warnings

import numpy as np
import pytest

import matmul_kernels as K
import tegula.tile as tt

torch = pytest.importorskip("torch")


def _sm90():
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_sm90 = pytest.mark.skipif(not _sm90(), reason="the tensor-core path is for sm_90 (H100/H200)")
TORCH = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


def _rand(shape, dtype, gen):
    return torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32).to(TORCH[dtype])


def _poisoned(shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=TORCH[dtype])


def _ref(a, b):
    return a.double() @ b.double()


def _check(out, ref, tol, what):
    assert not torch.isnan(out).any(), f"{what}: unwritten (NaN) elements"
    err = ((out.double() - ref).norm() / ref.norm()).item()
    assert err < tol, f"{what}: relative error {err:.3e} >= {tol}"
    return err


def _compiled(kernel, args):
    """The Compiled specialization of a kernel for these arguments (after a launch built it)."""
    return kernel.compile(args)


@needs_sm90
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("mnk", [(256, 512, 384), (300, 520, 200), (1000, 1030, 990), (129, 257, 65), (4000, 4100, 3900)])
@pytest.mark.parametrize("tiles", [(128, 256, 64), (128, 128, 64), (64, 256, 64), (256, 128, 64)])
@pytest.mark.parametrize("cluster", [1, 2])
def test_matmul_tensor_cores(dtype, mnk, tiles, cluster):
    """With cluster=2 neighbouring blocks (the grouped order) share their B tile, each copying half of it into
    both blocks' shared memory; (300, 520, 200) with 128x256 tiles makes 9 tiles, so a block's partner shadows it."""
    m, n, k = mnk
    bm, bn, bk = tiles
    gen = torch.Generator(device="cuda").manual_seed(m * 7 + n + bm)
    a, b = _rand((m, k), dtype, gen), _rand((k, n), dtype, gen)
    c = _poisoned((m, n), dtype)
    args = (a, b, c, bm, bn, bk, 8)
    kern = K.matmul.with_options(cluster=cluster)
    tt.launch(kern, grid=K.grid(m, n, bm, bn), args=args)
    comp = _compiled(kern, args)
    assert comp.note == "" and comp.persistent and comp.tensor_maps and comp.cluster == cluster, comp.note
    _check(c, _ref(a, b), 1e-2, f"{dtype} {mnk} tiles {tiles}")


@needs_sm90
@pytest.mark.parametrize("tiles", [(64, 256, 64), (64, 128, 64)])
@pytest.mark.parametrize("mnk", [(4096, 4096, 256), (2000, 3000, 700), (64 * 133, 256, 128)])
def test_one_warpgroup_tiles_take_turns(tiles, mnk):
    """BM = 64 tiles run in two teams of one warpgroup taking alternate tiles (ping-pong): many tiles per block,
    odd counts, the fused bias + relu epilogue (shared memory per team)."""
    m, n, k = mnk
    bm, bn, bk = tiles
    gen = torch.Generator(device="cuda").manual_seed(m + n + bn)
    a, b, bias = _rand((m, k), "bfloat16", gen), _rand((k, n), "bfloat16", gen), _rand((n,), "bfloat16", gen)
    c = _poisoned((m, n), "bfloat16")
    args = (a, b, bias, c, bm, bn, bk, 8, "relu")
    tt.launch(K.matmul_bias_act, grid=K.grid(m, n, bm, bn), args=args)
    comp = _compiled(K.matmul_bias_act, args)
    assert comp.block_threads == 384 and "two teams taking turns" in comp.source
    _check(c, torch.relu(_ref(a, b) + bias.double()), 1e-2, f"{mnk} tiles {tiles}")


@needs_sm90
def test_matmul_matches_interpreter():
    rng = np.random.default_rng(5)
    an = rng.standard_normal((200, 130)).astype(np.float16)
    bn_ = rng.standard_normal((130, 300)).astype(np.float16)
    ref = np.full((200, 300), np.nan, np.float16)
    tt.launch(K.matmul, grid=K.grid(200, 300, 128, 128), args=(an, bn_, ref, 128, 128, 64, 8), interpret=True)
    a, b = torch.as_tensor(an, device="cuda"), torch.as_tensor(bn_, device="cuda")
    c = _poisoned((200, 300), "float16")
    tt.launch(K.matmul, grid=K.grid(200, 300, 128, 128), args=(a, b, c, 128, 128, 64, 8))
    np.testing.assert_allclose(c.cpu().numpy().astype(np.float64), ref.astype(np.float64), rtol=2e-2, atol=2e-2)


@needs_sm90
@pytest.mark.parametrize("act", ["relu", "gelu", "none"])
def test_fused_bias_activation(act):
    m, n, k = 1000, 1030, 990
    gen = torch.Generator(device="cuda").manual_seed(3)
    a, b, bias = _rand((m, k), "bfloat16", gen), _rand((k, n), "bfloat16", gen), _rand((n,), "bfloat16", gen)
    c = _poisoned((m, n), "bfloat16")
    args = (a, b, bias, c, 128, 256, 64, 8, act)
    tt.launch(K.matmul_bias_act, grid=K.grid(m, n, 128, 256), args=args)
    assert _compiled(K.matmul_bias_act, args).note == ""
    r = _ref(a, b) + bias.double()
    r = torch.relu(r) if act == "relu" else torch.as_tensor(K.gelu_ref(r.cpu().numpy()), device="cuda") \
        if act == "gelu" else r
    _check(c, r, 1e-2, act)


@needs_sm90
@pytest.mark.parametrize("dtype,tf32,tol", [("bfloat16", False, 1e-2), ("float32", True, 5e-3)])
@pytest.mark.parametrize("cluster", [1, 2])
def test_transposed_b(dtype, tf32, tol, cluster):
    """B given (N, K) and transposed (K-major for the tensor cores). matmul_nt walks tiles row by row, so with
    cluster=2 neighbouring blocks share their A tile (test_gpu_matmul_pairs.py has the other pairings)."""
    m, n, k = 700, 520, 640
    gen = torch.Generator(device="cuda").manual_seed(11)
    a, bt = _rand((m, k), dtype, gen), _rand((n, k), dtype, gen)
    c = _poisoned((m, n), dtype)
    bn = 128
    bk = 32 if dtype == "float32" else 64
    args = (a, bt, c, 128, bn, bk, tf32)
    kern = K.matmul_nt.with_options(cluster=cluster)
    tt.launch(kern, grid=K.grid(m, n, 128, bn), args=args)
    comp = _compiled(kern, args)
    assert comp.note == "" and comp.cluster == cluster
    _check(c, _ref(a, bt.T), tol, f"{dtype} a @ bt.T")


@needs_sm90
def test_batched():
    batch, m, n, k = 3, 256, 200, 192
    gen = torch.Generator(device="cuda").manual_seed(2)
    a, b = _rand((batch, m, k), "bfloat16", gen), _rand((batch, k, n), "bfloat16", gen)
    c = _poisoned((batch, m, n), "bfloat16")
    tt.launch(K.bmm, grid=(K.grid(m, n, 128, 128), batch),
              args=(a.view(-1, k), b.view(-1, n), c.view(-1, n), m, 128, 128, 64))
    _check(c, a.double() @ b.double(), 1e-2, "bmm")


def test_float32_without_tf32_warns_and_is_exact():
    """float32 inputs without allow_tf32 stay exact (CUDA cores), and the kernel says so once."""
    m, n, k = 130, 70, 90
    gen = torch.Generator(device="cuda").manual_seed(4)
    a, bt = _rand((m, k), "float32", gen), _rand((n, k), "float32", gen)
    c = _poisoned((m, n), "float32")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tt.launch(K.matmul_nt, grid=K.grid(m, n, 64, 64), args=(a, bt, c, 64, 64, 32, False))
    torch.cuda.synchronize()
    if _sm90():
        assert any(issubclass(x.category, tt.PerformanceWarning) for x in w)
    _check(c, _ref(a, bt.T), 1e-6, "float32 exact")


@needs_sm90
@pytest.mark.parametrize("f8", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_tensor_cores(f8):
    """a @ bt.T with 8-bit float inputs (QGMMA), float32 accumulation and a bfloat16 result."""
    m, n, k = 1000, 520, 1024
    gen = torch.Generator(device="cuda").manual_seed(6)
    td = getattr(torch, f8)
    a = torch.randn((m, k), generator=gen, device="cuda").to(td)
    bt = torch.randn((n, k), generator=gen, device="cuda").to(td)
    c = _poisoned((m, n), "bfloat16")
    args = (a, bt, c, 128, 256, 128, False)
    tt.launch(K.matmul_nt, grid=K.grid(m, n, 128, 256), args=args)
    assert _compiled(K.matmul_nt, args).note == ""
    _check(c, a.double() @ bt.double().T, 1e-2, f"{f8} a @ bt.T")


@needs_sm90
@pytest.mark.parametrize("f8", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_conversions_on_the_gpu(f8):
    """The generated conversions (software, any arch) against torch's, every bit pattern and rounding cases."""
    td = getattr(torch, f8)
    bits = torch.arange(256, device="cuda", dtype=torch.int32).to(torch.uint8).view(td)
    out = _poisoned((256,), "float32")
    tt.launch(_cast, grid=1, args=(bits, out, 256))
    ref = bits.float()
    assert torch.equal(torch.nan_to_num(out, 7.0), torch.nan_to_num(ref, 7.0))
    x = torch.cat([torch.randn(20000, device="cuda") * s for s in (1e-3, 1.0, 30.0, 300.0, 1e4)] +
                  [torch.tensor([448, 464, 465, 57344, 61439, 1e6, -1e6, 0.0, -0.0], device="cuda")])
    y = torch.zeros(x.numel(), device="cuda", dtype=td)
    tt.launch(_cast, grid=-(-x.numel() // 1024), args=(x, y, 1024))
    r = x.to(td)
    assert torch.equal(torch.nan_to_num(y.float(), 7.0), torch.nan_to_num(r.float(), 7.0))


@tt.kernel
def _cast(x, y, T: tt.Constant[int]):
    i = tt.bid(0)
    tt.store(y, index=(i,), tile=tt.load(x, index=(i,), shape=(T,)).astype(y.dtype))
