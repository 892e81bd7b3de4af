"""Tile matmul in clusters of two blocks (`cluster=2`) on the GPU: neighbouring blocks copy an A or B tile
they both need once, half each, into both blocks' shared memory (multicast). Checked against a float64
reference with poisoned outputs: sharing neither tile (a scattered order, batches), an odd number of tiles (the last
block's partner shadows it), a fused epilogue, autotuning. Sharing B (the grouped order, every tile shape) and
sharing A (matmul_nt's row-major order) are test_gpu_matmul.py's test_matmul_tensor_cores and test_transposed_b
with cluster=2."""
import pytest

import matmul_kernels as K
import tegula.tile as tt

torch = pytest.importorskip("torch")

needs_sm90 = pytest.mark.skipif(not (torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)),
                                reason="clusters of tensor-core blocks are for sm_90 (H100/H200)")
TORCH = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}
PAIRED = K.matmul.with_options(cluster=2)


def _rand(shape, dtype, gen):
    return torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32).to(TORCH[dtype])


def _poisoned(shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=TORCH[dtype])


def _check(out, ref, tol, what):
    assert not torch.isnan(out).any(), f"{what}: unwritten (NaN) elements"
    err = ((out.double() - ref).norm() / ref.norm()).item()
    assert err < tol, f"{what}: relative error {err:.3e} >= {tol}"


def _compiled(kernel, args):
    return kernel.compile(args)


@needs_sm90
@pytest.mark.parametrize("grid_tiles", [1, 3, 9, 133, 265])
def test_an_odd_number_of_tiles(grid_tiles):
    """With an odd total the last block's partner runs its tile again without storing it."""
    m, n, k = 128 * grid_tiles, 128, 256
    gen = torch.Generator(device="cuda").manual_seed(grid_tiles)
    a, b = _rand((m, k), "bfloat16", gen), _rand((k, n), "bfloat16", gen)
    c = _poisoned((m, n), "bfloat16")
    tt.launch(PAIRED, grid=grid_tiles, args=(a, b, c, 128, 128, 64, 8))
    _check(c, a.double() @ b.double(), 1e-2, f"{grid_tiles} tiles")


@needs_sm90
@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_fused_epilogue_in_pairs(act):
    m, n, k = 1000, 1030, 990
    gen = torch.Generator(device="cuda").manual_seed(7)
    a, b, bias = _rand((m, k), "bfloat16", gen), _rand((k, n), "bfloat16", gen), _rand((n,), "bfloat16", gen)
    c = _poisoned((m, n), "bfloat16")
    kern = K.matmul_bias_act.with_options(cluster=2)
    tt.launch(kern, grid=K.grid(m, n, 128, 256), args=(a, b, bias, c, 128, 256, 64, 8, act))
    r = a.double() @ b.double() + bias.double()
    r = torch.relu(r) if act == "relu" else torch.as_tensor(K.gelu_ref(r.cpu().numpy()), device="cuda")
    _check(c, r, 1e-2, act)


@tt.kernel(cluster=2)
def _scattered(a, b, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int]):
    """Tiles in a scattered order (tile t = pid * (num_n + 1) mod total): a pair shares neither A nor B."""
    num_m = tt.num_tiles(c, 0, (BM, BN))
    num_n = tt.num_tiles(c, 1, (BM, BN))
    t = (tt.bid(0) * (num_n + 1)) % (num_m * num_n)
    pm = t // num_n
    pn = t % num_n
    acc = tt.zeros((BM, BN), tt.float32)
    for k in range(tt.num_tiles(a, 1, (BM, BK))):
        acc = tt.mma(tt.load(a, index=(pm, k), shape=(BM, BK)), tt.load(b, index=(k, pn), shape=(BK, BN)), acc)
    tt.store(c, index=(pm, pn), tile=acc.astype(c.dtype))


@needs_sm90
def test_pairs_sharing_neither_tile():
    m, n, k = 3 * 128, 4 * 128, 320  # 12 tiles; 5 is prime to 12, so the order visits each once
    gen = torch.Generator(device="cuda").manual_seed(17)
    a, b = _rand((m, k), "float16", gen), _rand((k, n), "float16", gen)
    c = _poisoned((m, n), "float16")
    tt.launch(_scattered, grid=12, args=(a, b, c, 128, 128, 64))
    _check(c, a.double() @ b.double(), 1e-2, "scattered order")


@needs_sm90
@pytest.mark.parametrize("n", [200, 104])
def test_batched_pairs_across_batches(n):
    """bmm: grid axis 1 is the batch. With n=104 a batch has 3 tiles, so pairs hold tiles of two batches (B
    differs, A is shared only by chance) and the 9-tile total is odd."""
    batch, m, k = 3, 384, 192
    gen = torch.Generator(device="cuda").manual_seed(n)
    a, b = _rand((batch, m, k), "bfloat16", gen), _rand((batch, k, n), "bfloat16", gen)
    c = _poisoned((batch, m, n), "bfloat16")
    tt.launch(K.bmm.with_options(cluster=2), grid=(K.grid(m, n, 128, 128), batch),
              args=(a.view(-1, k), b.view(-1, n), c.view(-1, n), m, 128, 128, 64))
    _check(c, a.double() @ b.double(), 1e-2, f"bmm n={n}")


@needs_sm90
def test_autotune_config_takes_cluster():
    tuned = tt.autotune(configs=[tt.Config(BM=128, BN=256, BK=64, GROUP=8),
                                 tt.Config(BM=128, BN=256, BK=64, GROUP=8, cluster=2)])(K.matmul)
    m = n = k = 1024
    gen = torch.Generator(device="cuda").manual_seed(19)
    a, b = _rand((m, k), "bfloat16", gen), _rand((k, n), "bfloat16", gen)
    c = _poisoned((m, n), "bfloat16")
    tt.launch(tuned, grid=K.tuned_grid(m, n), args=(a, b, c))
    _check(c, a.double() @ b.double(), 1e-2, "autotuned")
    results = next(iter(tuned.timings.values()))
    assert all(isinstance(ms, float) for _, ms in results), results
    assert {repr(cfg) for cfg, _ in results} == {
        "Config(BM=128, BN=256, BK=64, GROUP=8, num_stages=0)",
        "Config(BM=128, BN=256, BK=64, GROUP=8, num_stages=0, cluster=2)"}
