"""The CUB path of sort/argsort (tegula.numpy._sort with cpp/tegula/libs/cub_sort) on CPU-interpreter arrays, with
the CUB call replaced by a stable NumPy sort of the same host memory: the key mapping (NaN last, -0.0 kept in
keys-only sorts, descending), the int32 index payload, the row pass and the buffer CUB leaves the result in. The CUB
kernels themselves compile in tests/cpp/test_libs_cub_sort.cpp and run in tests/gpu/test_gpu_sort.py."""
import ctypes

import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import _sort

RNG = np.random.default_rng(17)
CALLS = []


def _host(ptr, dtype, n):
    dt = np.dtype(dtype)
    return np.ndarray((n,), dt, buffer=(ctypes.c_char * (n * dt.itemsize)).from_address(ptr))


def fake_cub_radix_sort(device, key_bytes, value_bytes, keys0, keys1, values0, values1, n, end_bit):
    """CUB's contract: a stable sort on bits [0, end_bit); the result in buffer (number of 8-bit passes) % 2."""
    CALLS.append((key_bytes, value_bytes, end_bit))
    kt = np.uint32 if key_bytes == 4 else np.uint64
    keys = _host(keys0, kt, n).copy()
    order = np.argsort(keys & kt((1 << end_bit) - 1), kind="stable")
    which = -(-end_bit // 8) % 2
    _host(keys1 if which else keys0, kt, n)[...] = keys[order]
    if value_bytes:
        vt = np.uint32 if value_bytes == 4 else np.uint64
        vals = _host(values0, vt, n).copy()
        _host(values1 if which else values0, vt, n)[...] = vals[order]
    return which


@pytest.fixture
def cub(monkeypatch):
    monkeypatch.setattr(tnp._core._tegula, "cub_radix_sort", fake_cub_radix_sort, raising=False)
    monkeypatch.setattr(_sort, "_use_cub", lambda x: True)
    CALLS.clear()
    return CALLS


def _data(dtype, n):
    if dtype == "bool":
        return RNG.random(n) < 0.4
    if np.dtype(dtype).kind == "f":
        x = (RNG.standard_normal(n) * 100).astype(dtype)
        x[::13] = np.nan
        x[1::17] = -0.0
        x[2::17] = 0.0
        x[3::29] = np.inf
        x[4::31] = -np.inf
        return x
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


DTYPES = ["float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8",
          "bool"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_keys_only(cub, dtype):
    x = _data(dtype, 3001)
    got = tnp.asnumpy(tnp.sort(tnp.asarray(x)))
    ref = np.sort(x)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)  # NaN last; -0.0 == 0.0
    if ref.dtype.kind == "f":  # the zeros keep their signs (-0.0 first among them)
        assert np.signbit(got[got == 0]).sum() == np.signbit(x[x == 0]).sum()
    assert cub and cub[0][1] == 0  # keys only
    desc = tnp.asnumpy(tnp.sort(tnp.asarray(x), descending=True))
    np.testing.assert_array_equal(desc, np.flip(ref))  # the ascending order reversed (NaN first), as the tile path


@pytest.mark.parametrize("dtype", DTYPES)
def test_argsort_pairs_and_rows(cub, dtype):
    x = _data(dtype, 2000)
    np.testing.assert_array_equal(tnp.asnumpy(tnp.argsort(tnp.asarray(x))), np.argsort(x, kind="stable"))
    m = x.reshape(40, 50)
    np.testing.assert_array_equal(tnp.asnumpy(tnp.argsort(tnp.asarray(m), axis=1)), np.argsort(m, axis=1, kind="stable"))
    np.testing.assert_array_equal(tnp.asnumpy(tnp.sort(tnp.asarray(m), axis=0)), np.sort(m, axis=0))
    assert any(c[1] == 4 for c in cub)  # int32 indices carried
    assert any(c[2] == 6 for c in cub)  # the row pass: 40 rows -> 6 bits


def test_unique_and_searchsorted_ride_on_it(cub):
    x = RNG.integers(0, 100, 5000).astype(np.float32)
    u, c = tnp.unique(tnp.asarray(x), return_counts=True)
    u0, c0 = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(tnp.asnumpy(u), u0)
    np.testing.assert_array_equal(tnp.asnumpy(c), c0)
    np.testing.assert_allclose(float(tnp.median(tnp.asarray(x))), np.median(x))
