"""tt.mma, tt.matmul and @ on the CPU: the interpreter against NumPy in float64, the tensor-core kernel the
codegen makes for sm_90 (compiled to SASS by NVRTC, no GPU needed), the reasons an mma stays off the tensor
cores, and the errors bad input gets."""
import os
import sys

import numpy as np
import pytest

import tegula.core as tc
import tegula.tile as tt
from tegula import _tegula

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import matmul_kernels as K  # noqa: E402

RNG = np.random.default_rng()


def _rand(shape, dtype):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype,tol", [(np.float16, 3e-3), (np.float32, 1e-6)])
@pytest.mark.parametrize("mnk", [(100, 130, 90), (64, 64, 64), (7, 5, 3)])
def test_interpreter_matmul(dtype, tol, mnk):
    m, n, k = mnk
    a, b = _rand((m, k), dtype), _rand((k, n), dtype)
    c = np.full((m, n), np.nan, dtype)
    tt.launch(K.matmul, grid=K.grid(m, n, 32, 64), args=(a, b, c, 32, 64, 16, 2), interpret=True)
    assert K.rel_error(c, a.astype(np.float64) @ b) < tol


@pytest.mark.parametrize("act", ["relu", "gelu", "none"])
def test_interpreter_bias_activation(act):
    a, b, bias = _rand((70, 50), np.float16), _rand((50, 90), np.float16), _rand(90, np.float16)
    c = np.full((70, 90), np.nan, np.float16)
    tt.launch(K.matmul_bias_act, grid=K.grid(70, 90, 32, 32), args=(a, b, bias, c, 32, 32, 16, 2, act), interpret=True)
    r = a.astype(np.float64) @ b + bias
    r = np.maximum(r, 0) if act == "relu" else K.gelu_ref(r) if act == "gelu" else r
    assert K.rel_error(c, r) < 3e-3


def test_interpreter_transposed_b_and_tf32():
    a, bt = _rand((40, 64), np.float32), _rand((24, 64), np.float32)
    c = np.full((40, 24), np.nan, np.float32)
    tt.launch(K.matmul_nt, grid=K.grid(40, 24, 16, 8), args=(a, bt, c, 16, 8, 32, False), interpret=True)
    assert K.rel_error(c, a.astype(np.float64) @ bt.T) < 1e-6
    tt.launch(K.matmul_nt, grid=K.grid(40, 24, 16, 8), args=(a, bt, c, 16, 8, 32, True), interpret=True)
    err = K.rel_error(c, a.astype(np.float64) @ bt.T)
    assert 1e-7 < err < 2e-3  # TF32 keeps 10 mantissa bits: visibly less exact than float32, within its bound


def test_interpreter_batched():
    a, b = _rand((3, 64, 32), np.float16), _rand((3, 32, 48), np.float16)
    c = np.full((3, 64, 48), np.nan, np.float16)
    tt.launch(K.bmm, grid=(K.grid(64, 48, 32, 16), 3), args=(a.reshape(-1, 32), b.reshape(-1, 48), c.reshape(-1, 48),
                                                            64, 32, 16, 16), interpret=True)
    assert K.rel_error(c, a.astype(np.float64) @ b) < 3e-3


@tt.kernel
def _at(a, b, c, M: tt.Constant[int], N: tt.Constant[int], KK: tt.Constant[int]):
    tt.store(c, index=(0, 0), tile=tt.load(a, index=(0, 0), shape=(M, KK)) @ tt.load(b, index=(0, 0), shape=(KK, N)))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.float16, np.float64])
def test_matmul_operator_follows_numpy(dtype):
    a, b = (RNG.standard_normal((5, 7)) * 4).astype(dtype), (RNG.standard_normal((7, 3)) * 4).astype(dtype)
    c = np.zeros((5, 3), dtype)
    tt.launch(_at, grid=1, args=(a, b, c, 5, 3, 7), interpret=True)
    ref = a @ b  # NumPy wraps integer products to the dtype, as the kernel must
    if np.issubdtype(dtype, np.integer):
        np.testing.assert_array_equal(c, ref)
    else:
        np.testing.assert_allclose(c.astype(np.float64), a.astype(np.float64) @ b, rtol=2e-3 if dtype == np.float16 else 1e-12)


def _generate(kernel, args, arch=90, arrays=None, cluster=1):
    ir = kernel.compile(args, interpret=True).ir
    n = sum(isinstance(x, np.ndarray) for x in args)
    return _tegula.generate_kernel(ir, arch, arrays or [(True, True)] * n, 0, cluster)


def _cubin(source, arch):
    try:
        return tc.Program(source, name="k.cu", options=tc.ProgramOptions(arch=arch)).compile(target_type="cubin").code
    except tc.DriverNotFoundError as e:
        pytest.skip(f"NVRTC is not available: {e}")


@pytest.mark.parametrize("tiles", [(128, 256, 64), (128, 128, 64), (64, 256, 64), (256, 128, 64), (128, 256, 128)])
def test_tensor_core_kernel_compiles_for_sm90a(tiles):
    bm, bn, bk = tiles
    z = np.zeros((256, 256), np.float16)
    k = _generate(K.matmul, (z, z, z, bm, bn, bk, 8))
    assert k["note"] == "" and k["arch_specific"] and k["persistent"] and k["block_threads"] in (256, 384)
    # (box rows, box cols) of A, B and, when the output goes through the copy engine too, C
    assert [m[2:] for m in k["tensor_maps"]][:2] == [(bm, 64), (bk, 64)]
    assert [m[2:] for m in k["tensor_maps"]][2:] in ([(bm, 64)], [])
    assert "wgmma.mma_async" in k["source"] and "cp.async.bulk.tensor" in k["source"]
    assert k["shared_bytes"] <= 227 * 1024 and k["stages"] >= 2
    assert len(_cubin(k["source"], "sm_90a")) > 0


def test_fused_epilogue_and_transposed_b_compile():
    z = np.zeros((256, 256), np.float16)
    k = _generate(K.matmul_bias_act, (z, z, np.zeros(256, np.float16), z, 128, 256, 64, 8, "gelu"))
    assert k["note"] == "" and "tanh" in k["source"]
    _cubin(k["source"], "sm_90a")
    f = np.zeros((256, 256), np.float32)
    k = _generate(K.matmul_nt, (f, f, f, 128, 128, 32, True))
    assert k["note"] == "" and ".tf32.tf32" in k["source"]
    _cubin(k["source"], "sm_90a")


@tt.kernel
def _k_by_block(a, b, c, BM: tt.Constant[int]):
    """A product whose K steps depend on the block: blocks cannot pair up, BM = 64 tiles cannot take turns."""
    acc = tt.zeros((BM, 128), tt.float32)
    for k in range(tt.bid(0) + 1):
        acc = tt.mma(tt.load(a, index=(0, k), shape=(BM, 64)), tt.load(b, index=(k, 0), shape=(64, 128)), acc)
    tt.store(c, index=(0, 0), tile=acc.astype(c.dtype))


@pytest.mark.parametrize("tiles", [(64, 256, 64), (64, 128, 64), (128, 128, 64), (128, 64, 64)])
def test_one_warpgroup_tiles_take_turns(tiles):
    """BM = 64, and BM = 128 with BN <= 128 (two m64 blocks in one warpgroup's registers): a warpgroup per tile, two
    of them taking alternate tiles (ping-pong), each with its own store staging; a kernel whose K steps depend on
    the block keeps one warpgroup (BM = 64) or two on one tile (BM = 128)."""
    bm, bn, bk = tiles
    z = np.zeros((256, 256), np.float16)
    k = _generate(K.matmul_bias_act, (z, z, np.zeros(256, np.float16), z, bm, bn, bk, 8, "relu"))
    assert k["block_threads"] == 384 and "two teams taking turns" in k["source"] and "tg_nk" in k["source"]
    assert len(_cubin(k["source"], "sm_90a")) > 0
    k = _generate(_k_by_block, (z, z, z, bm))
    assert k["block_threads"] == (256 if bm == 64 else 384) and "two teams" not in k["source"] and k["note"] == ""
    assert len(_cubin(k["source"], "sm_90a")) > 0


@pytest.mark.parametrize("tiles", [(128, 256, 64), (128, 128, 64), (64, 256, 64), (256, 128, 64)])
def test_pairs_compile_for_sm90a(tiles):
    """cluster=2: the copy boxes are half height (each block of a pair copies half of a shared tile), the
    copies multicast, and the blocks meet at a cluster barrier."""
    bm, bn, bk = tiles
    z = np.zeros((256, 256), np.float16)
    k = _generate(K.matmul_bias_act, (z, z, np.zeros(256, np.float16), z, bm, bn, bk, 8, "relu"), cluster=2)
    assert k["note"] == "" and k["cluster"] == 2 and k["persistent"]
    assert [m[2:] for m in k["tensor_maps"]][:2] == [(bm // 2, 64), (bk // 2, 64)]
    src = k["source"]
    assert "multicast::cluster" in src and "tg_cluster_sync();" in src and "mapa.shared::cluster" in src
    assert len(_cubin(src, "sm_90a")) > 0
    f = np.zeros((256, 256), np.float32)
    k = _generate(K.matmul_nt, (f, f, f, 128, 128, 32, True), cluster=2)
    assert [m[2:] for m in k["tensor_maps"]][:2] == [(64, 32), (64, 32)]
    _cubin(k["source"], "sm_90a")
    assert _generate(K.matmul, (z, z, z, 128, 256, 64, 8))["cluster"] == 1


def test_cluster_errors():
    z = np.zeros((256, 256), np.float16)
    for bad in (0, 3, 2.0, True, "2"):
        with pytest.raises(ValueError, match="cluster must be 1 or 2"):
            tt.kernel(cluster=bad)(lambda a: None)
        with pytest.raises(ValueError, match="cluster must be 1 or 2"):
            K.matmul.with_options(cluster=bad)
        with pytest.raises(ValueError, match="cluster must be 1 or 2"):
            tt.Config(BM=128, cluster=bad)
    with pytest.raises(ValueError, match="bounds depend on the block id"):
        _generate(_k_by_block, (z, z, z, 128), cluster=2)
    with pytest.raises(ValueError, match="applies to tensor-core matrix products only.*sm_90"):
        _generate(K.matmul, (z, z, z, 128, 128, 64, 8), arch=80, cluster=2)
    k = K.matmul.with_options(num_stages=3).with_options(cluster=2)  # an option left out is kept
    assert (k.num_stages, k.cluster) == (3, 2) and K.matmul.with_options() is K.matmul
    with pytest.raises(ValueError, match="not 1 or 2 blocks"):
        _generate(K.matmul, (z, z, z, 128, 128, 64, 8), cluster=4)


@pytest.mark.parametrize("case,reason", [
    ("f32", "allow_tf32"), ("bm96", "BM = 96"), ("strided", "contiguous"), ("sm80", "sm_90"), ("bk32", "BK = 32"),
])
def test_reasons_an_mma_stays_off_the_tensor_cores(case, reason):
    z16, z32 = np.zeros((256, 256), np.float16), np.zeros((256, 256), np.float32)
    if case == "f32":
        k = _generate(K.matmul_nt, (z32, z32, z32, 128, 128, 32, False))
    elif case == "bm96":
        k = _generate(K.matmul, (z16, z16, z16, 96, 128, 64, 8))
    elif case == "strided":
        k = _generate(K.matmul, (z16, z16, z16, 128, 128, 64, 8), arrays=[(False, False), (True, True), (True, True)])
    elif case == "sm80":
        k = _generate(K.matmul, (z16, z16, z16, 128, 128, 64, 8), arch=80)
    else:
        k = _generate(K.matmul, (z16, z16, z16, 128, 128, 32, 8))
    assert reason in k["note"] and not k["persistent"]
    _cubin(k["source"], "sm_90")  # the CUDA-core path still compiles


@tt.kernel
def _bad_shapes(a, b, c):
    x = tt.load(a, index=(0, 0), shape=(16, 8))
    y = tt.load(b, index=(0, 0), shape=(16, 8))
    tt.store(c, index=(0, 0), tile=tt.mma(x, y, tt.zeros((16, 8), tt.float32)))


@tt.kernel
def _bad_acc(a, b, c):
    x = tt.load(a, index=(0, 0), shape=(16, 16))
    tt.store(c, index=(0, 0), tile=tt.mma(x, x, tt.zeros((16, 16), tt.float16)).astype(tt.float32))


@tt.kernel
def _mixed(a, b, c):
    tt.store(c, index=(0, 0), tile=tt.load(a, index=(0, 0), shape=(4, 4)) @ tt.load(b, index=(0, 0), shape=(4, 4)))


def test_errors_name_the_problem_and_the_line():
    f16, f32 = np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float32)
    with pytest.raises(ValueError, match=r"test_tile_matmul.py:\d+:\d+: mma: inner extents differ"):
        tt.launch(_bad_shapes, grid=1, args=(f16, f16, f32), interpret=True)
    with pytest.raises(TypeError, match="accumulates in float32"):
        tt.launch(_bad_acc, grid=1, args=(f16, f16, f32), interpret=True)
    with pytest.raises(TypeError, match="one dtype"):
        tt.launch(_mixed, grid=1, args=(f16, f32, f32), interpret=True)


ml_dtypes = pytest.importorskip("ml_dtypes")
F8 = [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


@tt.kernel
def _cast(x, y, T: tt.Constant[int]):
    i = tt.bid(0)
    tt.store(y, index=(i,), tile=tt.load(x, index=(i,), shape=(T,)).astype(y.dtype))


@pytest.mark.parametrize("f8", F8, ids=lambda t: t.__name__)
def test_float8_conversions_match_ml_dtypes(f8):
    """Every bit pattern decodes as ml_dtypes does; floats round to nearest even, past the largest finite value
    to NaN (e4m3fn, no infinities) or infinity (e5m2); NaN, infinities and signed zeros survive."""
    bits = np.arange(256, dtype=np.uint8).view(f8)
    out = np.zeros(256, np.float32)
    tt.launch(_cast, grid=1, args=(bits, out, 256), interpret=True)
    np.testing.assert_array_equal(out, bits.astype(np.float32))
    x = np.concatenate([RNG.standard_normal(4000).astype(np.float32) * s for s in (1e-3, 1, 30, 300, 1e4)] +
                       [np.array([448, 464, 465, 480, 57344, 61439, 61440, 1e6, -1e6, np.inf, -np.inf, np.nan, 0.0, -0.0],
                                 np.float32)])
    y = np.zeros(x.size, f8)
    tt.launch(_cast, grid=1, args=(x, y, x.size), interpret=True)
    np.testing.assert_array_equal(y.astype(np.float32), x.astype(f8).astype(np.float32))


@pytest.mark.parametrize("f8", F8, ids=lambda t: t.__name__)
def test_float8_matmul_interpreter_and_sm90a_kernel(f8):
    a, bt = _rand((100, 256), f8), _rand((70, 256), f8)
    c = np.full((100, 70), np.nan, np.float32)
    tt.launch(K.matmul_nt, grid=K.grid(100, 70, 64, 64), args=(a, bt, c, 64, 64, 128, False), interpret=True)
    assert K.rel_error(c, a.astype(np.float64) @ bt.astype(np.float64).T) < 1e-6  # products of 8-bit floats are exact
    z, zc = np.zeros((256, 256), f8), np.zeros((256, 256), np.float32)
    k = _generate(K.matmul_nt, (z, z, zc, 128, 256, 128, False))
    assert k["note"] == "" and f".{'e4m3' if f8 is F8[0] else 'e5m2'}." in k["source"] and "k32" in k["source"]
    _cubin(k["source"], "sm_90a")
    k = _generate(K.matmul, (z, z, zc, 128, 256, 128, 8))  # B row-major (K, N): float8 wgmma reads B K-major only
    assert "K-major" in k["note"]
