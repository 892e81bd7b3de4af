"""tegula.numpy indexing against NumPy 2: basic reads (ints, negative ints, slices with steps, None,
Ellipsis) are views sharing memory; basic assignment with broadcasting and casting; overlapping
assignment; advanced indexing (integer and boolean arrays among other indices, every placement rule,
reads and writes, views, dtypes, empty results) with NumPy's exact error types and messages."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import ALL_DTYPES, VIEWS, assert_same, device, random, rng, t  # noqa: F401

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


# ---- advanced indexing: every index form, against NumPy -----------------------------------------
# Keys over a (4, 5, 6) array. Arrays in a key are NumPy arrays here; each test converts them to the
# form under test (tegula arrays, NumPy arrays, nested lists).
I4, I5, I6 = np.array([0, 2, -1, 3, 2]), np.array([4, -5, 1]), np.array([5, 0, -1, -6])
J = np.array([[1], [-2], [3]])  # (3, 1): broadcasts with a (n,) array to (3, n)
ADVANCED_KEYS = {
    "i": (I4,),
    "i_2d": (np.array([[0, 3, -2], [1, 1, -4]]),),
    "i,j": (J, I5),
    "i,j,k": (I4[:4], I5[:1], I6),
    ":,i": (slice(None), I5),
    "...,i": (Ellipsis, I6),
    "i,:,k": (I4, slice(None), np.array([0, 1, 2, 3, 4])),
    "int,i": (1, I5),
    "i,int": (I4, -2),
    "int,:,i": (-1, slice(None), I6),
    "i,:,int": (I4, slice(1, 4), 3),
    ":,int,i": (slice(None), 0, I6),
    "None,i": (None, I4),
    "i,None,j": (I4[:3], None, I5),
    "i,...,j": (I4[:3], Ellipsis, I6[:1]),
    "None,i,...,int": (None, J, Ellipsis, 2),
    "i,None": (I4, None, slice(2, None)),
    "steps,i,steps": (slice(None, None, -2), I5, slice(1, None, 2)),
    "i,reversed": (I4, slice(None, None, -1)),
    "bool0": (np.array([True, False, True, True]),),
    "bool2d": (np.arange(20).reshape(4, 5) % 3 == 0,),
    "bool3d": (np.arange(120).reshape(4, 5, 6) % 7 == 1,),
    ":,bool": (slice(None), np.array([False, True, True, False, True])),
    "bool,int": (np.array([True, False, True, True]), 2),
    "bool,:,i": (np.array([True, False, True, False]), slice(None), I6[:1]),
    "bool2d,i": (np.arange(20).reshape(4, 5) % 4 == 0, I6[1:2]),
    "i,bool2d": (slice(None), np.arange(30).reshape(5, 6) % 11 == 0),
    "empty_bool": (np.zeros(4, bool), 1),
    "True": (True,),
    "False": (False,),
    "True,i": (True, I4),
    "i,True": (I4, True, slice(None)),
    ":,True,i": (slice(None), True, I5),
    "0d": (np.array(2),),
    "0d,:,i": (np.array(-1), slice(None), I6),
    "0d,0d": (np.array(1), np.array(-2)),
    "empty": (np.array([], np.int64),),
    "empty,int": (np.array([], np.int64), 0),
    "empty_2d": (np.zeros((1, 0), np.int64), slice(None), 1),
    "broadcast_empty_skips_checks": (np.array([], np.int64), np.array([9])),
    "uint8": (np.array([3, 0], np.uint8), np.array([4], np.uint16)),
    "uint64_wraps": (np.array([2 ** 64 - 1], np.uint64),),
    "int8": (np.array([-1, 1], np.int8), slice(None), np.array([-6], np.int16)),
}
FORMS = ["tegula", "numpy", "list"]


def _key(key, form, device):
    """key with its arrays as tegula arrays, NumPy arrays or nested lists (0-d ones become ints/bools)."""
    def conv(k):
        if not isinstance(k, np.ndarray):
            return k
        return t(k, device) if form == "tegula" else k if form == "numpy" else k.tolist()
    return tuple(conv(k) for k in key)


def _same_error(np_call, t_call):
    """Both raise: the same exception type with NumPy's exact text."""
    with pytest.raises(Exception) as ref:
        np_call()
    with pytest.raises(type(ref.value)) as got:
        t_call()
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ADVANCED_KEYS)
def test_advanced_read(device, rng, name, form):
    x = rng.standard_normal((4, 5, 6))
    a = t(x, device)
    key = ADVANCED_KEYS[name]
    k = _key(key, form, device)
    got = a[k]
    assert_same(got, x[key])
    if not all(e is None or e is Ellipsis or isinstance(e, slice) or type(e) is int for e in k):
        assert got._base_id != a._base_id  # advanced indexing copies, as NumPy (lists of 0-d ones are ints)


@pytest.mark.parametrize("view", ["negative_step", "transpose", "offset_slice", "step"])
@pytest.mark.parametrize("name", ["i,j", ":,i", "i,:,k", "int,:,i", "bool2d", "i,None,j", "steps,i,steps"])
def test_advanced_read_and_write_of_views(device, rng, name, view):
    base = rng.standard_normal((9, 12, 7))
    b = t(base, device)
    x, a = VIEWS[view](base)[:4, :5, :6], VIEWS[view](b)[:4, :5, :6]  # every key fits a (4, 5, 6) view
    key = ADVANCED_KEYS[name]
    assert_same(a[_key(key, "tegula", device)], x[key])
    vals = rng.standard_normal(x[key].shape)
    if not _unique_positions(x.shape, key):
        vals[...] = 0.5  # repeated positions: one value, so any write order agrees with NumPy's
    a[_key(key, "tegula", device)] = t(vals, device)
    x[key] = vals
    assert_same(b, base)  # the writes went through the view into its base, and nowhere else


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_advanced_read_and_write_every_dtype(device, rng, dtype):
    x = random(rng, (4, 5, 6), dtype)
    a = t(x, device)
    for name in ["i,:,k", "int,i", "bool2d", "i,j,k"]:
        key = ADVANCED_KEYS[name]
        assert_same(a[_key(key, "tegula", device)], x[key])
        vals = random(rng, x[key].shape, dtype)
        x[key] = vals
        a[_key(key, "tegula", device)] = t(vals, device)
        assert_same(a, x)
        x[key] = x.dtype.type(1)
        a[_key(key, "list", device)] = 1
        assert_same(a, x)


def _unique_positions(x_shape, key):
    """Whether key writes no element twice (then NumPy's result is the only possible one)."""
    pos = np.arange(int(np.prod(x_shape))).reshape(x_shape)[key].reshape(-1)
    return len(np.unique(pos)) == len(pos)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ADVANCED_KEYS)
def test_advanced_write(device, rng, name, form):
    key = ADVANCED_KEYS[name]
    x = rng.standard_normal((4, 5, 6))
    shape = x[key].shape
    values = [rng.standard_normal(shape), rng.standard_normal(shape[-1:]), 2.5]
    if any(isinstance(k, np.ndarray) and (k.ndim or form != "list") for k in key):
        values.append(rng.standard_normal((1, 1) + shape))  # extra leading 1s: not yet in basic assignment (C++)
    for value in values:
        if not _unique_positions(x.shape, key) and np.ndim(value):
            value = np.full(shape, 1.5)  # repeated indices: the same value at each, so any write order agrees
        a = t(x, device)

        def np_set():
            x[key] = value

        def t_set():
            a[_key(key, form, device)] = t(value, device) if np.ndim(value) else value
        try:
            np_set()
        except (TypeError, ValueError):  # NumPy's full-mask rules: a 1-D value, or its 0-d/size-1 forms
            _same_error(np_set, t_set)
            continue
        t_set()
        assert_same(a, x)


def test_repeated_indices_one_write_wins(device, rng):
    x = np.zeros(5)
    a = t(x, device)
    a[t(np.array([1, 3, 1, 1]), device)] = t(np.array([10.0, 20.0, 30.0, 40.0]), device)
    got = a.get()
    assert got[1] in (10.0, 30.0, 40.0) and got[3] == 20.0 and got[[0, 2, 4]].tolist() == [0, 0, 0]
    y = rng.standard_normal((3, 4))
    b = t(y, device)
    b[[0, 0], [2, 2]] = t(np.array([5.0, 6.0]), device)
    assert b.get()[0, 2] in (5.0, 6.0)


def test_augmented_assignment_through_advanced_keys(device, rng):
    x = rng.integers(0, 100, (4, 5, 6))
    a = t(x, device)
    for name in ["i,j,k", ":,i", "i,:,int", "bool2d"]:
        key = ADVANCED_KEYS[name]
        if not _unique_positions(x.shape, key):
            continue
        x[key] += 7
        k = _key(key, "tegula", device)
        a[k] += 7
        assert_same(a, x)
        x[key] *= 2
        a[k] *= 2
        assert_same(a, x)


def test_advanced_write_casts_unsafely_like_numpy(device):
    x = np.zeros((3, 4), np.int32)
    a = t(x, device)
    a[[0, 2], [1, 3]] = t(np.array([2.9, -7.6]), device)
    x[[0, 2], [1, 3]] = np.array([2.9, -7.6])
    assert_same(a, x)
    u = t(np.zeros(4, np.uint8), device)
    u[[1, 2]] = t(np.array([258, -1], np.int64), device)  # wraps, as NumPy's setitem
    ref = np.zeros(4, np.uint8)
    ref[[1, 2]] = np.array([258, -1], np.int64)
    assert_same(u, ref)
    b = t(np.zeros((2, 3), bool), device)
    b[[1], [0, 2]] = t(np.array([2.0, 0.0]), device)
    assert_same(b, np.array([[False, False, False], [True, False, False]]))
    with pytest.raises((OverflowError, ValueError)):
        u[[0]] = 300  # a Python int out of range: an error under NEP 50, as in NumPy


def test_advanced_write_of_a_value_sharing_memory(device, rng):
    x = rng.standard_normal((6, 4))
    a = t(x, device)
    a[[5, 4, 3], :] = a[:3]  # the value is a view of the target: read before anything is overwritten
    x[[5, 4, 3], :] = x[:3].copy()
    assert_same(a, x)
    a[:, [1, 0]] = a[:, :2] * 2  # a pending value reading the target
    x[:, [1, 0]] = x[:, :2] * 2
    assert_same(a, x)
    a[[0, 1], [0, 1]] = a[[1, 0], [1, 0]]
    x[[0, 1], [0, 1]] = x[[1, 0], [1, 0]]
    assert_same(a, x)


def test_advanced_writes_keep_earlier_readers(device, rng):
    x = rng.standard_normal((4, 5))
    a = t(x, device)
    y = a * 2  # pending: reads a before the writes below
    z = a[1:] - 1
    a[[0, 2], [1, 3]] = 9.0
    a[:, [4]] = t(np.arange(4.0)[:, None], device)
    a[a.get() > 1.0] = -1.0  # a partial-shape-free mask with one value: the lazy where path
    a[x[:, 0] > 0] = t(np.arange(5.0), device)  # a mask over axis 0 with a row value: the scatter path
    assert_same(y, x * 2)
    assert_same(z, x[1:] - 1)


def test_advanced_index_of_a_pending_array(device, rng):
    x = rng.standard_normal((5, 6))
    a = t(x, device)
    assert_same((a * 3 - 1)[[0, 4], ::-2], (x * 3 - 1)[[0, 4], ::-2])
    idx = t(np.array([3, 1]), device) + 1  # a pending index array
    assert_same(a[idx, idx], x[[4, 2], [4, 2]])


@pytest.mark.parametrize("shape, key", [
    ((0, 3), (slice(None), [1])), ((0, 3), ([], 0)), ((0, 3), ([],)), ((3, 0, 2), ([2, 0], slice(None), [1])),
    ((3, 0, 2), (slice(None), slice(None), [[1]])), ((3, 0), ([1], [])), ((2, 3), (np.zeros((2, 3), bool),)),
    ((0,), (np.zeros(0, bool),)), ((), (True,)), ((), (False,)), ((), (True, None)), ((2, 0), ([[1], [0]], [[]])),
])
def test_advanced_indexing_of_empty_results(device, rng, shape, key):
    x = rng.standard_normal(shape)
    a = t(x, device)
    assert_same(a[key], x[key])
    a[key] = 3.0
    x[key] = 3.0
    assert_same(a, x)


ERROR_KEYS = [
    ([0, 4],), (slice(None), [5]), (Ellipsis, [-7]), (None, [0, 7]), ([0, 9], [7, 0]), ([[0, 1], [9, 0]],),
    ([0, 1], 9), (-5, [0]), ([0, 1], [0, 1, 2]), ([[0, 1], [1, 0]], [0, 1, 2]), ([[0]], [[1, 2, 3]], [1, 2]),
    (np.array([0.5]),), (np.array([1, 2]), np.array([0.0])), ([0.5],), ([0, 1], 1.5), ([1, None],), ([0], "a"),
    (np.array([True, False, True]),), (slice(None), np.ones(4, bool)), (np.ones((4, 6), bool),),
    ([0, 1], [0, 1], [0, 1], [0]), ([0], Ellipsis, Ellipsis), (False, [0, 1]), (9, np.zeros(7, bool)),
    ([[1], [0, 1]],), (np.array([2 ** 63], np.uint64),), (np.zeros(3, bool), 9),
]


@pytest.mark.parametrize("key", ERROR_KEYS, ids=repr)
def test_advanced_index_errors_match_numpy(device, key):
    x = np.zeros((4, 5, 6))
    a = t(x, device)
    _same_error(lambda: x[key], lambda: a[_key(key, "tegula", device)])
    _same_error(lambda: x[key], lambda: a[key])

    def np_set():
        x[key] = 1.0

    def t_set():
        a[_key(key, "tegula", device)] = 1.0
    _same_error(np_set, t_set)


@pytest.mark.parametrize("key, value", [
    (([0, 1], [0, 1]), np.ones(3)), (([0, 1], slice(None)), np.ones(2)), (([0, 1], slice(None)), np.ones((2, 2))),
    ((slice(None), [0, 1]), np.ones(3)), ((np.arange(6).reshape(2, 3) > 2, None), np.ones(5)),
    ((np.array([True, False]),), np.ones(2)), (([0, 1], [0, 1]), np.ones((1, 1, 3))),
    ((np.arange(6).reshape(2, 3) > 2,), np.ones(5)), ((np.arange(6).reshape(2, 3) > 2,), np.ones(2)),
    ((np.arange(6).reshape(2, 3) > 2,), np.ones((3, 1))), ((np.arange(6).reshape(2, 3) > 2,), np.ones((1, 1))),
    ((np.arange(6).reshape(2, 3) > 10,), np.ones(5)), ((np.array(0),), np.ones(4)),
])
def test_advanced_assignment_errors_match_numpy(device, key, value):
    x = np.arange(6.0).reshape(2, 3)
    a = t(x, device)

    def np_set():
        x[key] = value

    def t_set():
        a[_key(key, "tegula", device)] = t(value, device)
    _same_error(np_set, t_set)
    assert_same(a, x)  # nothing was written


@pytest.mark.parametrize("key, value", [
    ((np.arange(6).reshape(2, 3) > 2,), np.arange(3.0)), ((np.arange(6).reshape(2, 3) > 2,), np.ones(1) * 4),
    ((np.arange(6).reshape(2, 3) > 10,), np.ones(0)), ((np.arange(6).reshape(2, 3) > 2, None), np.ones((3, 1))),
    ((np.array([True, False]),), np.arange(3.0)), ((np.array([False, True]),), np.arange(3.0)[None]),
    ((np.array(1), np.array(-1)), 7.0), ((np.array(1),), np.arange(3.0)), ((np.array([True, False]), [0, 2]), 2.0),
])
def test_boolean_and_0d_assignment_forms(device, key, value):
    x = np.arange(6.0).reshape(2, 3)
    a = t(x, device)
    for form in FORMS:
        x[key] = value
        a[_key(key, form, device)] = t(value, device) if np.ndim(value) else value
        assert_same(a, x)
        x += 1
        a += 1


def test_bool_scalar_keys_are_boolean_indices(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    assert_same(a[True], x[True])
    assert_same(a[False], x[False])
    assert_same(a[np.True_, 1], x[np.True_, 1])
    a[True] = 5.0  # writes everything (x[None] = 5), not row 1
    x[True] = 5.0
    assert_same(a, x)
    a[False] = 1.0
    assert_same(a, x)


def test_0d_integer_array_reads_copy(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    for i in (np.array(1), t(np.array(-1), device)):
        r = a[i]
        assert_same(r, x[int(i)])
        assert r._base_id != a._base_id  # NumPy: a 0-d integer array index gives a copy
    a[np.array(2)] = 3.0
    x[2] = 3.0
    assert_same(a, x)


@pytest.mark.parametrize("n", [0, 1, 4 * 4096 - 1, 4 * 4096, 5 * 4096 + 17])
def test_boolean_compaction_of_long_arrays(device, rng, n):
    # long inputs scan rows in parallel, then the tail: every split point against NumPy
    x = rng.standard_normal(n)
    m = rng.random(n) < 0.3
    a = t(x, device)
    assert_same(a[t(m, device)], x[m])
    assert_same(tnp.flatnonzero(t(m, device)), np.flatnonzero(m))
    a[t(m, device)] = t(np.arange(m.sum(), dtype=np.float64), device)
    x[m] = np.arange(m.sum())
    assert_same(a, x)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("idx", [[0, 5, -7, 2], np.array([[1, -1], [9, 3]]), 1, 7, -13], ids=str)
def test_take_modes(device, axis, mode, idx):
    """np.take with mode 'wrap' (modulo the axis length) and 'clip' (clamped; negatives to 0), from host and device
    indices; 'raise' raises NumPy's IndexError for an index out of range."""
    x = np.arange(24.0).reshape(2, 3, 4)
    forms = [idx] + ([t(np.asarray(idx), device)] if np.ndim(idx) else [])
    for ix in forms:
        try:
            want = np.take(x, idx, axis=axis, mode=mode)
        except IndexError:
            _same_error(lambda: np.take(x, idx, axis=axis, mode=mode),
                        lambda: tnp.take(t(x, device), ix, axis=axis, mode=mode))
            continue
        got = tnp.take(t(x, device), ix, axis=axis, mode=mode).get()
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_take_and_compress_bad_input(device):
    x = t(np.ones(3), device)
    _same_error(lambda: np.take(np.ones(3), [0], axis=2), lambda: tnp.take(x, [0], axis=2))
    _same_error(lambda: np.take(np.ones(3), [0], mode="bad"), lambda: tnp.take(x, [0], mode="bad"))
    _same_error(lambda: np.take(np.ones(0), [1], mode="wrap"), lambda: tnp.take(t(np.ones(0), device), [1], mode="wrap"))
    _same_error(lambda: np.compress([True], np.ones(3), axis=2), lambda: tnp.compress(t([True], device), x, axis=2))
