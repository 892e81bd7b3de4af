"""Dense copies on the GPU: one contiguous run into another of the same dtype is the driver's device-to-device copy
(x.copy(), y[a:b] = x[c:d], a computed result written into its target), at any offset inside its memory; other
copies stay the strided copy kernel. Values against NumPy; poisoned targets (a missed element shows)."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp


@pytest.fixture
def rng():
    return np.random.default_rng()


def gpu(x):
    return tnp.asarray(x, device="cuda")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "complex128", "bool"])
@pytest.mark.parametrize("n", [1, 7, 1000, 3_000_001])
def test_dense_copies_are_device_to_device_copies(rng, dtype, n):
    x0 = (rng.standard_normal(n) * 100).astype(dtype)
    x = gpu(x0)
    with tegula.profile() as p:
        c = x.copy()
        y = gpu(np.full(n + 9, 7, dtype))  # poisoned: the copy must write every element of its range
        y[4:4 + n] = x
    assert [r.name for r in p.launches if r.name == "tegula_copy"] == []
    assert any(r.kind == "copy" and r.name == "d2d" for r in p.records)
    np.testing.assert_array_equal(c.get(), x0)
    want = np.full(n + 9, 7, dtype)
    want[4:4 + n] = x0
    np.testing.assert_array_equal(y.get(), want)


def test_copies_at_offsets_inside_their_memory(rng):
    a0 = rng.standard_normal((64, 50))
    a = gpu(a0)
    b = gpu(np.zeros((64, 50)))
    b[10:20] = a[30:40]  # whole rows: one dense run at an offset in each
    want = np.zeros((64, 50))
    want[10:20] = a0[30:40]
    np.testing.assert_array_equal(b.get(), want)
    b[3, 5:45] = a[60, 1:41]  # a run inside one row
    want[3, 5:45] = a0[60, 1:41]
    np.testing.assert_array_equal(b.get(), want)
    b[:, 2] = a[:, 7]  # strided: the copy kernel
    want[:, 2] = a0[:, 7]
    np.testing.assert_array_equal(b.get(), want)
    c = a[5:].copy()
    c[0, 0] = -1.0  # a copy, not a view
    assert a.get()[5, 0] == a0[5, 0]
    np.testing.assert_array_equal(c.get()[1:], a0[6:])


def test_overlapping_dense_copies_keep_numpys_values(rng):
    x0 = rng.standard_normal(1000)
    x = gpu(x0)
    x[10:] = x[:-10]  # overlaps: through a temporary
    want = x0.copy()
    want[10:] = x0[:-10].copy()
    np.testing.assert_array_equal(x.get(), want)
