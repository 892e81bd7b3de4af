"""The CUB path of sort/argsort (tegula.numpy._sort with cpp/tegula/libs/sort_arrays) on CPU-interpreter arrays,
where the C++ entry point runs its host reference of CUB's contract (a stable sort of the same memory): the key
mapping (NaN last, -0.0 kept in keys-only sorts, descending), the int32 index payload, the row pass, inputs left alone
or used as scratch. The CUB kernels themselves compile in tests/cpp/test_libs_cub_sort.cpp and run in
tests/gpu/test_gpu_sort.py."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import _cub

RNG = np.random.default_rng(17)
CALLS = []


REAL_SORT = tnp._core._tegula.radix_sort


def counting_sort(keys, values, end_bit, overwrite_inputs=False):
    """The real entry point, each call noted as (key type, value bytes, end_bit, keys only read)."""
    CALLS.append((keys._dtype_name, 0 if values is None else values.itemsize, end_bit, not overwrite_inputs))
    return REAL_SORT(keys, values, end_bit, overwrite_inputs)


@pytest.fixture
def cub(monkeypatch, host_memory):
    monkeypatch.setattr(tnp._core._tegula, "radix_sort", counting_sort, raising=False)
    monkeypatch.setattr(_cub, "ready", lambda x: True)
    CALLS.clear()
    return CALLS


def test_the_host_reference_keeps_cubs_float_order():
    """NaNs of either sign last and returned positive, -0.0 just before +0.0, values carried; an input only read
    is left alone."""
    k = tnp.asarray(np.array([3.0, -np.nan, -0.0, 0.0, -1.0, np.nan, 2.0], np.float32))
    v = tnp.arange(7, dtype="int32")
    sk, sv = REAL_SORT(k, v, 32)
    np.testing.assert_array_equal(sv.get(), [4, 2, 3, 6, 0, 1, 5])
    assert np.signbit(sk.get()).tolist() == [True, True, False, False, False, False, False]
    assert np.isnan(k.get()[1]) and np.signbit(k.get()[1])  # the input: untouched
    with pytest.raises(ValueError, match="end_bit"):
        REAL_SORT(tnp.arange(4, dtype="uint32"), None, 33)
    with pytest.raises(ValueError, match="keys' length"):
        REAL_SORT(tnp.arange(4, dtype="uint32"), tnp.arange(3, dtype="int32"), 32)
    with pytest.raises(ValueError):
        REAL_SORT(tnp.arange(4, dtype="int8"), None, 8)


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
