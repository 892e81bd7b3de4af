"""tegula.numpy indexing against NumPy 2: basic reads (ints, negative ints, slices with steps, None,
Ellipsis) are views sharing memory; basic assignment with broadcasting and casting; overlapping
assignment; boolean masks (x[mask] = v and x[mask]); integer arrays on the first axis; IndexError messages."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import ALL_DTYPES, assert_same, device, random, rng, t  # noqa: F401

KEYS = [
    1, -1, -3, slice(None), slice(1, None), slice(None, None, 2), slice(None, None, -1), slice(-2, None, -2),
    slice(10, -10, -3), slice(2, 2), slice(-100, 100), (0, 1), (-1, -2, -3), (slice(None), 2), (Ellipsis, 1),
    (1, Ellipsis), (None, 0), (slice(None), None, slice(1, 3)), (Ellipsis, None), (0, slice(None, None, -2), None, 1),
    Ellipsis, (), (slice(1, 3), slice(None, None, 3), slice(-1, None)), (None, Ellipsis, None), np.int64(2),
    (np.int32(-1), slice(np.int64(1), None)), None,
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_basic_read(device, rng, key):
    x = rng.standard_normal((4, 5, 6))
    a = t(x, device)
    got, ref = a[key], x[key]
    assert_same(got, ref)
    assert got._base_id == a._base_id  # a view, never a copy


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_basic_read_of_a_view(device, rng, key):
    x = rng.standard_normal((9, 6, 7))
    v_np = x[::2, ::-1].transpose(0, 2, 1)
    v = t(x, device)[::2, ::-1].transpose(0, 2, 1)
    assert_same(v[key], v_np[key])


def test_integer_index_gives_a_0d_array(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    r = a[1, 2]
    assert isinstance(r, tnp.ndarray) and r.shape == ()
    assert float(r) == x[1, 2]
    assert a[-1, -1].item() == x[-1, -1]
    i = t(np.arange(5, dtype=np.uint16), device)
    assert int(i[3]) == 3 and i[3].dtype == np.uint16
    assert_same(t(7.5, device)[()], np.asarray(7.5)[()])
    assert_same(t(7.5, device)[...], np.asarray(7.5)[...])
    assert_same(t(7.5, device)[None], np.asarray(7.5)[None])


def test_index_errors(device):
    x = np.arange(12.0).reshape(3, 4)
    a = t(x, device)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[3]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        a[3]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        a[0, -5]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        a[:, 4]
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        a[0, 0, 0]
    with pytest.raises(IndexError, match="an index can only have a single ellipsis"):
        a[..., ...]
    with pytest.raises(IndexError):
        t(5.0, device)[0]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        a[3] = 1.0
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        a[::0]
    with pytest.raises(IndexError):
        a[1.5]


def test_views_share_memory(device, rng):
    x = rng.standard_normal((5, 6))
    a = t(x, device)
    v = a[1:, ::2]
    w = v.T
    w[0, 1] = 7.0
    x[1:, ::2].T[0, 1] = 7.0
    assert_same(a, x)
    v[...] = -1.0
    x[1:, ::2] = -1.0
    assert_same(a, x)
    r = a[::-1, ::-1]
    r[0, 0] = 42.0
    x[::-1, ::-1][0, 0] = 42.0
    assert_same(a, x)
    e = a[None, 2, ..., None]
    e[0, 3, 0] = 3.5
    x[2, 3] = 3.5
    assert_same(a, x)
    a[2][1] = 9.0  # chained indexing writes through
    x[2][1] = 9.0
    assert_same(a, x)
    b = tnp.broadcast_to(a[0], (3, 6))
    assert_same(b, np.broadcast_to(x[0], (3, 6)))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_basic_assignment(device, rng, dtype):
    x = random(rng, (4, 5), dtype)
    a = t(x, device)
    vals = random(rng, (5,), dtype)
    for key, value in [((1,), 1), ((slice(None), 2), 0), ((slice(None, None, 2),), t(vals, device)),
                       ((Ellipsis, slice(None, None, -2)), True), ((-1, slice(1, 4)), t(vals[:3], device)),
                       ((slice(1, 3), slice(None)), t(vals, device)[::-1]), ((None, 0), t(vals[None], device))]:
        x[key] = value.get() if isinstance(value, tnp.ndarray) else value
        a[key] = value
        assert_same(a, x)


def test_assignment_casts_like_numpy(device):
    x = np.zeros(4, np.int32)
    a = t(x, device)
    a[0] = 2.9
    a[1] = -1.5
    a[2:] = t(np.array([3.7, -8.2]), device)
    x[0], x[1], x[2:] = 2.9, -1.5, np.array([3.7, -8.2])
    assert_same(a, x)
    u = t(np.zeros(3, np.uint8), device)
    u[0] = t(np.array(258, np.int32), device)  # unsafe cast wraps, as NumPy
    ref = np.zeros(3, np.uint8)
    ref[0] = np.array(258, np.int32)
    assert_same(u, ref)
    f = t(np.zeros(3, np.float16), device)
    f[1] = 1 / 3
    assert_same(f, np.array([0, 1 / 3, 0], np.float16))
    b = t(np.zeros(3, bool), device)
    b[0] = 5
    b[1] = 0.0
    assert_same(b, np.array([True, False, False]))
    a[3] = np.float32(4.5)
    a[0] = np.int64(-7)
    x[3], x[0] = np.float32(4.5), np.int64(-7)
    assert_same(a, x)


def test_assignment_from_numpy_and_lists(device):
    x = np.zeros((3, 4))
    a = t(x, device)
    a[0] = [1, 2, 3, 4]
    a[1:] = np.arange(8.0).reshape(2, 4)
    a[:, 0] = (9, 8, 7)
    x[0] = [1, 2, 3, 4]
    x[1:] = np.arange(8.0).reshape(2, 4)
    x[:, 0] = (9, 8, 7)
    assert_same(a, x)


def test_assignment_shape_errors(device):
    x = np.zeros((3, 4))
    a = t(x, device)
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) into shape \(4,\)"):
        x[0] = np.ones(3)
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) into shape \(4,\)"):
        a[0] = t(np.ones(3), device)
    with pytest.raises(ValueError, match="could not broadcast"):
        a[:2] = t(np.ones((3, 4)), device)
    with pytest.raises((OverflowError, ValueError)):
        t(np.zeros(3, np.uint8), device)[0] = 300


def test_overlapping_assignment(device, rng):
    x = rng.standard_normal(10)
    a = t(x, device)
    a[1:] = a[:-1]
    x[1:] = x[:-1]
    assert_same(a, x)
    a[:-2] = a[2:]
    x[:-2] = x[2:]
    assert_same(a, x)
    a[:] = a[::-1]
    x[:] = x[::-1]
    assert_same(a, x)
    y = rng.standard_normal((4, 4))
    b = t(y, device)
    b[...] = b.T
    y[...] = y.T.copy()
    assert_same(b, y)
    b[1:] += b[:-1]
    y[1:] += y[:-1]
    assert_same(b, y)
    b[:, ::-1] -= b
    y[:, ::-1] -= y.copy()
    assert_same(b, y)


@pytest.mark.parametrize("dtype", ["float64", "int16", "uint8", "bool", "float16"])
def test_boolean_mask_assignment(device, rng, dtype):
    x = random(rng, (4, 6), dtype)
    a = t(x, device)
    m = rng.random((4, 6)) < 0.4
    a[t(m, device)] = 1
    x[m] = 1
    assert_same(a, x)
    a[a == 0] = 0 if dtype == "bool" else 2
    x[x == 0] = 0 if dtype == "bool" else 2
    assert_same(a, x)
    mask = np.zeros((4, 6), bool)
    mask[1, ::2] = True  # 3 elements: 5 values do not fit
    five = random(rng, (5,), dtype)
    with pytest.raises(ValueError, match="boolean array indexing assignment cannot assign 5 input values"):
        x[mask] = five
    with pytest.raises(ValueError):
        a[t(mask, device)] = t(five, device)


def test_boolean_mask_assignment_through_a_view(device, rng):
    x = rng.standard_normal((6, 8))
    a = t(x, device)
    v = a[::2, 1::3]
    v[v > 0] = 0.0
    x[::2, 1::3][x[::2, 1::3] > 0] = 0.0
    assert_same(a, x)
    a[tnp.isnan(a)] = 1.0  # no NaNs: a no-op
    assert_same(a, x)


def test_boolean_mask_assignment_of_compacted_values(device, rng):
    x = rng.standard_normal(10)
    m = x > 0
    vals = np.arange(m.sum(), dtype=np.float64) + 100
    a = t(x, device)
    a[t(m, device)] = t(vals, device)
    x[m] = vals
    assert_same(a, x)


def test_boolean_mask_read(device, rng):
    x = rng.standard_normal((4, 5))
    a = t(x, device)
    m = x > 0.3
    assert_same(a[t(m, device)], x[m])
    assert_same(a[a > 10], x[x > 10])
    assert_same(a[::-1][t(m, device)], x[::-1][m])


def test_integer_array_index_on_the_first_axis(device, rng):
    x = rng.standard_normal((5, 3))
    a = t(x, device)
    idx = np.array([4, 0, -1, 2, 2])
    assert_same(a[t(idx, device)], x[idx])
    assert_same(a[[1, 3]], x[[1, 3]])
    y = x.copy()
    b = t(y, device)
    b[t(np.array([0, 3]), device)] = -1.0
    y[[0, 3]] = -1.0
    assert_same(b, y)
    with pytest.raises(IndexError, match="out of bounds"):
        a[t(np.array([5]), device)]


def test_getitem_of_pending_array(device, rng):
    x = rng.standard_normal((4, 4))
    a = t(x, device)
    y = a * 3 - 1
    assert_same(y[1:3, ::-1], (x * 3 - 1)[1:3, ::-1])
    assert float(y[2, 1]) == (x * 3 - 1)[2, 1]


def test_iteration_and_len(device, rng):
    x = rng.standard_normal((3, 2))
    a = t(x, device)
    rows = list(a)
    assert len(rows) == 3
    for r, ref in zip(rows, x):
        assert_same(r, ref)
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(t(1.0, device))
