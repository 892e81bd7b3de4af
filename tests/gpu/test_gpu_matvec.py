"""Vector-matrix and matrix-vector products on the GPU by the routes tegula.numpy takes (cuBLASLt for matrices in
memory, the array engine's fused sum for a pending matrix), against NumPy in float64: strided column ranges of a
larger matrix (correlation's data[:, i] @ data[:, i + 1:M], a new shape every call), mixed dtypes, edge sizes.
(Session 26 measured the engine's column sums for small matrices in memory on an H100: 31 us a kernel where
cuBLASLt takes a few; correlation 0.67x CuPy with them, so these stay with the library.)"""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import _matmul


@pytest.fixture
def rng():
    return np.random.default_rng()


def tol(dt, k=300):
    """A sum of k products of unit-scale values: float32 accumulates about sqrt(k) roundings of the terms' size, which
    a result near zero (cancellation) shows in full (H100, k = 2048: 1.3e-5 off at a result of 0.0185)."""
    scale = max(k, 1) ** 0.5
    return dict(rtol=2e-5, atol=1e-6 * scale) if dt == np.float32 else dict(rtol=1e-12, atol=1e-14 * scale)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_column_ranges_of_a_matrix_every_shape(rng, dt):
    host = rng.standard_normal((300, 97)).astype(dt)
    data = tnp.asarray(host, device="cuda")
    ref = host.astype(np.float64)
    for i in range(96):
        got = (data[:, i] @ data[:, i + 1:]).get()
        assert got.shape == (96 - i,) and got.dtype == dt
        np.testing.assert_allclose(got, ref[:, i] @ ref[:, i + 1:], **tol(dt))
        col = (data[i + 1:, :] @ data[i, :]).get()
        np.testing.assert_allclose(col, ref[i + 1:, :] @ ref[i, :], **tol(dt))


@pytest.mark.parametrize("k, n", [(1, 5), (7, 3), (2048, 1024), (1500, 1), (1, 1)])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_products_match_numpy(rng, k, n, dt):
    x, b = rng.standard_normal(k).astype(dt), rng.standard_normal((k, n)).astype(dt)
    got = (tnp.asarray(x, device="cuda") @ tnp.asarray(b, device="cuda")).get()
    np.testing.assert_allclose(got, x.astype(np.float64) @ b.astype(np.float64), **tol(dt, k))
    got = (tnp.asarray(b.T.copy(), device="cuda") @ tnp.asarray(x, device="cuda")).get()
    np.testing.assert_allclose(got, b.T.astype(np.float64) @ x.astype(np.float64), **tol(dt, k))


def test_matrices_in_memory_stay_with_the_library(rng):
    b = rng.standard_normal((1500, 1500))
    g = tnp.asarray(b, device="cuda")
    assert not _matmul._rows_reduce(g)
    x = rng.standard_normal(1500)
    np.testing.assert_allclose((tnp.asarray(x, device="cuda") @ g).get(), x @ b, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose((g @ tnp.asarray(x, device="cuda")).get(), b @ x, rtol=1e-11, atol=1e-11)


def test_mixed_dtypes_and_pending_matrices(rng):
    xi = rng.integers(-5, 5, 40)
    b = rng.standard_normal((40, 30)).astype(np.float32)
    g = tnp.asarray(b, device="cuda")
    got = tnp.asarray(xi, device="cuda") @ g  # int64 @ float32 -> float64
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), xi @ b.astype(np.float64), rtol=1e-6, atol=1e-5)
    got = (2 * g + 1) @ tnp.asarray(b[0, :], device="cuda")  # a pending matrix fused into the sum
    np.testing.assert_allclose(got.get(), (2 * b.astype(np.float64) + 1) @ b[0, :].astype(np.float64),
                               rtol=2e-5, atol=1e-4)
    got = tnp.asarray(b[:, 0], device="cuda") @ (2 * g + 1)
    np.testing.assert_allclose(got.get(), b[:, 0].astype(np.float64) @ (2 * b.astype(np.float64) + 1),
                               rtol=2e-5, atol=1e-4)
    out = tnp.empty(30, dtype=np.float64, device="cuda")
    out[:] = np.nan
    tnp.matmul(tnp.asarray(b[:, 1].astype(np.float64), device="cuda"), g.astype(np.float64), out=out)
    np.testing.assert_allclose(out.get(), b[:, 1].astype(np.float64) @ b.astype(np.float64), rtol=1e-12, atol=1e-12)


def test_mismatched_core_dimension_raises(rng):
    x = tnp.asarray(rng.standard_normal(5), device="cuda")
    b = tnp.asarray(rng.standard_normal((6, 3)), device="cuda")
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        x @ b
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        b.T @ x
