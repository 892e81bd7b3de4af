"""A few rows times a large matrix (libs/narrow_product.hpp, taken by tegula.numpy's matmul for m <= 16 and a
row-major B of 4 MiB or more): against NumPy in float64, with strided and broadcast left operands, padded rows of
B, split-K and single-chunk shapes, and the kernel actually taken (the profiler names it)."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp


def gpu(x):
    return tnp.asarray(x, device="cuda")


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-5), ("float64", 1e-12)])
@pytest.mark.parametrize("m, k, n", [(1, 18000, 2200), (8, 30000, 1000), (3, 700, 3000), (16, 5000, 777),
                                     (5, 100_000, 17), (2, 130, 9000)])
def test_matches_numpy(dtype, rtol, m, k, n):
    rng = np.random.default_rng(m * 7 + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)  # what rounding is relative to
    big = k * n * b.itemsize >= 1 << 22
    with tegula.profile(gpu_timing=False) as p:
        got = (gpu(a) @ gpu(b)).get()
    names = " ".join(k.name for k in p.launches)
    assert ("tg_narrow" in names) == big, names
    assert np.all(np.abs(got - ref) <= rtol * scale + 1e-300)


def test_vector_strided_and_broadcast_operands():
    rng = np.random.default_rng(3)
    big = rng.standard_normal((9000, 4100))
    b = big[:, 50:4050]                        # rows padded: ldb 4100, n 4000
    r = rng.standard_normal(18000)[::2]        # a strided vector (r @ A: bicg)
    ref = r @ b
    got = (gpu(rng.standard_normal(18000))[::2] * 0 + gpu(r)) @ gpu(big)[:, 50:4050]
    np.testing.assert_allclose(got.get(), ref, rtol=1e-11, atol=1e-9)
    col = rng.standard_normal((9000, 6))
    ga = gpu(col).T                            # a transposed (6, 9000): column stride 6
    np.testing.assert_allclose((ga @ gpu(b)).get(), col.T @ b, rtol=1e-11, atol=1e-9)
    one = np.broadcast_to(rng.standard_normal(9000), (4, 9000))  # a broadcast row
    np.testing.assert_allclose((tnp.broadcast_to(gpu(one[0]), (4, 9000)) @ gpu(b)).get(), one @ b, rtol=1e-11,
                               atol=1e-9)


def test_mlp_layer_matches_numpy():
    """mlp's relu(x @ w + b) at NPBench's shapes (float32, 8 rows)."""
    rng = np.random.default_rng(5)
    x = rng.random((8, 30000), dtype=np.float32)
    w = rng.random((30000, 1000), dtype=np.float32)
    bias = rng.random(1000, dtype=np.float32)
    got = tnp.maximum(gpu(x) @ gpu(w) + gpu(bias), 0).get()
    ref = np.maximum(x.astype(np.float64) @ w.astype(np.float64) + bias, 0)
    np.testing.assert_allclose(got, ref, rtol=2e-5)


def test_bad_sizes_raise():
    from tegula import _tegula

    d = gpu(np.zeros((2, 2)))
    ptr = d._data_ptr
    with pytest.raises(ValueError, match="m must be 1..16"):
        _tegula.narrow_product(device=0, dtype="float64", m=17, n=2, k=2, a=ptr, lda=2, a_col_stride=1, b=ptr, ldb=2,
                               d=ptr, ldd=2)
    with pytest.raises(ValueError, match="ldb"):
        _tegula.narrow_product(device=0, dtype="float64", m=1, n=2, k=2, a=ptr, lda=2, a_col_stride=1, b=ptr, ldb=1,
                               d=ptr, ldd=2)
    with pytest.raises(TypeError, match="float32 or float64"):
        _tegula.narrow_product(device=0, dtype="int32", m=1, n=2, k=2, a=ptr, lda=2, a_col_stride=1, b=ptr, ldb=2,
                               d=ptr, ldd=2)
