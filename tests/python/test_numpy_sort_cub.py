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


def _float_order(keys):
    """The unsigned radix order of tegula's CUB float traits (cub_sort.cpp): NaNs lose their sign, then the sign
    twiddle. Returns (order keys, keys as they come back)."""
    u = keys.view(np.uint32 if keys.dtype == np.float32 else np.uint64)
    high = u.dtype.type(1 << (8 * u.itemsize - 1))
    u = np.where(np.isnan(keys), u & ~high, u)
    return np.where(u & high, ~u, u ^ high), u.view(keys.dtype)


def fake_cub_radix_sort(device, key_type, value_bytes, keys0, keys1, values0, values1, n, end_bit, input_keys=0,
                        input_values=0):
    """CUB's contract: a stable sort on bits [0, end_bit) of unsigned keys, or NumPy's order of signed and float keys
    (NaNs last, -0.0 before +0.0); the result in buffer (number of 8-bit passes) % 2; an input buffer left alone."""
    CALLS.append((key_type, value_bytes, end_bit, bool(input_keys)))
    keys = _host(input_keys or keys0, key_type, n).copy()
    if key_type.startswith("float"):
        order_keys, keys = _float_order(keys)
        order = np.argsort(order_keys, kind="stable")
    elif key_type.startswith("int"):
        order = np.argsort(keys, kind="stable")
    else:
        order = np.argsort(keys & keys.dtype.type((1 << end_bit) - 1), kind="stable")
    which = -(-end_bit // 8) % 2
    _host(keys1 if which else keys0, key_type, n)[...] = keys[order]
    if value_bytes:
        vt = np.uint32 if value_bytes == 4 else np.uint64
        vals = _host(input_values or values0, vt, n).copy()
        _host(values1 if which else values0, vt, n)[...] = vals[order]
    return which


@pytest.fixture
def cub(monkeypatch, host_memory):
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
    # NumPy's 4- and 8-byte types are CUB's keys as they are, read from the input (no key-mapping pass)
    assert cub[0][0] == (dtype if np.dtype(dtype).itemsize >= 4 else "uint32") and cub[0][3] == (
        np.dtype(dtype).itemsize >= 4)
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
