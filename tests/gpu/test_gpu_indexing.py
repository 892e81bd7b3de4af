"""tegula.numpy advanced indexing on the GPU at sizes the CPU suite does not reach: many index tiles, rows
wider than CUDA's 65535-block second grid axis, storage offsets past 2**31, against NumPy.
(conftest.py skips this file, with the reason, where no CUDA device is present.)"""
import numpy as np
import pytest

import tegula.numpy as tnp


@pytest.fixture
def rng():
    return np.random.default_rng()


def gpu(x):
    return tnp.asarray(x, device="cuda")


def test_gathers_of_every_placement(rng):
    x = rng.standard_normal((1000, 700)).astype(np.float32)
    a = gpu(x)
    i = rng.integers(-1000, 1000, 300_000)
    j = rng.integers(-700, 700, 300_000)
    for key in [(i,), (i, j), (slice(None), j[:5000]), (i[:2000, None], j[None, :300]), (i[:50], slice(None, None, -3)),
                (slice(3, None, 7), j[:9000]), (x > 1.0,), (x[:, 0] > 0,), (slice(None), x[0] > 0.5), (5, j)]:
        got = a[tuple(gpu(k) if isinstance(k, np.ndarray) else k for k in key)].get()
        np.testing.assert_array_equal(got, x[key])


def test_gathers_from_strided_views(rng):
    base = rng.standard_normal((600, 900)).astype(np.float32)
    x, a = base[::-3, 1::2].T, gpu(base)[::-3, 1::2].T
    i, j = rng.integers(0, x.shape[0], 100_000), rng.integers(0, x.shape[1], 100_000)
    np.testing.assert_array_equal(a[gpu(i), gpu(j)].get(), x[i, j])
    np.testing.assert_array_equal(a[:, gpu(j[:4000])].get(), x[:, j[:4000]])


def test_scatters_match_numpy(rng):
    x = rng.standard_normal((2000, 1500))
    a = gpu(x)
    flat = rng.permutation(x.size)[:1_000_000]  # distinct positions: NumPy's result is the only one
    i, j = np.unravel_index(flat, x.shape)
    v = rng.standard_normal(flat.size)
    a[gpu(i), gpu(j)] = gpu(v)
    x[i, j] = v
    cols = rng.permutation(1500)[:700]
    a[:, gpu(cols)] = gpu(np.arange(2000.0)[:, None])
    x[:, cols] = np.arange(2000.0)[:, None]
    a[gpu(cols), 1:] = -1.0
    x[cols, 1:] = -1.0
    np.testing.assert_array_equal(a.get(), x)


def test_masked_writes_match_numpy(rng):
    x = rng.standard_normal((3000, 1000)).astype(np.float32)
    a = gpu(x)
    m = x > 0.7
    a[gpu(m)] = gpu(np.arange(m.sum(), dtype=np.float32))
    x[m] = np.arange(m.sum(), dtype=np.float32)
    rows = x[:, 3] < 0
    a[gpu(rows)] = gpu(x[0])
    x[rows] = x[0]
    a[a < -2] = 0.0
    x[x < -2] = 0.0
    np.testing.assert_array_equal(a.get(), x)


def test_rows_wider_than_the_second_grid_axis():
    x = np.arange(2 * 10_000_003, dtype=np.int32).reshape(2, -1)  # 78126 column tiles of 128
    a = gpu(x)
    np.testing.assert_array_equal(a[[1, 0, 1]].get(), x[[1, 0, 1]])
    a[[1]] = gpu(x[:1] * 2)
    x[[1]] = x[:1] * 2
    np.testing.assert_array_equal(a.get(), x)


def test_offsets_past_2_31():
    n = 2 ** 31 + 64
    a = tnp.zeros(n, dtype=np.uint8, device="cuda")
    far = [2 ** 31 + 5, 3, n - 1]
    a[far] = gpu(np.array([7, 9, 11], np.uint8))
    np.testing.assert_array_equal(a[[2 ** 31 + 4, 2 ** 31 + 5, 3, n - 1]].get(), [0, 7, 9, 11])
    b = a[::2]  # strides and offsets in elements of the storage, both past 2**31
    b[[2 ** 30 + 10]] = 5
    assert int(a[2 ** 31 + 20]) == 5
    assert int(a[::-1][[0]].get()[0]) == 11


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"])
def test_every_dtype(rng, dtype):
    x = (rng.standard_normal((500, 300)) * 50).astype(dtype)
    a = gpu(x)
    i, j = rng.integers(0, 500, 20_000), rng.integers(0, 300, 20_000)
    np.testing.assert_array_equal(a[gpu(i), gpu(j)].get(), x[i, j])
    k = rng.permutation(300)[:100]
    v = (rng.standard_normal((500, 100)) * 50).astype(dtype)
    a[:, gpu(k)] = gpu(v)
    x[:, k] = v
    np.testing.assert_array_equal(a.get(), x)


def test_writes_keep_earlier_readers_and_errors(rng):
    x = rng.standard_normal((400, 500))
    a = gpu(x)
    y = a * 2 + 1  # pending: must see the values before the writes
    a[gpu(np.array([0, 399])), gpu(np.array([1, 2]))] = 5.0
    a[:, [7, 8]] = gpu(np.ones((400, 2)))
    np.testing.assert_array_equal(y.get(), x * 2 + 1)
    with pytest.raises(IndexError, match="index 500 is out of bounds for axis 1 with size 500"):
        a[gpu(np.array([1, 2])), gpu(np.array([3, 500]))]
    with pytest.raises(IndexError, match="index -401 is out of bounds for axis 0 with size 400"):
        a[gpu(np.array([-401]))] = 1.0


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int64"])
def test_gathers_from_a_pending_reshape(rng, dtype):
    """A reshape of a transposed view needs a copy, which the GPU engine leaves pending: the gather computes it first
    (a complex array's parts were expressions then, not views, and complex64 gathers read the wrong elements)."""
    z = rng.standard_normal((40, 70)) + (1j * rng.standard_normal((40, 70)) if dtype.startswith("complex") else 0)
    z = z.astype(dtype)
    want_x = np.moveaxis(z, 0, -1).reshape(-1)
    idx = rng.integers(-want_x.size, want_x.size, 5000)
    x = tnp.moveaxis(gpu(z), 0, -1).reshape(-1)
    np.testing.assert_array_equal(tnp.take(x, gpu(idx)).get(), want_x[idx])
    x = tnp.moveaxis(gpu(z), 0, -1).reshape(-1)
    np.testing.assert_array_equal(x[gpu(idx)].get(), want_x[idx])
    w = tnp.moveaxis(gpu(z), 0, -1)  # the complex min along axis 0 that showed it (take_along_axis)
    np.testing.assert_array_equal(tnp.min(gpu(z), axis=0).get(), np.min(z, axis=0))
    np.testing.assert_array_equal(tnp.take_along_axis(w, gpu(idx[:70, None] % 40), axis=-1).get(),
                                  np.take_along_axis(np.moveaxis(z, 0, -1), idx[:70, None] % 40, axis=-1))


def test_mandelbrot2_reads_back_once_per_iteration():
    """NPBench's mandelbrot2 loop on the GPU: one count read back per iteration (its mask I's), no bounds-check
    read back for the mgrid index arrays it compacts, no scan for I's complement; results as NumPy's."""
    import sys
    from pathlib import Path

    import tegula

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    from test_numpy_index_bounds import mandelbrot2

    want_z, want_n = mandelbrot2(np, 300, 200, 20)
    mandelbrot2(tnp, 300, 200, 20)  # compiled
    with tegula.profile(gpu_timing=False) as p:
        z, n = mandelbrot2(tnp, 300, 200, 20)
        z, n = z.get(), n.get()
    reads = sum(1 for r in p.copies if r.name == "d2h")
    np.testing.assert_array_equal(n, want_n)
    np.testing.assert_allclose(z, want_z, rtol=1e-9)
    assert reads <= 20 + 2, reads  # one per iteration, and the two results


def test_spmv_reads_nothing_back():
    """NPBench's spmv on the GPU: the row bounds come from the uploads' host copies and x[cols] needs no bounds
    check, so the loop reads nothing back (CuPy: three reads per row)."""
    import sys
    from pathlib import Path

    import tegula

    sp = __import__("pytest").importorskip("scipy.sparse")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
    from test_numpy_host_copies import spmv

    m = sp.random(400, 300, density=0.02, format="csr", dtype=np.float64, random_state=3)
    x = np.random.default_rng(3).random(300)
    want = spmv(np, m.indptr, m.indices, m.data, x)
    args = [gpu(v) for v in (m.indptr, m.indices, m.data, x)]
    spmv(tnp, *args)  # compiled
    with tegula.profile(gpu_timing=False) as p:
        y = spmv(tnp, *args)
    reads = sum(1 for r in p.copies if r.name == "d2h")
    np.testing.assert_allclose(y.get(), want, rtol=1e-12)
    assert reads == 0, reads
