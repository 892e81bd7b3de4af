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
    a = tnp.asarray(np.ones(1 << 16))
    assert not _scan.applies(a, 0)  # the CPU engine already scans one pass per row
    assert not _scan.applies(a, 1)  # out-of-range axes go to the engine, which raises AxisError
