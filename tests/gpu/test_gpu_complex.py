"""Complex arrays on the GPU at sizes that use every kernel shape (map, rows, row_loop, split, scan_loop),
against NumPy in complex128."""
import numpy as np
import pytest

import tegula.numpy as tnp


def _z(rng, shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("dtype,tol", [("complex64", 2e-5), ("complex128", 1e-12)])
def test_fused_chain_and_reductions(dtype, tol):
    rng = np.random.default_rng()
    z, w = _z(rng, (1 << 22,), dtype), _z(rng, (1 << 22,), dtype)
    a, b = tnp.asarray(z), tnp.asarray(w)
    got = (tnp.exp(-a * a) * b + 0.5j * a).get()
    ref = np.exp(-z * z) * w + 0.5j * z
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
    s = complex(a.sum().get())  # split: blocks split the row, partials summed in a second kernel
    rel = 1e-5 if dtype == "complex64" else 1e-12
    assert abs(s - z.astype(np.complex128).sum()) <= rel * np.abs(z).sum()


# The (64, 100000) row sum was once wrong here (a strict xfail): split reductions compiled their column-part
# count into a kernel that plans with other counts then reused, summing the wrong parts and reading partials
# nothing wrote (recycled GPU memory). The count is a kernel argument now; test_numpy_reductions.py has the
# regression test (with poisoned memory on the CPU).


@pytest.mark.parametrize("shape,axis", [((4096, 3000), 1), ((64, 100000), 1), ((8, 100000), 1), ((2, 100000), 1),
                                        ((3000, 4096), 0)])
def test_axis_sums_and_cumsum(shape, axis):
    rng = np.random.default_rng()
    z = _z(rng, shape, "complex128")
    a = tnp.asarray(z)
    np.testing.assert_allclose(a.sum(axis=axis).get(), z.sum(axis=axis), rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(tnp.cumsum(a, axis=axis).get(), np.cumsum(z, axis=axis), rtol=1e-9, atol=1e-8)


def test_views_parts_and_indexing():
    rng = np.random.default_rng()
    z = _z(rng, (2048, 1024), "complex64")
    a = tnp.asarray(z)
    a.imag[::2] = 0  # writes through the part view
    z.imag[::2] = 0
    np.testing.assert_array_equal(a.get(), z)
    i = rng.integers(0, 2048, 5000)
    np.testing.assert_array_equal(a[i, ::3].get(), z[i, ::3])
    np.testing.assert_allclose(tnp.abs(a[::-1]).get(), np.abs(z[::-1]), rtol=1e-6)
