"""The chunked long-row scan (tegula.numpy._scan): tile kernels run here on the CPU interpreter, the same code the
GPU runs for cumsum/cumprod of few long rows. Chunk sizes are shrunk so several tiles per chunk and ragged ends are
covered at small sizes."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import _scan

RNG = np.random.default_rng(11)


@pytest.fixture(params=[(4096, 2048), (128, 3)], ids=["default", "small_chunks"])
def chunking(request, monkeypatch):
    t, chunks = request.param
    monkeypatch.setattr(_scan, "_T", t)
    monkeypatch.setattr(_scan, "_TARGET_CHUNKS", chunks)


CASES = [((1 << 17,), 0, "float32"), ((3, 40001), 1, "float64"), ((50000, 2), 0, "int32"), ((5, 9000), -1, "int8"),
         ((33000,), 0, "bool"), ((40000,), 0, "float16"), ((2, 3, 5000), 2, "uint16"), ((7000, 3), -2, "int64")]


@pytest.mark.parametrize("shape,axis,dtype", CASES)
def test_cumsum_long(chunking, shape, axis, dtype):
    x = RNG.random(shape) < 0.5 if dtype == "bool" else (RNG.standard_normal(shape) * 10).astype(dtype)
    r = _scan.scan("cumsum", tnp.asarray(x), axis)
    ref = np.cumsum(x, axis=axis)
    got = tnp.asnumpy(r)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    if np.dtype(dtype).kind == "f":
        exact = np.cumsum(x.astype(np.float64), axis=axis)
        tol = {"float16": 3e-3, "float32": 2e-6, "float64": 1e-12}[dtype]
        scale = np.cumsum(np.abs(x.astype(np.float64)), axis=axis) + 1
        assert np.max(np.abs(got - exact) / scale) < tol
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_cumprod_long(chunking, dtype):
    if dtype == "int64":
        x = np.where(RNG.random(70001) < 0.999, 1, -1).astype(dtype)
        x[::9000] = 3
    else:
        x = (1 + RNG.standard_normal(70001) * 1e-3).astype(dtype)
    got = tnp.asnumpy(_scan.scan("cumprod", tnp.asarray(x), 0))
    ref = np.cumprod(x.astype(np.float64) if dtype != "int64" else x)
    if dtype == "int64":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-10 if dtype == "float64" else 2e-4)


def test_applies_only_to_long_rows_on_a_gpu():
    a = tnp.asarray(np.ones(1 << 16), device="cpu")
    assert not _scan_engines.applies(a, 0)  # the CPU engine already scans one pass per row
    assert not _scan_engines.applies(a, 1)  # out-of-range axes go to the engine, which raises AxisError


# ---- the CUB path (one long row on a GPU), with the CUB call replaced by NumPy on the same host memory ----------

from tegula.numpy import _cub, _scan_engines  # noqa: E402

SCAN_CALLS = []
REAL_SCAN = tnp._core._tegula.inclusive_scan  # cpp/tegula/libs/scan_arrays.cpp: its sequential reference on the CPU


def counting_scan(x, multiply=False):
    r = REAL_SCAN(x, multiply)
    SCAN_CALLS.append((x._dtype_name, r._dtype_name, multiply))
    return r


@pytest.fixture
def cub_gpu(monkeypatch, host_memory):
    monkeypatch.setattr(tnp._core._tegula, "inclusive_scan", counting_scan, raising=False)
    monkeypatch.setattr(_scan_engines, "applies", lambda a, axis: -a.ndim <= axis < a.ndim and a.shape[axis] >= 1 << 15)
    monkeypatch.setattr(_cub, "ready", lambda a: True)
    SCAN_CALLS.clear()
    return SCAN_CALLS


def test_the_scan_engine_is_chosen_in_cpp():
    """A long float32 row takes tegula's chained scan with the tile measured on the H200 (libs/scan_arrays.hpp);
    set_scan_engine switches it (the bench sweeps tiles so) and refuses unknown engines and settings."""
    lib = tnp._core._tegula
    engine, tile = lib.scan_engine()
    assert engine == "chained"
    assert tile == dict(threads=128, items=64, load=0, store=1, blocks_per_sm=-2, delay=500, lookback_warps=1,
                        status_stride=16, min_blocks=0)
    try:
        lib.set_scan_engine("cub", threads=256)
        assert lib.scan_engine()[0] == "cub" and lib.scan_engine()[1]["threads"] == 256
        with pytest.raises(ValueError, match="'cub' or 'chained'"):
            lib.set_scan_engine("fast")
        with pytest.raises(TypeError, match="unknown tile setting"):
            lib.set_scan_engine("chained", thread=1)
    finally:
        lib.set_scan_engine(engine, **tile)
    assert lib.scan_engine() == (engine, tile)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int32", "uint16", "bool"])
def test_cub_path_routes_one_long_row(cub_gpu, dtype):
    x = RNG.random(40000) < 0.5 if dtype == "bool" else (RNG.standard_normal(40000) * 10).astype(dtype)
    got = tnp.asnumpy(tnp.cumsum(tnp.asarray(x)))
    ref = np.cumsum(x)
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-5 if dtype == "float32" else 1e-12)
    assert cub_gpu[-1] == (dtype, str(ref.dtype), False)
    y = tnp.asarray(x.reshape(2, 20000))  # two rows: the chunked scan, not CUB
    n_calls = len(cub_gpu)
    tnp.cumsum(y, axis=1)
    assert len(cub_gpu) == n_calls
    if dtype.startswith("float"):
        v = (1 + RNG.standard_normal((1, 50000)) * 1e-4).astype(dtype)
        np.testing.assert_allclose(tnp.asnumpy(tnp.cumprod(tnp.asarray(v), axis=1)), np.cumprod(v, axis=1),
                                   rtol=1e-4 if dtype == "float32" else 1e-12)
        assert cub_gpu[-1] == (dtype, dtype, True)


def test_cub_path_skips_16_bit_floats(cub_gpu):
    x = RNG.standard_normal(40000).astype(np.float16)
    tnp.cumsum(tnp.asarray(x))
    assert not cub_gpu


@pytest.mark.parametrize("dtype", ["float64", "int32", "complex128", "complex64"])
def test_a_long_mask_compacts_through_one_cub_scan(cub_gpu, dtype):
    """mandelbrot's Z[I] = Z[I]**2 + C[I] over a long mask: the positions are one CUB scan (bool -> int64), read
    once for the count; the compaction and the expansion are one launch each, a complex element as its float pair."""
    import tegula

    n = 70001
    z = (RNG.standard_normal(n) + (1j * RNG.standard_normal(n) if dtype.startswith("complex") else 0)).astype(dtype)
    c = (RNG.standard_normal(n) * 3).astype(dtype)
    Z, C = tnp.asarray(z), tnp.asarray(c)
    with tegula.profile(gpu_timing=False) as p:
        m = abs(Z) < 1.5
        Z[m] = Z[m] * 2 + C[m]
        Z._materialize()
    keep = np.abs(z) < 1.5
    z[keep] = z[keep] * 2 + c[keep]
    np.testing.assert_allclose(tnp.asnumpy(Z), z, rtol=1e-6 if dtype in ("complex64",) else 1e-12)
    assert cub_gpu == [("bool", "int64", False)]
    names = [k.name for k in p.launches]
    assert names.count("compress") == 2 and names.count("expand") == 1, names
