"""tegula.numpy creation functions against NumPy 2: array/asarray (arrays, lists, scalars, dtype=),
empty/zeros/ones/full and their *_like forms, arange, linspace, eye/identity/tri, array attributes."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import ALL_DTYPES, SHAPES, assert_same, device, random, rng, t  # noqa: F401


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_asarray_roundtrips_every_dtype_and_shape(device, rng, dtype, shape):
    x = random(rng, shape, dtype)
    a = t(x, device)
    assert isinstance(a, tnp.ndarray)
    assert a.shape == x.shape and a.ndim == x.ndim and a.size == x.size
    assert a.dtype == x.dtype and a.itemsize == x.itemsize and a.nbytes == x.nbytes
    if x.size:
        assert a.strides == x.strides  # a copy of host data is C-contiguous
    assert_same(a, x)
    assert_same(tnp.asnumpy(a), x)
    np.testing.assert_array_equal(np.asarray(a), x)


def test_asarray_of_extreme_values(device):
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        info = np.iinfo(dtype)
        x = np.array([info.min, info.max, 0, 1], dtype=dtype)
        assert_same(t(x, device), x)
    for dtype in ("float16", "float32", "float64"):
        fi = np.finfo(dtype)
        x = np.array([fi.max, fi.min, fi.tiny, fi.smallest_subnormal, -0.0, np.inf, -np.inf, np.nan], dtype=dtype)
        a = t(x, device).get()
        np.testing.assert_array_equal(a, x)
        assert np.signbit(a[4])


def test_asarray_of_non_contiguous_numpy_input(device, rng):
    x = rng.standard_normal((6, 8))
    for v in (x[::2], x[:, ::-3], x.T, x[1:5, 2:7], np.broadcast_to(x[0], (3, 8))):
        assert_same(t(v, device), v)


@pytest.mark.parametrize("obj", [
    [1, 2, 3], [1.0, 2, 3], [True, False, True], [[1, 2], [3, 4], [5, 6]], [[1.5], [2.5]], 3, 2.5, True, [],
    [[[1, 2, 3]], [[4, 5, 6]]], (1, 2), [np.int8(3), np.int8(4)],
], ids=repr)
def test_asarray_of_python_objects_gives_numpys_dtype(device, obj):
    assert_same(t(obj, device), np.asarray(obj))
    assert_same(tnp.array(obj, device=device), np.array(obj))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", np.int32,
                                   np.dtype("uint8"), tnp.float32, float, int, bool], ids=str)
def test_asarray_dtype_argument(device, dtype):
    obj = [[0, 1, 2], [3, 4, 5]]
    assert_same(tnp.asarray(obj, dtype=dtype, device=device), np.asarray(obj, dtype=dtype))
    assert_same(tnp.array(obj, dtype=dtype, device=device), np.array(obj, dtype=dtype))
    x = np.array([[0.5, 1.75, -2.25]])
    assert_same(tnp.asarray(x, dtype=dtype, device=device), np.asarray(x, dtype=dtype))


def test_asarray_casts_a_tegula_array(device, rng):
    x = rng.standard_normal((4, 3)) * 10
    a = t(x, device)
    for dtype in ("float32", "int32", "uint8", "bool", "float16"):
        with np.errstate(invalid="ignore"):
            expected = x.astype(dtype) if dtype != "uint8" else np.abs(x).astype(dtype)
        src = a if dtype != "uint8" else tnp.abs(a)
        assert_same(tnp.asarray(src, dtype=dtype), expected)


def test_numpy_scalars_become_0d_arrays_of_their_dtype(device):
    for s in (np.float32(2.5), np.int8(-3), np.uint64(2**63 + 5), np.bool_(True), np.float16(0.1)):
        assert_same(t(s, device), np.asarray(s))


def test_asarray_of_a_tegula_array_shares_and_array_copies(device, rng):
    x = rng.standard_normal(5)
    a = t(x, device)
    same = tnp.asarray(a)
    assert same is a
    copied = tnp.array(a)
    view = tnp.array(a, copy=False)
    a[0] = 42.0
    assert float(same[0]) == 42.0 and float(view[0]) == 42.0
    assert float(copied[0]) == x[0]
    c2 = tnp.asarray(a, copy=True)
    a[1] = -1.0
    assert float(c2[1]) == x[1]


def test_array_ndmin(device):
    assert_same(tnp.array([1, 2], ndmin=3, device=device), np.array([1, 2], ndmin=3))
    assert_same(tnp.array(5.0, ndmin=2, device=device), np.array(5.0, ndmin=2))


def test_unsupported_dtypes_raise():
    with pytest.raises(TypeError):
        tnp.asarray(np.array(["a", "b"]))
    with pytest.raises(TypeError):
        tnp.zeros(3, dtype="datetime64[s]")


@pytest.mark.parametrize("shape", [(), 0, 5, (0,), (3, 7), (2, 0, 5), (2, 3, 1, 4), [2, 3]], ids=str)
@pytest.mark.parametrize("dtype", [None, "bool", "int8", "uint32", "int64", "float16", "float32"])
def test_zeros_ones_empty(device, shape, dtype):
    assert_same(tnp.zeros(shape, dtype, device=device), np.zeros(shape, dtype))
    assert_same(tnp.ones(shape, dtype, device=device), np.ones(shape, dtype))
    e = tnp.empty(shape, dtype, device=device)
    ref = np.empty(shape, dtype)
    assert e.shape == ref.shape and e.dtype == ref.dtype


@pytest.mark.parametrize("fill", [3, -2, 2.5, True, np.float32(1.5), np.int16(-7), np.nan, np.inf], ids=repr)
@pytest.mark.parametrize("dtype", [None, "float32", "int16", "uint8", "float64", "bool"])
def test_full(device, fill, dtype):
    if dtype in ("int16", "uint8") and isinstance(fill, float) and not np.isfinite(fill):
        pytest.skip("NumPy refuses a non-finite fill for integer dtypes")
    if dtype == "uint8" and type(fill) is int and fill < 0:
        with pytest.raises((OverflowError, ValueError)):
            np.full((2, 3), fill, dtype)
        with pytest.raises((OverflowError, ValueError)):
            tnp.full((2, 3), fill, dtype, device=device)
        return
    with np.errstate(invalid="ignore"):
        expected = np.full((2, 3), fill, dtype)
    assert_same(tnp.full((2, 3), fill, dtype, device=device), expected)
    assert_same(tnp.full((), fill, dtype, device=device), np.full((), fill, dtype))


def test_full_with_an_array_fill_broadcasts(device):
    row = np.arange(4.0)
    assert_same(tnp.full((3, 4), t(row, device)), np.full((3, 4), row))


@pytest.mark.parametrize("src_dtype", ["bool", "int8", "uint64", "float16", "float64"])
def test_like_functions(device, rng, src_dtype):
    x = random(rng, (3, 4), src_dtype)
    a = t(x, device)
    assert_same(tnp.zeros_like(a), np.zeros_like(x))
    assert_same(tnp.ones_like(a), np.ones_like(x))
    assert_same(tnp.full_like(a, 7), np.full_like(x, 7))
    assert_same(tnp.zeros_like(a, dtype="float32"), np.zeros_like(x, dtype="float32"))
    assert_same(tnp.ones_like(a, shape=(2, 5)), np.ones_like(x, shape=(2, 5)))
    assert_same(tnp.full_like(a, 1.75, dtype="float64"), np.full_like(x, 1.75, dtype="float64"))
    e = tnp.empty_like(a)
    assert e.shape == x.shape and e.dtype == x.dtype
    assert tnp.zeros_like(a).device == a.device


def test_full_like_casts_the_fill_to_the_arrays_dtype(device):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert_same(tnp.full_like(t(x, device), 2.9), np.full_like(x, 2.9))
    assert_same(tnp.full_like(t(x, device), True), np.full_like(x, True))


def test_like_functions_of_a_view(device, rng):
    x = rng.standard_normal((4, 6))
    v = t(x, device)[::2, ::-3].T
    assert_same(tnp.ones_like(v), np.ones_like(x[::2, ::-3].T))


@pytest.mark.parametrize("args,kw", [
    ((10,), {}), ((2, 11, 3), {}), ((10, 0, -2), {}), ((0,), {}), ((5, 1), {}), ((0, 1, 0.1), {}),
    ((-3.5, 4.0, 0.75), {}), ((5,), {"dtype": "float32"}), ((7,), {"dtype": "uint8"}), ((1, 8, 2), {"dtype": "int16"}),
    ((3.0,), {}), ((np.int32(2), np.int32(9)), {}),
], ids=str)
def test_arange(device, args, kw):
    assert_same(tnp.arange(*args, **kw, device=device), np.arange(*args, **kw))


@pytest.mark.parametrize("args,kw", [
    ((0, 1), {}), ((0, 1, 7), {}), ((-2.5, 3, 11), {"endpoint": False}), ((1, 1, 4), {}), ((0, 10, 1), {}),
    ((0, 10, 0), {}), ((0, 5, 6), {"dtype": "float32"}), ((0, 10, 5), {"dtype": "int64"}), ((5, -5, 9), {}),
    ((-5, 0, 4), {"dtype": "int32"}), ((0, 1, 5), {"dtype": "float16"}),
], ids=str)
def test_linspace(device, args, kw):
    assert_same(tnp.linspace(*args, **kw, device=device), np.linspace(*args, **kw))


def test_linspace_retstep(device):
    a, step = tnp.linspace(0, 3, 7, retstep=True, device=device)
    b, ref = np.linspace(0, 3, 7, retstep=True)
    assert_same(a, b)
    assert step == ref


@pytest.mark.parametrize("args,kw", [
    ((3,), {}), ((4, 6), {}), ((5, 3), {}), ((4,), {"k": 1}), ((4, 5), {"k": -2}), ((3,), {"k": 5}),
    ((0,), {}), ((3,), {"dtype": "int32"}), ((2, 3), {"dtype": bool}),
], ids=str)
def test_eye(device, args, kw):
    assert_same(tnp.eye(*args, **kw, device=device), np.eye(*args, **kw))


def test_identity_and_tri(device):
    assert_same(tnp.identity(4, device=device), np.identity(4))
    assert_same(tnp.identity(3, dtype="int8", device=device), np.identity(3, dtype="int8"))
    assert_same(tnp.tri(3, 5, 1, device=device), np.tri(3, 5, 1))


def test_meshgrid(device):
    x, y = np.arange(3.0), np.arange(4.0) * 2
    for indexing in ("xy", "ij"):
        got = tnp.meshgrid(t(x, device), t(y, device), indexing=indexing)
        for g, r in zip(got, np.meshgrid(x, y, indexing=indexing)):
            assert_same(g, r)


def test_device_and_attributes(device):
    a = tnp.zeros((2, 3), device=device)
    assert a.device == (tnp.Device("cpu") if device == "cpu" else tnp.Device("cuda", 0))
    assert len(a) == 2
    assert a.T.shape == (3, 2)
    assert a.mT.shape == (3, 2)
    with pytest.raises(TypeError, match="len"):
        len(tnp.zeros((), device=device))
    assert tnp.shape(a) == (2, 3) and tnp.ndim(a) == 2 and tnp.size(a) == 6 and tnp.size(a, 1) == 3


def test_negative_dimensions_raise_value_error(device):
    with pytest.raises(ValueError, match="negative dimensions"):
        np.zeros((2, -1))
    with pytest.raises(ValueError, match="negative dimensions"):
        tnp.zeros((2, -1), device=device)
    with pytest.raises(ValueError, match="negative dimensions"):
        tnp.empty(-3, device=device)


def test_to_device_and_copy(device, rng):
    x = rng.standard_normal((3, 2))
    a = t(x, device)
    c = a.to_device("cpu")
    assert c.device == tnp.Device("cpu")
    assert_same(c, x)
    d = a.copy()
    a[...] = 0
    assert_same(d, x)
    assert_same(tnp.copy(d), x)


def test_scalar_conversions(device):
    assert float(t(2.5, device)) == 2.5
    assert int(t(np.int16(-7), device)) == -7
    assert bool(t(True, device)) is True
    assert t([[3]], device).item() == 3
    assert t(np.arange(6).reshape(2, 3), device).item(4) == 4
    assert t(np.arange(6).reshape(2, 3), device).tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="size 1"):
        t([1, 2], device).item()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t([1, 2], device))
    assert [1, 2, 3][t(np.int64(1), device)] == 2
    with pytest.raises(TypeError):
        [1, 2, 3][t(1.0, device)]


@pytest.mark.parametrize("dtype", ["float32", np.float32, np.dtype("int8"), float, int, bool, tnp.float16, "uint16"],
                         ids=str)
def test_astype_takes_any_dtype_spelling(device, rng, dtype):
    x = rng.standard_normal((3, 4)) * 5
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)  # negative floats into unsigned integers are undefined in C (and platform-specific in NumPy)
    with np.errstate(invalid="ignore"):
        assert_same(t(x, device).astype(dtype), x.astype(dtype))
        assert_same(t(x, device)[::2, ::-1].astype(dtype), x[::2, ::-1].astype(dtype))


def test_astype_copies_unless_copy_false(device):
    x = np.array([-0.0, 1.0, np.nan])
    a = t(x, device)
    b = a.astype("float64")
    b[1] = 5.0
    assert_same(a, x)
    assert np.signbit(b.get()[0])
    c = a.astype(np.float64, copy=False)
    assert c is a
    flags = t(np.array([True, False]), device).astype(bool)
    assert_same(flags, np.array([True, False]))


# ---- memory order (order='C'/'F'/'A'/'K') --------------------------------------------------------------
ORDERS = ["C", "F", "A", "K"]


def layouts(rng, dtype, device):
    """(NumPy array, tegula array) pairs of one set of values in many memory orders: C, F, permuted axes,
    steps, negative steps, a broadcast, F with a step, extent-1 axes; the tegula side made the same way."""
    base = random(rng, (4, 6, 5), dtype)
    nb, tb = base, t(base, device)
    f = np.asfortranarray(base[:2, :3])
    pairs = {
        "C": (np.ascontiguousarray(nb[:2, :3]), tb[:2, :3]._contiguous()),
        "F": (f, tnp.asfortranarray(t(base[:2, :3], device))),
        "permuted": (nb.transpose(1, 2, 0), tb.transpose(1, 2, 0)),
        "step": (nb[::2, 1::2], tb[::2, 1::2]),
        "negative": (nb[::-1, :, ::-2], tb[::-1, :, ::-2]),
        "negative_permuted": (nb.T[::-2], tb.T[::-2]),
        "broadcast": (np.broadcast_to(nb[0, 0], (3, 5)), tnp.broadcast_to(tb[0, 0], (3, 5))),
        "F_step": (f[:, ::2], tnp.asfortranarray(t(base[:2, :3], device))[:, ::2]),
        "extent_1": (np.asfortranarray(base[:1, :3, 2]), tnp.asfortranarray(t(base[:1, :3, 2], device))),
        "1d": (base[0, 0], tb[0, 0]),
        "0d": (base[0, 0, 0], tb[0, 0, 0]),
    }
    for name, (x, a) in pairs.items():
        assert_same(a, x)
        assert element_strides(a) == element_strides(x), name
        yield name, x, a


def element_strides(a):
    """Strides in elements of the axes longer than 1 (the others' strides do not matter)."""
    return [s // a.itemsize for s, d in zip(a.strides, a.shape) if d > 1]


def same_layout(got, expected):
    """got (tegula) has expected's (NumPy) values, dtype, shape and memory order (strides, up to extent-1 axes;
    NumPy gives empty arrays zero strides)."""
    assert_same(got, expected)
    if expected.size:
        assert element_strides(got) == element_strides(expected), f"strides {got.strides} != {expected.strides}"


@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
@pytest.mark.parametrize("shape", [(2, 3, 4), (5,), (), (0, 3), (3, 1)], ids=str)
def test_creation_in_memory_order(device, shape, order):
    """empty/zeros/ones/full/eye(order='F'): a C array of the reversed shape, transposed (a view)."""
    same_layout(tnp.zeros(shape, "int16", order, device=device), np.zeros(shape, "int16", order))
    same_layout(tnp.ones(shape, order=order, device=device), np.ones(shape, order=order))
    same_layout(tnp.full(shape, 2.5, "float32", order, device=device), np.full(shape, 2.5, "float32", order))
    e = tnp.empty(shape, "uint8", order, device=device)
    assert e.shape == np.empty(shape, order=order).shape
    assert e.strides == np.empty(shape, "uint8", order).strides or e.size < 2 or 1 in shape
    if len(shape) == 2:
        same_layout(tnp.eye(*shape, order=order, device=device), np.eye(*shape, order=order))


def test_creation_order_errors(device):
    for name in ("zeros", "ones", "empty"):
        for order, msg in (("A", "only 'C' or 'F' order is permitted"), ("K", "only 'C' or 'F' order is permitted"),
                           ("X", "order must be one of 'C', 'F', 'A', or 'K' (got 'X')")):
            with pytest.raises(ValueError) as np_info:
                getattr(np, name)((2, 3), order=order)
            assert str(np_info.value) == msg
            with pytest.raises(ValueError) as info:
                getattr(tnp, name)((2, 3), order=order, device=device)
            assert str(info.value) == msg
    for call in (lambda m, a: m.empty_like(a, order="Q"), lambda m, a: m.copy(a, order="Q"),
                 lambda m, a: m.array(a, order="Q"), lambda m, a: m.asarray(a, order="Q")):
        with pytest.raises(ValueError, match="order must be one of"):
            call(np, np.zeros(3))
        with pytest.raises(ValueError, match="order must be one of"):
            call(tnp, t(np.zeros(3), device))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "float64"])
def test_like_functions_keep_the_memory_order(device, rng, dtype):
    """order='K' (the default) keeps the input's memory order, 'A' F for F-contiguous input; a shape= with
    another number of axes gives C order."""
    for name, x, a in layouts(rng, dtype, device):
        for order in ORDERS:
            same_layout(tnp.zeros_like(a, order=order), np.zeros_like(x, order=order))
            same_layout(tnp.ones_like(a, "float32", order), np.ones_like(x, "float32", order))
            same_layout(tnp.full_like(a, 1, order=order), np.full_like(x, 1, order=order))
            e, ne = tnp.empty_like(a, order=order), np.empty_like(x, order=order)
            assert e.shape == ne.shape and e.dtype == ne.dtype
            if x.ndim:
                for shape in (x.shape[::-1], x.shape + (2,)):
                    same_layout(tnp.zeros_like(a, order=order, shape=shape), np.zeros_like(x, order=order,
                                                                                            shape=shape))
    p = t(random(rng, (3, 4), dtype), device).T == True  # noqa: E712 - pending: computed in C order
    p = p.astype(dtype, copy=False) if dtype == "bool" else p.astype(dtype)
    assert p._pending
    same_layout(tnp.zeros_like(p), np.zeros((4, 3), dtype))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float32", "float64"])
def test_array_asarray_copy_asnumpy_in_memory_order(device, rng, dtype):
    """array/copy (copies: 'K' keeps the order, 'A' F for F input), asarray (no copy unless the order asks
    for one), asnumpy (a NumPy array in that order), from tegula arrays and from host data."""
    for name, x, a in layouts(rng, dtype, device):
        for order in ORDERS:
            same_layout(tnp.array(a, order=order), np.array(x, order=order))
            same_layout(tnp.copy(a, order=order), np.copy(x, order=order))
            same_layout(tnp.array(x, order=order, device=device), np.array(x, order=order))
            same_layout(tnp.asarray(x, order=order, device=device), np.array(x, order=order))
            got = tnp.asnumpy(a, order=order)
            assert isinstance(got, np.ndarray)
            expected = np.array(x, order=order)
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == expected.dtype and element_strides(got) == element_strides(expected)
            r = tnp.asarray(a, order=order)
            need = {"C": not x.flags.c_contiguous, "F": not x.flags.f_contiguous}.get(order, False)
            assert (r is not a) == need, (name, order)
            if need:
                same_layout(r, np.asarray(x, order=order))
            same_layout(tnp.array(a, dtype="float32", order=order), np.array(x, dtype="float32", order=order))
            same_layout(tnp.array(x, dtype="float32", order=order, device=device),
                        np.array(x, dtype="float32", order=order))
            same_layout(tnp.asarray(a, "float32", order), np.asarray(x, "float32", order))
        np.testing.assert_array_equal(a.get(), x)  # .get() gives the values in C order whatever the layout
    f = tnp.asfortranarray(t(np.arange(6).reshape(2, 3), device))
    same_layout(f, np.asfortranarray(np.arange(6).reshape(2, 3)))
    same_layout(tnp.asfortranarray(t(2.0, device)), np.asfortranarray(2.0))  # at least 1-D, as NumPy
    same_layout(tnp.ascontiguousarray(f), np.ascontiguousarray(np.arange(6).reshape(2, 3)))
    same_layout(tnp.ascontiguousarray(t(2.0, device)), np.ascontiguousarray(2.0))
    h = tnp.array([[1, 2], [3, 4]], "bfloat16", order="F", device=device)
    assert h.strides == (2, 4)
    assert_same(h.astype("float32"), np.array([[1, 2], [3, 4]], "float32"))


def test_arrays_in_f_order_compute_as_any_other(device, rng):
    """Elementwise operations, reductions, indexing, assignment and transfers of F-ordered arrays."""
    x = rng.standard_normal((5, 7))
    f = tnp.asarray(np.asfortranarray(x), device=device)
    assert f.strides == (8, 40)
    assert_same(tnp.exp(f) * 2 + f.T.T, np.exp(x) * 2 + x)
    assert_same(f.sum(axis=0), x.sum(axis=0))
    assert_same(f[1:4, ::2], x[1:4, ::2])
    g = tnp.zeros((5, 7), order="F", device=device)
    g[1:3] = f[1:3] + 1
    expected = np.zeros((5, 7))
    expected[1:3] = x[1:3] + 1
    assert_same(g, expected)
    assert g.strides == (8, 40)
    assert_same(tnp.concatenate([f, g], axis=1), np.concatenate([x, expected], axis=1))


@pytest.mark.parametrize("code", [">f4", ">f8", ">i2", ">i8", ">u4", ">c8", ">c16", "<f4"])
def test_byte_swapped_host_data_keeps_its_values(code, device):
    """Big-endian NumPy arrays (from files and network formats) upload as their values, not as raw bytes."""
    x = (np.arange(12) * 3 - 7).astype(code).reshape(3, 4)
    for got in (tnp.asarray(x, device=device), tnp.array(x, device=device), tnp.asarray(x.T, device=device)):
        want = x if got.shape == x.shape else x.T
        assert got.dtype == want.dtype.newbyteorder("=") and np.array_equal(got.get(), want)


@pytest.mark.parametrize("dtype,want", [
    ("uint8", [44, 56, 255, 0, 0, 3, 253]),
    ("int16", [300, -200, -1, 0, 0, 3, -3]),
    ("int32", [300, -200, 2147483647, -2147483648, 0, 3, -3]),
    ("uint32", [300, 4294967096, 1410065408, 2884901888, 0, 3, 4294967293]),  # through int64, wrapped
    ("int64", [300, -200, 10**10, -10**10, 0, 3, -3]),
])
def test_float_to_int_casts_out_of_range_as_the_gpu_does(dtype, want, device):
    """In range, casts truncate toward zero as NumPy's. Out of range (undefined in C; NumPy gives the platform's
    result with a RuntimeWarning) the interpreter gives what the generated CUDA gives: a saturating conversion
    to int32 (int64 for 64-bit and uint32 targets; NaN to 0), then wrapped to the width."""
    x = np.array([300.0, -200.0, 1e10, -1e10, np.nan, 3.9, -3.9])
    assert tnp.asarray(x, device=device).astype(dtype).get().tolist() == want


@pytest.mark.parametrize("args, match", [
    ((0, 1e30, 1e-30), "Maximum allowed size exceeded"),  # a float length past the largest intp
    ((0, np.inf), "Maximum allowed size exceeded"),
    ((np.inf,), "Maximum allowed size exceeded"),
    ((0, 10, 1e-300), "Maximum allowed size exceeded"),
    ((2 ** 70,), "Maximum allowed size exceeded"),  # an int length past it
    ((0, 2 ** 65, 1), "Maximum allowed size exceeded"),
    ((0, np.nan), "arange: cannot compute length"),
])
def test_arange_lengths_past_intp_raise_numpys_errors(device, args, match):
    with pytest.raises(ValueError, match=match):
        np.arange(*args)
    with pytest.raises(ValueError, match=match):
        tnp.arange(*args, device=device)


def test_arange_lengths_of_every_sign(device):
    for a in range(-5, 6):
        for b in range(-5, 6):
            for s in (-3, -1, 1, 2):
                assert_same(tnp.arange(a, b, s, device=device), np.arange(a, b, s))
    for a, b, s in ((-2.5, 4.75, 0.3), (1.25, -3.0, -0.75), (0.0, 0.5, 1.0), (0.0, 5.0, -1.0)):
        assert_same(tnp.arange(a, b, s, device=device), np.arange(a, b, s))


def test_linspace_counts_as_numpy_checks_them(device):
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        tnp.linspace(0, 1, 5.5, device=device)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        tnp.linspace(0, 1, 2 ** 70, device=device)
    assert_same(tnp.linspace(0, 1, np.int64(7), device=device), np.linspace(0, 1, np.int64(7)))
