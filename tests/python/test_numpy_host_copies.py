"""Small arrays uploaded from the host keep a host copy: reads back of memory unwritten since the upload come from it
(no synchronisation), any write drops it, and uploaded integer arrays know their bounds (index arrays taken from
them skip the bounds check). spmv (NPBench) reads two row bounds per row and gathers x[cols] with no read back."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import _host_copies, _indexing, _value_ranges
from numpy_util import assert_same, device, rng, t  # noqa: F401


def spmv(np_, A_row, A_col, A_val, x):
    """NPBench's spmv, as written there."""
    y = np_.empty(A_row.size - 1, A_val.dtype)
    for i in range(A_row.size - 1):
        cols = A_col[A_row[i]:A_row[i + 1]]
        vals = A_val[A_row[i]:A_row[i + 1]]
        y[i] = vals @ x[cols]
    return y


def known(a):
    return _host_copies.read(a, np.dtype(a.dtype)) is not None


def test_reads_of_an_upload_come_from_its_copy(device, rng):
    x = rng.integers(-50, 50, (7, 9)).astype(np.int32)
    a = t(x, device)
    assert _value_ranges.bounds(a) == (x.min(), x.max())  # from the upload
    assert known(a) and known(a[2]) and known(a[::-2, 1:])
    assert int(a[3, 4]) == x[3, 4]
    assert_same(a[::-2, ::-3].get(), x[::-2, ::-3])
    assert a[1:3, 2:5].tolist() == x[1:3, 2:5].tolist()
    x[0, 0] = 999  # the caller's array is theirs: the copy was taken at the upload
    assert int(a[0, 0]) != 999
    got = a.get()
    got[1, 1] = 12345  # a read back is the caller's too
    assert int(a[1, 1]) == x[1, 1]


def _write_by_setitem(np_, a):
    a[0, 0] = 7


def _write_by_out(np_, a):
    np_.add(a, 1, out=a)


def _write_by_inplace(np_, a):
    a += 3


def _write_through_view(np_, a):
    v = a[1:]
    v[0, 0] = -4


def _write_by_kernel_argument(np_, a):
    a[np_.asarray(np.array([[0, 1], [1, 2]]), device=a.device) if np_ is tnp else np.array([[0, 1], [1, 2]])] = 5


@pytest.mark.parametrize("write", [_write_by_setitem, _write_by_out, _write_by_inplace, _write_through_view,
                                   _write_by_kernel_argument])
def test_any_write_drops_the_copy(write, device, rng):
    x = rng.integers(0, 9, (4, 5)).astype(np.int64)
    a = t(x, device)
    want = x.copy()
    assert known(a)
    write(tnp, a)
    assert not known(a) and not known(a[2])
    assert _value_ranges.bounds(a) is None
    write(np, want)
    assert_same(a, want)
    assert int(a[0, 0]) == want[0, 0]


def test_an_exported_array_keeps_no_copy(rng):
    a = t(np.arange(12), "cpu")
    host = np.from_dlpack(a)  # another library may write it from now on, unseen
    host[5] = -1
    assert not known(a)
    assert int(a[5]) == -1


def test_large_uploads_keep_no_copy(device):
    a = tnp.asarray(np.zeros(_host_copies._MAX_BYTES // 8 + 1), device=device)
    assert not known(a)
    s = tnp.asarray(np.float64(3.5), device=device)  # a 0-d upload either
    assert not known(s) and float(s) == 3.5


def test_spmv_reads_nothing_back_and_checks_no_bounds(rng):  # np.empty: the default device
    sp = pytest.importorskip("scipy.sparse")
    m = sp.random(60, 50, density=0.08, format="csr", dtype=np.float64, random_state=int(rng.integers(1 << 30)))
    x = rng.random(50)
    want = spmv(np, m.indptr, m.indices, m.data, x)
    args = [tnp.asarray(v) for v in (m.indptr, m.indices, m.data, x)]
    checks, reads = [0], [0]
    or_all, to_host = _indexing._or_all, _host_copies.read

    def counted_or_all(xs):
        checks[0] += 1
        return or_all(xs)

    def counted_read(a, dtype):
        got = to_host(a, dtype)
        reads[0] += got is None
        return got

    _indexing._or_all, _host_copies.read = counted_or_all, counted_read
    try:
        got = spmv(tnp, *args)
    finally:
        _indexing._or_all, _host_copies.read = or_all, to_host
    assert_same(got, want, rtol=1e-12)
    assert checks[0] == 0 and reads[0] == 0, (checks, reads)
