"""Index arrays whose values are known to fit (mgrid's and indices' grids, compactions and gathers of them) skip the
bounds check (a reduction and a read back), and the complement of a compacted mask (np.logical_not) compacts with
neither a scan nor a count read back: mandelbrot2's loop (NPBench) synchronises once per iteration, not four times.
Anything written in between is checked and scanned again, with NumPy's errors."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from tegula.numpy import _indexing, _value_ranges
from numpy_util import assert_same, device, rng, t  # noqa: F401


def mandelbrot2(np_, xn, yn, itermax):
    """NPBench's mandelbrot2 (from Nicolas P. Rougier's 'From Numpy to Python'), as written there."""
    Xi, Yi = np_.mgrid[0:xn, 0:yn]
    X = np_.linspace(-2.25, 0.75, xn, dtype=np_.float64)[Xi]
    Y = np_.linspace(-1.25, 1.25, yn, dtype=np_.float64)[Yi]
    C = X + Y * 1j
    N_ = np_.zeros(C.shape, dtype=np_.int64)
    Z_ = np_.zeros(C.shape, dtype=np_.complex128)
    Xi.shape = Yi.shape = C.shape = xn * yn
    Z = np_.zeros(C.shape, np_.complex128)
    for i in range(itermax):
        if not len(Z):
            break
        np_.multiply(Z, Z, Z)
        np_.add(Z, C, Z)
        I = abs(Z) > 2.0
        N_[Xi[I], Yi[I]] = i + 1
        Z_[Xi[I], Yi[I]] = Z[I]
        np_.logical_not(I, I)
        Z = Z[I]
        Xi, Yi = Xi[I], Yi[I]
        C = C[I]
    return Z_.T, N_.T


class Count:
    """Counts the bounds checks that reduce on the device and the compaction scans, around a block."""

    def __enter__(self):
        self.checks = self.scans = 0
        self._or_all, self._positions = _indexing._or_all, _indexing._positions

        def or_all(xs):
            self.checks += 1
            return self._or_all(xs)

        def positions(keep):
            self.scans += 1
            return self._positions(keep)

        _indexing._or_all, _indexing._positions = or_all, positions
        return self

    def __exit__(self, *exc):
        _indexing._or_all, _indexing._positions = self._or_all, self._positions


@pytest.mark.parametrize("xn,yn", [(40, 30), (23, 37)])
def test_mandelbrot2_checks_nothing_and_scans_once_per_iteration(xn, yn):  # mgrid: the default device
    want_z, want_n = mandelbrot2(np, xn, yn, 12)
    with Count() as c:
        z, n = mandelbrot2(tnp, xn, yn, 12)
    assert_same(n, want_n)
    assert_same(z, want_z, rtol=1e-9)
    iterations = 12
    assert c.checks == 0, c.checks
    assert c.scans == iterations, c.scans  # I's; its complement's positions come from them


def test_grids_know_their_bounds(device):  # mgrid: the default device; indices: `device`
    g = tnp.mgrid[2:7, -3:3]
    assert _value_ranges.bounds(g[0]) == (2, 6)
    assert _value_ranges.bounds(g[1]) == (-3, 2)
    assert _value_ranges.bounds(g) == (-3, 6)
    d = tnp.mgrid[9:0:-2, 0:4]
    assert _value_ranges.bounds(d[0]) == (1, 9)
    i = tnp.indices((4, 7), device=device)
    assert _value_ranges.bounds(i[0]) == (0, 3) and _value_ranges.bounds(i[1]) == (0, 6)
    assert _value_ranges.bounds(tnp.mgrid[0:1:5j, 0:2]) is None  # float grids: no note
    assert _value_ranges.bounds(tnp.arange(5)) is None  # never guessed


def test_negative_grid_indices_wrap_without_a_check(rng):
    x = rng.standard_normal((6, 6))
    a = tnp.asarray(x)
    gi, gj = np.mgrid[-3:3, 5:-1:-1]
    ti, tj = tnp.mgrid[-3:3, 5:-1:-1]
    with Count() as c:
        got = a[ti, tj]
        a[ti, tj] = got * 2
    assert c.checks == 0
    want = x[gi, gj]
    x[gi, gj] = want * 2
    assert_same(got, want)
    assert_same(a, x)


def test_a_grid_too_large_for_the_axis_is_checked():
    a = tnp.zeros((4, 3))
    i, j = tnp.mgrid[0:5, 0:3]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        a[i, j] = 1.0
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        a[i[i < 5], j[i < 5]]


@pytest.mark.parametrize("how", ["setitem", "other grid", "kernel out", "dlpack"])
def test_a_written_grid_is_checked_again(how):
    a = tnp.zeros((5, 5))
    g = tnp.mgrid[0:5, 0:5]
    i, j = g
    if how == "setitem":
        i[1, 1] = 7
    elif how == "other grid":
        g[1][0, 0] = 2  # the same memory: both grids lose their notes
        i[2, 2] = 9
    elif how == "kernel out":
        tnp.add(i, 5, out=i)
    else:
        if i._device_id >= 0:
            pytest.skip("a host DLPack view needs a CPU array (the default device is a GPU)")
        np.from_dlpack(i)[3, 3] = 11
    assert _value_ranges.bounds(i) is None
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 5"):
        a[i, j] = 1.0
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 5"):
        a[i.reshape(-1)[tnp.ones(25, dtype=bool)], j.reshape(-1)]


def test_compactions_and_gathers_carry_bounds(rng):
    i, j = tnp.mgrid[0:8, 0:9]
    m = tnp.asarray(rng.standard_normal((8, 9)) > 0)
    ki = i[m]
    assert _value_ranges.bounds(ki) == (0, 7)
    assert _value_ranges.bounds(i) == (0, 7)  # a compaction only reads it
    taken = j.reshape(-1)[tnp.asarray(np.array([3, 70, 5]))]
    assert _value_ranges.bounds(taken) == (0, 8)
    ki[0] = 100
    assert _value_ranges.bounds(ki) is None


@pytest.mark.parametrize("in_place", [True, False])
def test_the_complement_of_a_mask_compacts_without_a_scan(in_place, device, rng):
    x = rng.standard_normal((30, 17))
    y = rng.standard_normal((30, 17)) + 1j * rng.standard_normal((30, 17))
    a, b = t(x, device), t(y, device)
    m = x > 0.2
    M = a > 0.2
    assert_same(a[M], x[m])
    with Count() as c:
        if in_place:
            tnp.logical_not(M, M)
            K, k = M, ~m
        else:
            K, k = tnp.logical_not(M), ~m
            assert_same(a[M], x[m])  # M itself unchanged, still known
        assert_same(a[K], x[k])
        assert_same(b[K], y[k])
        again = tnp.logical_not(K)  # the complement's complement
        assert_same(b[again], y[~k])
    assert c.scans == 0
    assert_same(K, k)


def test_a_complement_written_before_use_is_scanned(device, rng):
    x = rng.standard_normal(500)
    a = t(x, device)
    M = a > 0
    a[M]
    K = tnp.logical_not(M)
    K[:100] = True
    k = ~(x > 0)
    k[:100] = True
    with Count() as c:
        assert_same(a[K], x[k])
    assert c.scans == 1


def test_logical_not_keeps_its_keywords(device, rng):
    x = rng.standard_normal(40)
    a = t(x, device)
    M = a > 0
    a[M]
    out = tnp.ones(40, dtype=bool, device=device)
    w = t(x > 1, device)
    tnp.logical_not(M, out=out, where=w)
    want = np.ones(40, dtype=bool)
    np.logical_not(x > 0, out=want, where=x > 1)
    assert_same(out, want)
    assert_same(a[out], x[want])

