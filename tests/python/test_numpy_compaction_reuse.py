"""A repeat of x[mask] whose earlier result nothing holds any more takes that result's memory instead of compacting
again (_indexing._COMPACTED: mandelbrot2's Xi[I], Yi[I] twice per iteration), and only then: a held result, a view
of it, a write into it or into x, or another mask each give a new compaction with NumPy's values."""
import numpy as np

import tegula.numpy as tnp


def setup():
    rng = np.random.default_rng(11)
    hx = rng.integers(0, 1000, 5000)
    hm = rng.random(5000) > 0.4
    return hx, hm, tnp.asarray(hx), tnp.asarray(hm)


def test_a_dropped_result_is_taken_again():
    hx, hm, x, m = setup()
    a = x[m]
    first = a._base_id
    del a
    b = x[m]
    assert b._base_id == first
    np.testing.assert_array_equal(b.get() if hasattr(b, "get") else np.asarray(b), hx[hm])


def test_held_viewed_or_written_results_are_not_taken():
    hx, hm, x, m = setup()
    a = x[m]
    b = x[m]  # a is held
    assert a._base_id != b._base_id
    np.testing.assert_array_equal(np.asarray(b), hx[hm])
    c = x[m]
    v = c[1:]
    del c
    d = x[m]
    d[1] = -7
    assert int(v[0]) == hx[hm][1]  # the view still sees c's own memory
    e = x[m]
    e[0] = -1
    del e
    f = x[m]
    np.testing.assert_array_equal(np.asarray(f), hx[hm])
    del a, b, d, f


def test_a_write_into_x_or_another_mask_compacts_again():
    hx, hm, x, m = setup()
    a = x[m]
    del a
    x[0] = 12345
    hx[0] = 12345
    np.testing.assert_array_equal(np.asarray(x[m]), hx[hm])
    m2 = ~m
    np.testing.assert_array_equal(np.asarray(x[m2]), hx[~hm])
    z = (x * 2)[m]  # pending x: never kept
    np.testing.assert_array_equal(np.asarray(z), (hx * 2)[hm])


def test_sole_owner_sees_views_pending_readers_and_pending_arrays():
    a = tnp.asarray(np.arange(10.0))
    assert a._sole_owner
    v = a[2:]
    assert not a._sole_owner and not v._sole_owner  # one memory, two arrays
    del v
    assert a._sole_owner
    p = a * 2.0  # a pending reader of a
    assert not p._sole_owner
    assert not a._sole_owner
    p._materialize()
    del p
    assert a._sole_owner


def test_large_results_are_not_kept():
    from tegula.numpy import _indexing

    n = (_indexing._COMPACTED_MAX_BYTES // 8) + 1024
    x = tnp.zeros(n)
    m = tnp.ones(n, dtype=bool)
    a = x[m]
    assert all(e[2] is not a for e in _indexing._COMPACTED)
