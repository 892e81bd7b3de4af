"""Boolean masks used several times (mandelbrot's I = abs(Z) < 2; N[I] = n; Z[I] = Z[I]**2 + C[I]): the compaction
positions of one unchanged mask are scanned once (one count read back), complex arrays compact and expand their two
part views without copies, and x[mask] = values writes each kept element from its position (no nonzero, no
scatter). A mask written in between (in place, by a kernel, through DLPack) is scanned again."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401


def launches(f):
    with tegula.profile(gpu_timing=False) as p:
        f()
    return [r.name for r in p.launches]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128", "complex64", "bool"])
def test_values_of_a_reused_mask(dtype, device, rng):
    x = (rng.standard_normal((40, 33)) * 3).astype(dtype)
    y = (rng.standard_normal((40, 33)) * 3).astype(dtype)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(x.shape).astype(dtype)
    a, b = t(x, device), t(y, device)
    m = rng.standard_normal((40, 33)) > 0.3
    for M in (t(m, device), tnp.less(t(rng.standard_normal((40, 33)), device), 0.3)):
        want_m = M.get()
        assert_same(a[M], x[want_m])
        assert_same(b[M], y[want_m])
        v = (a[M] * 2 + b[M]) if dtype != "bool" else ~a[M]
        x[want_m] = (x[want_m] * 2 + y[want_m]) if dtype != "bool" else ~x[want_m]
        a[M] = v
        assert_same(a, x)


def test_a_mask_written_in_between_is_scanned_again(device, rng):
    x = rng.standard_normal(1000)
    m = x > 0
    a, M = t(x, device), t(m, device)
    assert_same(a[M], x[m])
    M[:500] = ~M[:500]  # in place
    m[:500] = ~m[:500]
    assert_same(a[M], x[m])
    M ^= t(rng.standard_normal(1000) > 1, device)  # an in-place operator
    m = M.get()
    assert_same(a[M], x[m])
    a[M] = t(np.arange(m.sum(), dtype=np.float64), device)
    x[m] = np.arange(m.sum())
    assert_same(a, x)


def test_a_mask_written_through_dlpack_is_scanned_again(rng):
    x = rng.standard_normal(300)
    m = x > 0
    a, M = t(x, "cpu"), t(m, "cpu")
    assert_same(a[M], x[m])
    host = np.from_dlpack(M)  # a writable view of the mask's memory
    host[:] = ~host
    assert_same(a[M], x[~m])


def test_expand_checks_the_count_and_takes_its_own_values(device, rng):
    x = rng.standard_normal((6, 7))
    m = x > 0
    a, M = t(x, device), t(m, device)
    with pytest.raises(ValueError, match="cannot assign 3 input values"):
        a[M] = t(np.arange(3.0), device)
    x[m] = x[m][::-1]
    a[M] = a[M][::-1]  # the values come from a itself
    assert_same(a, x)
    xt = x.T.copy()
    at = t(x, device).T  # not one C-order run: the general scatter
    xt[m.T] = -np.arange(m.sum())
    at[M.T] = t(-np.arange(m.sum(), dtype=np.float64), device)
    assert_same(at, xt)


def test_mandelbrot_iterations_compact_once_without_copies(rng):
    X, Y = np.linspace(-1.75, 0.25, 50), np.linspace(-1, 1, 40)
    C = X + Y[:, None] * 1j
    Z, N = np.zeros(C.shape, np.complex128), np.zeros(C.shape, np.int64)
    c, z, n = t(C, "cpu"), t(Z, "cpu"), t(N, "cpu")

    def step(np_, Z, N, C, k):
        I = np_.less(abs(Z), 2.0)
        N[I] = k
        Z[I] = Z[I] ** 2 + C[I]

    for k in range(8):
        step(np, Z, N, C, k)
        step(tnp, z, n, c, k)
    assert_same(z, Z, rtol=1e-12)
    assert_same(n, N)
    names = launches(lambda: step(tnp, z, n, c, 8))
    # one launch per compaction and per expansion: a complex element moves as its float pair
    assert names.count("compress") == 2 and names.count("expand") == 1, names
    assert "indexed" not in names and "tegula_copy" not in names, names
    assert len(names) <= 8, names


def test_a_mask_that_writes_itself(device, rng):
    """m[m] = values writes the mask's own memory: its positions are not reused afterwards."""
    x = rng.standard_normal(200) > 0
    m = t(x, device)
    k = int(x.sum())
    vals = np.arange(k) % 2 == 0
    x[x] = vals
    m[m] = t(vals, device)
    assert_same(m, x)
    y = rng.standard_normal(200)
    assert_same(t(y, device)[m], y[x])


def test_masks_of_one_value(device, rng):
    """Two masks built by the same expression over unchanged arrays (nbody's a[a > 0] = a[a > 0] ** -1.5) share one
    scan; once an array under the expression, or the first mask's memory, is written, they do not."""
    x = rng.standard_normal((30, 20))
    a = t(x, device)
    want = x.copy()
    want[want > 0] = want[want > 0] ** -1.5
    a[a > 0] = a[a > 0] ** -1.5
    assert_same(a, want, rtol=1e-12)
    m1 = a > -0.5
    r1 = a[m1]
    a[0, :] = 5.0  # a written: a new a > -0.5 is another mask
    x = a.get()
    assert_same(a[a > -0.5], x[x > -0.5])
    assert_same(r1, want[want > -0.5])
    m2 = a < 0
    first = a[m2]
    m2[...] = True  # the first mask's memory written: the expression's key no longer names it
    assert_same(a[a < 0], x[x < 0])
    assert_same(first, x[x < 0])
    if device == "cpu":
        b = t(rng.standard_normal(500), device)

        def statement():
            b[b > 0] = b[b > 0] * 2  # Python builds the right side first, then the left side's mask

        statement()
        names = launches(statement)
        # the right side: its mask, the scan, the compaction, the product; the left side: its mask, evaluated only
        # because the write flushes the readers of b, and the expansion. No second scan and one count read (session
        # 15 before: 9 launches, two counts)
        assert names.count("compress") == 1 and names.count("expand") == 1 and len(names) == 6, names


def test_empty_masks(device):
    a = tnp.zeros((0, 3), device=device)
    m = a > 0
    with pytest.raises(ValueError, match="cannot assign 3 input values to the 0 output values"):
        a[m] = tnp.arange(3.0, device=device)
    assert a[m].shape == (0,)
    a[m] = tnp.zeros(0, device=device)
    assert a.shape == (0, 3)
