"""tegula.numpy shape manipulation against NumPy 2: reshape (views and copies), ravel/flatten, transpose,
moveaxis, swapaxes, squeeze, expand_dims, broadcast_to/broadcast_arrays, concatenate/stack/vstack/hstack,
split/array_split, flip, roll, tile, repeat, pad, atleast_*d, copyto; views share memory with their base."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import ALL_DTYPES, assert_same, device, random, rng, t  # noqa: F401


def shares(view, base):
    return view._base_id == base._base_id


@pytest.mark.parametrize("shape,new", [
    ((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1)), ((2, 3, 4), (2, -1, 2)), ((12,), (3, 4)),
    ((7,), (7, 1)), ((), (1, 1)), ((1,), ()), ((0, 3), (3, 0)), ((0, 3), (-1, 5)), ((2, 3, 4), (1, 24, 1)),
    ((6,), 6), ((6,), -1), ((2, 1, 3, 5), (5, 3, 2)),
], ids=str)
def test_reshape(device, rng, shape, new):
    x = rng.standard_normal(shape)
    a = t(x, device)
    assert_same(a.reshape(new), x.reshape(new))
    assert_same(tnp.reshape(a, new), np.reshape(x, new))
    if isinstance(new, tuple):
        assert_same(a.reshape(*new) if new else a.reshape(()), x.reshape(*new) if new else x.reshape(()))
    assert shares(a.reshape(new), a)  # contiguous: a view


def test_reshape_of_views_copies_when_it_must(device, rng):
    x = rng.standard_normal((6, 8))
    a = t(x, device)
    v = a[::2, ::-1]  # not expressible as a reshape view
    assert_same(v.reshape(-1), x[::2, ::-1].reshape(-1))
    assert_same(v.reshape(4, 6), x[::2, ::-1].reshape(4, 6))
    assert_same(a.T.reshape(8, 6), x.T.reshape(8, 6))
    assert_same(a.T.reshape(2, 4, 6), x.T.reshape(2, 4, 6))
    w = a[:, :4]  # rows of a contiguous block: (6, 4) -> (3, 2, 4) is a view
    assert_same(w.reshape(3, 2, 4), x[:, :4].reshape(3, 2, 4))
    assert shares(w.reshape(3, 2, 4), a)
    r = a.T.reshape(-1)
    r[0] = 99.0  # a copy: the base is unchanged
    assert_same(a, x)


def test_reshape_errors(device):
    a = t(np.arange(12.0), device)
    with pytest.raises(ValueError, match="cannot reshape array of size 12 into shape"):
        np.arange(12.0).reshape(5, 3)
    with pytest.raises(ValueError, match=r"cannot reshape array of size 12 into shape \(5, ?3\)"):
        a.reshape(5, 3)
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        a.reshape(-1, -1)
    with pytest.raises(ValueError, match="cannot reshape array of size 12 into shape"):
        a.reshape(-1, 5)
    with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
        np.reshape(np.arange(12.0), (3, 4), order="K")
    with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
        tnp.reshape(a, (3, 4), order="K")
    with pytest.raises(ValueError, match="order must be one of"):
        tnp.ravel(a, order="Z")


def test_ravel_flatten(device, rng):
    x = rng.standard_normal((3, 4, 2))
    a = t(x, device)
    assert_same(tnp.ravel(a), np.ravel(x))
    assert_same(a.ravel(), x.ravel())
    assert_same(a.flatten(), x.flatten())
    assert_same(a.transpose(2, 0, 1).ravel(), x.transpose(2, 0, 1).ravel())
    assert_same(a[:, ::-2].flatten(), x[:, ::-2].flatten())
    f = a.flatten()
    f[0] = 1e9
    assert_same(a, x)  # flatten copies
    r = a.ravel()
    r[0] = 5.0  # ravel of a contiguous array is a view
    x.ravel()[0] = 5.0
    assert_same(a, x)
    assert_same(tnp.ravel(t(3.0, device)), np.ravel(3.0))


def memory_layouts(rng, dtype, device):
    """(NumPy, tegula) pairs of one set of values in C, F, permuted, stepped, reversed and broadcast memory."""
    base = random(rng, (4, 6, 5), dtype)
    tb = t(base, device)
    yield base[:2, :3], tb[:2, :3]
    yield np.asfortranarray(base[:3, :2]), tnp.asfortranarray(t(base[:3, :2], device))
    yield base.transpose(1, 2, 0), tb.transpose(1, 2, 0)
    yield base[::2, 1::2].T, tb[::2, 1::2].T
    yield base[::-1, :, ::-2], tb[::-1, :, ::-2]
    yield np.broadcast_to(base[0, :1], (6, 5)), tnp.broadcast_to(tb[0, :1], (6, 5))
    yield base[0, :, 1], tb[0, :, 1]
    yield base[0, 0, 0], tb[0, 0, 0]


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float16", "float64"])
def test_reshape_ravel_flatten_in_any_index_order(device, rng, dtype):
    """order='F' reads and writes the index in Fortran order (a view where the memory allows, as NumPy's),
    'A' F for F-contiguous arrays, ravel/flatten 'K' in memory order."""
    for x, a in memory_layouts(rng, dtype, device):
        for order in ("C", "F", "A", "K"):
            assert_same(tnp.ravel(a, order), np.ravel(x, order))
            assert_same(a.ravel(order), x.ravel(order))
            assert_same(tnp.flatten(a, order), x.flatten(order))
            assert_same(a.flatten(order), x.flatten(order))
            if order == "K":
                continue
            for shape in ((x.size,), (-1, 1), (1, x.size)) + (((x.shape[-1], -1),) if x.ndim else ()):
                assert_same(tnp.reshape(a, shape, order=order), np.reshape(x, shape, order=order))
        if x.ndim > 1:  # a view exactly where NumPy's is one
            v, r = np.reshape(x, (-1,), order="F"), tnp.reshape(a, (-1,), order="F")
            assert shares(r, a) == np.shares_memory(v, x)
    f = tnp.asfortranarray(t(np.arange(12).reshape(3, 4), device))
    r = tnp.reshape(f, (2, 6), order="F")
    assert shares(r, f)
    r[0, 0] = 100  # a view: writes go through
    assert int(f[0, 0]) == 100
    g = tnp.flatten(f, "F")
    g[1] = -5
    assert int(f[1, 0]) == 4  # flatten copies


@pytest.mark.parametrize("axes", [None, (1, 0, 2), (2, 0, 1), (0, 1, 2), (-1, 0, 1)], ids=str)
def test_transpose(device, rng, axes):
    x = rng.standard_normal((2, 3, 4))
    a = t(x, device)
    assert_same(tnp.transpose(a, axes), np.transpose(x, axes))
    assert_same(a.transpose(axes) if axes else a.transpose(), x.transpose(axes) if axes else x.transpose())
    if axes:
        assert_same(a.transpose(*axes), x.transpose(*axes))
    assert_same(tnp.permute_dims(a, axes if axes else (2, 1, 0)), np.permute_dims(x, axes if axes else (2, 1, 0)))
    assert shares(tnp.transpose(a, axes), a)
    assert tnp.transpose(a, axes).strides == np.transpose(x, axes).strides


def test_transpose_errors(device):
    a = t(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match="axes don't match array"):
        a.transpose(0, 1, 2)
    with pytest.raises(ValueError):
        a.transpose(0, 0)
    with pytest.raises(tnp.AxisError):
        a.transpose(0, 2)


def test_T_and_mT(device, rng):
    x = rng.standard_normal((2, 3, 4))
    a = t(x, device)
    assert_same(a.T, x.T)
    assert_same(a.mT, x.mT)
    assert_same(t(5.0, device).T, np.asarray(5.0).T)


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), (1, 2), ([0, 1], [-1, -2]), ((0, 2), (2, 0)), (2, 2)],
                         ids=str)
def test_moveaxis(device, rng, src, dst):
    x = rng.standard_normal((2, 3, 4))
    a = t(x, device)
    assert_same(tnp.moveaxis(a, src, dst), np.moveaxis(x, src, dst))


def test_moveaxis_errors(device):
    a = t(np.ones((2, 3)), device)
    with pytest.raises(tnp.AxisError):
        tnp.moveaxis(a, 2, 0)
    with pytest.raises(ValueError, match="must have the same number of elements"):
        tnp.moveaxis(a, [0, 1], [0])
    with pytest.raises(ValueError, match="repeated axis"):
        tnp.moveaxis(a, [0, 0], [0, 1])


@pytest.mark.parametrize("a1,a2", [(0, 1), (0, -1), (1, 1), (-1, -3), (2, 0)], ids=str)
def test_swapaxes(device, rng, a1, a2):
    x = rng.standard_normal((2, 3, 4))
    a = t(x, device)
    assert_same(tnp.swapaxes(a, a1, a2), np.swapaxes(x, a1, a2))
    assert_same(a.swapaxes(a1, a2), x.swapaxes(a1, a2))


def test_swapaxes_bad_axis(device):
    with pytest.raises(tnp.AxisError):
        tnp.swapaxes(t(np.ones((2, 3)), device), 0, 2)


def test_squeeze_and_expand_dims(device, rng):
    x = rng.standard_normal((1, 3, 1, 4, 1))
    a = t(x, device)
    for axis in (None, 0, 2, -1, (0, 2), (0, -1)):
        assert_same(tnp.squeeze(a, axis), np.squeeze(x, axis))
    assert_same(a.squeeze(), x.squeeze())
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        tnp.squeeze(a, 1)
    with pytest.raises(tnp.AxisError):
        tnp.squeeze(a, 5)
    y = rng.standard_normal((3, 4))
    b = t(y, device)
    for axis in (0, 1, 2, -1, -3, (0, 2), (0, -1), (1, 3)):
        assert_same(tnp.expand_dims(b, axis), np.expand_dims(y, axis))
    with pytest.raises(tnp.AxisError):
        tnp.expand_dims(b, 3)
    with pytest.raises(ValueError, match="repeated axis"):
        tnp.expand_dims(b, (0, 0))
    assert shares(tnp.expand_dims(b, 0), b) and shares(tnp.squeeze(a), a)
    assert_same(tnp.squeeze(t(np.ones((1, 1)), device)), np.squeeze(np.ones((1, 1))))


@pytest.mark.parametrize("shape,target", [((3,), (4, 3)), ((4, 1), (4, 5)), ((), (2, 3)), ((1, 1), (2, 3, 4)),
                                          ((2, 1, 3), (2, 4, 3)), ((3,), (0, 3)), ((1,), (1,))], ids=str)
def test_broadcast_to(device, rng, shape, target):
    x = rng.standard_normal(shape)
    a = t(x, device)
    b = tnp.broadcast_to(a, target)
    assert_same(b, np.broadcast_to(x, target))
    assert shares(b, a)


def test_broadcast_errors(device):
    a = t(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match="could not be broadcast"):
        np.broadcast_to(np.ones((2, 3)), (3, 3))
    with pytest.raises(ValueError, match="could not be broadcast"):
        tnp.broadcast_to(a, (3, 3))
    with pytest.raises(ValueError, match="input operand has more dimensions than allowed by the axis remapping"):
        tnp.broadcast_to(a, (3,))
    with pytest.raises(ValueError, match="operands could not be broadcast together with shapes"):
        a + t(np.ones(4), device)
    with pytest.raises(ValueError, match=r"\(2,3\) \(4,\)"):
        a + t(np.ones(4), device)
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        tnp.add(a, t(np.ones((3, 2)), device))


def test_broadcast_arrays_and_shapes(device, rng):
    x, y, z = rng.standard_normal((3, 1)), rng.standard_normal((4,)), rng.standard_normal(())
    got = tnp.broadcast_arrays(t(x, device), t(y, device), t(z, device))
    for g, r in zip(got, np.broadcast_arrays(x, y, z)):
        assert_same(g, r)
    assert tnp.broadcast_shapes((3, 1), (4,), ()) == (3, 4)


DTYPE_SETS = [("float64", "float64"), ("int8", "uint8"), ("float32", "int64"), ("bool", "int16"), ("float16", "float32")]


@pytest.mark.parametrize("d1,d2", DTYPE_SETS, ids=str)
def test_concatenate(device, rng, d1, d2):
    x, y = random(rng, (2, 3, 4), d1), random(rng, (2, 5, 4), d2)
    a, b = t(x, device), t(y, device)
    assert_same(tnp.concatenate([a, b], axis=1), np.concatenate([x, y], axis=1))
    assert_same(tnp.concatenate((a, b), axis=-2), np.concatenate((x, y), axis=-2))
    assert_same(tnp.concatenate([a, a[:, :, ::-1]], axis=0), np.concatenate([x, x[:, :, ::-1]], axis=0))
    assert_same(tnp.concatenate([a, b], axis=None), np.concatenate([x, y], axis=None))
    assert_same(tnp.concat([a.T, a.T], axis=2), np.concat([x.T, x.T], axis=2))
    assert_same(tnp.concatenate([a], axis=0), np.concatenate([x], axis=0))
    assert_same(tnp.concatenate([a, b], axis=1, dtype="float32"), np.concatenate([x, y], axis=1, dtype="float32"))


def test_concatenate_empty_and_out(device, rng):
    x, e = rng.standard_normal((2, 3)), np.zeros((0, 3))
    a = t(x, device)
    assert_same(tnp.concatenate([a, t(e, device), a]), np.concatenate([x, e, x]))
    out = tnp.zeros((4, 3), device=device)
    r = tnp.concatenate([a, a], out=out)
    assert r is out
    assert_same(out, np.concatenate([x, x]))
    assert_same(tnp.concatenate([a.tolist(), a], axis=0), np.concatenate([x.tolist(), x], axis=0))


def test_concatenate_errors(device):
    a, b = t(np.ones((2, 3)), device), t(np.ones((2, 4)), device)
    with pytest.raises(ValueError, match="all the input array dimensions except for the concatenation axis"):
        np.concatenate([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(ValueError, match="all the input array dimensions except for the concatenation axis must "
                                         "match exactly, but along dimension 1, the array at index 0 has size 3 and "
                                         "the array at index 1 has size 4"):
        tnp.concatenate([a, b])
    with pytest.raises(ValueError, match="all the input arrays must have same number of dimensions"):
        tnp.concatenate([a, t(np.ones(3), device)])
    with pytest.raises(tnp.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        tnp.concatenate([a, a], axis=2)
    with pytest.raises(ValueError, match="zero-dimensional arrays cannot be concatenated"):
        tnp.concatenate([t(1.0, device), t(2.0, device)])
    with pytest.raises(ValueError, match="need at least one array to concatenate"):
        tnp.concatenate([])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(device, rng, axis):
    xs = [rng.standard_normal((3, 4)) for _ in range(3)]
    assert_same(tnp.stack([t(x, device) for x in xs], axis=axis), np.stack(xs, axis=axis))


def test_stack_errors_and_mixed(device, rng):
    x = rng.standard_normal(3)
    assert_same(tnp.stack([t(x, device), t(x.astype(np.int8), device)]), np.stack([x, x.astype(np.int8)]))
    assert_same(tnp.stack([t(1.0, device), t(2.0, device)]), np.stack([1.0, 2.0]))
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        tnp.stack([t(np.ones(3), device), t(np.ones(4), device)])
    with pytest.raises(tnp.AxisError):
        tnp.stack([t(x, device)], axis=2)


def test_vstack_hstack(device, rng):
    x, y = rng.standard_normal(4), rng.standard_normal(4)
    m, n = rng.standard_normal((2, 4)), rng.standard_normal((3, 4))
    a, b, c, d = (t(v, device) for v in (x, y, m, n))
    assert_same(tnp.vstack([a, b]), np.vstack([x, y]))
    assert_same(tnp.vstack([c, d, a]), np.vstack([m, n, x]))
    assert_same(tnp.hstack([a, b]), np.hstack([x, y]))
    assert_same(tnp.hstack([c, c.T.T]), np.hstack([m, m]))
    assert_same(tnp.hstack([t(1.0, device), a]), np.hstack([1.0, x]))
    assert_same(tnp.vstack([t(2.0, device), t(3.0, device)]), np.vstack([2.0, 3.0]))
    assert_same(tnp.atleast_1d(t(5.0, device)), np.atleast_1d(5.0))
    assert_same(tnp.atleast_2d(a), np.atleast_2d(x))
    assert_same(tnp.atleast_2d(t(5.0, device)), np.atleast_2d(5.0))


@pytest.mark.parametrize("spec,axis", [(3, 0), ([1, 4], 0), ([2, 2], 0), ([0, 5], 1), (2, 1), ([-2], 0), ([3, 1], 0),
                                       ([10], 0)], ids=str)
def test_split(device, rng, spec, axis):
    x = rng.standard_normal((6, 6))
    a = t(x, device)
    got, ref = tnp.split(a, spec, axis), np.split(x, spec, axis)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert_same(g, r)


def test_split_views_and_errors(device, rng):
    x = rng.standard_normal((6, 4))
    a = t(x, device)
    parts = tnp.split(a, 2)
    assert _all_share(parts, a)
    parts[1][0, 0] = 100.0
    x[3, 0] = 100.0
    assert_same(a, x)
    with pytest.raises(ValueError, match="array split does not result in an equal division"):
        tnp.split(a, 4)
    for g, r in zip(tnp.split(a, 2, axis=-1), np.split(x, 2, axis=-1)):
        assert_same(g, r)


def _all_share(parts, base):
    return all(shares(p, base) for p in parts)


@pytest.mark.parametrize("spec,axis", [(3, 0), (4, 0), (7, 0), (1, 1), (3, 1), ([1, 3], 1), (2, -1)], ids=str)
def test_array_split(device, rng, spec, axis):
    x = rng.standard_normal((5, 7))
    a = t(x, device)
    got, ref = tnp.array_split(a, spec, axis), np.array_split(x, spec, axis)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert_same(g, r)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), ()], ids=str)
def test_flip(device, rng, axis):
    x = rng.standard_normal((3, 4, 5))
    a = t(x, device)
    assert_same(tnp.flip(a, axis), np.flip(x, axis))
    assert shares(tnp.flip(a, axis), a)


def test_fliplr_flipud(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    assert_same(tnp.fliplr(a), np.fliplr(x))
    assert_same(tnp.flipud(a), np.flipud(x))
    assert_same(tnp.flip(a[::2, 1:], 1), np.flip(x[::2, 1:], 1))


@pytest.mark.parametrize("shift,axis", [(1, None), (-2, None), (13, None), (1, 0), (-1, 1), (5, -1), (0, 0),
                                        ((1, 2), (0, 1)), (2, (0, 1)), ((1, -1), (1, 1))], ids=str)
def test_roll(device, rng, shift, axis):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    assert_same(tnp.roll(a, shift, axis), np.roll(x, shift, axis))
    assert_same(tnp.roll(a.T, shift, axis), np.roll(x.T, shift, axis))


def test_roll_returns_a_copy(device, rng):
    x = rng.standard_normal(5)
    a = t(x, device)
    r = tnp.roll(a, 0)
    r[0] = 9.0
    assert_same(a, x)
    assert_same(tnp.roll(t(np.zeros((0, 3)), device), 1, 0), np.roll(np.zeros((0, 3)), 1, 0))


@pytest.mark.parametrize("shape,reps", [((3,), 2), ((3,), (2, 2)), ((2, 3), (2, 1)), ((2, 3), 3), ((2, 1, 3), (1, 2, 1)),
                                        ((), 3), ((2, 3), (2, 1, 2)), ((3,), 0)], ids=str)
def test_tile(device, rng, shape, reps):
    x = rng.standard_normal(shape)
    assert_same(tnp.tile(t(x, device), reps), np.tile(x, reps))


@pytest.mark.parametrize("reps,axis", [(2, None), (3, 0), (2, 1), (1, -1), (0, 0)], ids=str)
def test_repeat(device, rng, reps, axis):
    x = rng.standard_normal((2, 3))
    a = t(x, device)
    assert_same(tnp.repeat(a, reps, axis), np.repeat(x, reps, axis))
    assert_same(a.repeat(reps, axis), x.repeat(reps, axis))


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int8", "bool"])
def test_repeat_of_a_one_element_axis_fuses_into_its_reader(device, rng, dtype):
    """stockham_fft's D[:] = np.repeat(tmp.reshape(R, n, 1), m, axis=2): a lazy broadcast copy, one kernel writes D
    (no copy of the repeat first); the result is its own memory (writing it leaves the source alone)."""
    import tegula

    x = random(rng, (3, 1, 4), dtype)
    a = t(x, device)
    assert_same(tnp.repeat(a, 5, axis=1), np.repeat(x, 5, axis=1))
    assert_same(tnp.repeat(a, 0, axis=1), np.repeat(x, 0, axis=1))
    d = tnp.empty((3, 6, 4), dtype=dtype, device=device)
    with tegula.profile(gpu_timing=False) as p:
        d[:] = tnp.repeat(a, 6, axis=1)
        d._materialize()
    assert len(p.launches) == 1
    assert_same(d, np.repeat(x, 6, axis=1))
    r = tnp.repeat(a, 2, axis=1)
    r[...] = x.flat[0]
    assert_same(a, x)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        tnp.repeat(a, -1, axis=1)


@pytest.mark.parametrize("width", [1, (1, 2), ((1, 0), (2, 3)), ((0, 0), (0, 0)), ((2,), (1,))], ids=str)
@pytest.mark.parametrize("dtype", ["float64", "int16", "bool"])
def test_pad(device, rng, width, dtype):
    x = random(rng, (3, 4), dtype)
    a = t(x, device)
    assert_same(tnp.pad(a, width), np.pad(x, width))
    assert_same(tnp.pad(a, width, constant_values=1), np.pad(x, width, constant_values=1))
    assert_same(tnp.pad(a, width, mode="constant"), np.pad(x, width, mode="constant"))


def test_pad_view_and_3d(device, rng):
    x = rng.standard_normal((2, 3, 4))
    assert_same(tnp.pad(t(x, device)[:, ::-1], ((1, 1), (0, 2), (3, 0))), np.pad(x[:, ::-1], ((1, 1), (0, 2), (3, 0))))
    assert_same(tnp.pad(t(x[0, 0], device), 2, constant_values=-1.5), np.pad(x[0, 0], 2, constant_values=-1.5))


PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "minimum", "mean"]


def pad_options(mode, ndim):
    """The keyword sets of each mode: NumPy's defaults, and per-side/per-axis values."""
    per_axis = [[(1 + i, 2 + i)] for i in range(ndim)] if ndim else [(1, 2)]
    return {"constant": [{}, {"constant_values": 3}, {"constant_values": (1, 2)},
                         {"constant_values": [p[0] for p in per_axis]}],
            "reflect": [{}, {"reflect_type": "odd"}], "symmetric": [{}, {"reflect_type": "odd"}],
            "linear_ramp": [{}, {"end_values": (5, 7)}, {"end_values": [p[0] for p in per_axis]}],
            "maximum": [{}, {"stat_length": 2}, {"stat_length": (1, 3)}],
            "minimum": [{}, {"stat_length": ((2, 1),)}], "mean": [{}, {"stat_length": (1, 3)}]}.get(mode, [{}])


def pad_widths(shape):
    """Widths of 0, of one value, per side, per axis, and wider than the axis (reflect/symmetric/wrap repeat)."""
    widths = [0, 2, (1, 3), 9]
    if shape:
        widths.append([(0, 7)] + [(3, 1)] * (len(shape) - 1))
    return widths


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("mode", PAD_MODES)
def test_pad_modes(device, rng, mode, dtype):
    """Every mode NumPy has (but median) against NumPy, on 0-d to 3-D inputs, views, size-1 axes, and pads
    wider than the axis. Corners come from the padding of the earlier axes, as in NumPy."""
    cases = [(), (1,), (6,), (3, 4), (1, 3), (2, 3, 2)]
    for shape in cases:
        x = random(rng, shape, dtype, low=0, high=50) if np.dtype(dtype).kind == "u" else random(rng, shape, dtype)
        inputs = [(x, t(x, device))]
        if len(shape) == 2:
            base = random(rng, (shape[0] * 2, shape[1] + 1), dtype)
            inputs.append((base[::2, :0:-1], t(base, device)[::2, :0:-1]))  # a strided, reversed view
        for xi, a in inputs:
            for width in pad_widths(shape):
                for kw in pad_options(mode, len(shape)):
                    if mode == "mean" and np.dtype(dtype).kind == "f":  # the mean's summation order
                        r, at = {"float16": (1e-3, 1e-3), "float32": (1e-6, 1e-6)}.get(dtype, (1e-12, 1e-12))
                        check_pad(xi, a, width, mode, kw, rtol=r, atol=at)
                    else:
                        check_pad(xi, a, width, mode, kw)


def check_pad(x, a, width, mode, kw, rtol=None, atol=None):
    try:
        expected = np.pad(x, width, mode, **kw)
    except Exception as e:  # noqa: BLE001 - NumPy's error is the specification
        with pytest.raises(type(e)):
            tnp.pad(a, width, mode, **kw)
        return
    assert_same(tnp.pad(a, width, mode, **kw), expected, rtol=rtol, atol=atol)


def test_pad_integer_rounding_and_casts(device):
    """mean pads of integers round half to even; ramps of integers are floored; constants are cast into the
    dtype (a NumPy scalar unsafely, a Python one only if it fits: NumPy's setitem rules)."""
    x = np.array([1, 2, 4, 7, 8, 10], np.int16)
    a = t(x, device)
    for n in (1, 2, 3, 4, 6):
        assert_same(tnp.pad(a, 3, "mean", stat_length=n), np.pad(x, 3, "mean", stat_length=n))
    u = np.array([4, 9, 30], np.uint8)
    assert_same(tnp.pad(t(u, device), (4, 5), "linear_ramp", end_values=(200, 3)),
                np.pad(u, (4, 5), "linear_ramp", end_values=(200, 3)))
    b = np.array([True, False, True])
    for mode in ("mean", "linear_ramp", "reflect"):
        kw = {"reflect_type": "odd"} if mode == "reflect" else {}
        assert_same(tnp.pad(t(b, device), (2, 3), mode, **kw), np.pad(b, (2, 3), mode, **kw))
    assert_same(tnp.pad(t(u, device), 2, constant_values=-1), np.pad(u, 2, constant_values=-1))  # np.int64: wraps
    assert_same(tnp.pad(t(x, device), 2, constant_values=1.7), np.pad(x, 2, constant_values=1.7))
    with pytest.raises(OverflowError):  # a per-axis table gives Python ints, which NumPy 2 does not wrap
        np.pad(u[None], 1, constant_values=((1, 1), (-1, 2)))
    with pytest.raises((OverflowError, ValueError), match="out of bounds"):
        tnp.pad(t(u[None], device), 1, constant_values=((1, 1), (-1, 2)))
    f = np.array([1.0, 2.5, -3.0], np.float32)
    assert_same(tnp.pad(t(f, device), 4, "reflect", reflect_type="odd"), np.pad(f, 4, "reflect", reflect_type="odd"))
    assert_same(tnp.pad(t(f, device), (3, 4), "linear_ramp", end_values=(1.5, -2.25)),
                np.pad(f, (3, 4), "linear_ramp", end_values=(1.5, -2.25)))


def test_pad_empty_mode_and_empty_arrays(device, rng):
    x = rng.standard_normal((2, 3))
    r = tnp.pad(t(x, device), ((1, 2), (0, 3)), "empty")
    assert r.shape == (5, 6) and r.dtype == np.float64
    assert_same(r[1:3, 0:3], x)  # the pad area is undefined, as in NumPy
    e = np.zeros((0, 3))
    for mode in ("edge", "reflect", "wrap", "maximum"):
        assert_same(tnp.pad(t(e, device), ((0, 0), (1, 1)), mode), np.pad(e, ((0, 0), (1, 1)), mode))
        with pytest.raises(ValueError, match="can't extend empty axis 0 using modes other than 'constant' or 'empty'"):
            tnp.pad(t(e, device), 1, mode)
    assert_same(tnp.pad(t(e, device), 1), np.pad(e, 1))
    assert_same(tnp.pad(t(e, device), 1, "empty").shape, (2, 5))


def test_pad_width_forms_and_errors(device, rng):
    x = rng.integers(0, 9, (2, 3))
    a = t(x, device)
    for width in ({1: (1, 2)}, {-1: 2}, {0: (3, 0), 1: 2}, np.array([[1, 0], [2, 1]]), [[1], [2]], (2,)):
        assert_same(tnp.pad(a, width, "edge"), np.pad(x, width, "edge"))
    errors = [((1.5,), "edge", {}, TypeError, "`pad_width` must be of integral type."),
              (-1, "edge", {}, ValueError, "index can't contain negative values"),
              (1, "nope", {}, ValueError, "mode 'nope' is not supported"),
              (1, "edge", {"constant_values": 1}, ValueError,
               "unsupported keyword arguments for mode 'edge': {'constant_values'}"),
              (1, "maximum", {"stat_length": 0}, ValueError, "stat_length of 0 yields no value for padding"),
              (1, "mean", {"stat_length": -1}, ValueError, "index can't contain negative values"),
              ([[1, 2], [3, 4], [5, 6]], "edge", {}, ValueError, "could not be broadcast")]
    for width, mode, kw, cls, msg in errors:
        with pytest.raises(cls) as np_info:
            np.pad(x, width, mode, **kw)
        assert msg in str(np_info.value)
        with pytest.raises(cls) as info:
            tnp.pad(a, width, mode, **kw)
        assert msg in str(info.value)
    np.testing.assert_allclose(tnp.pad(a, 1, "median").get(), np.pad(x, 1, "median"))


def test_pad_with_a_function(device):
    """A function as mode edits 1-D NumPy vectors in place: NumPy's own pad runs on a host copy."""
    def pad_with(vector, width, iaxis, kwargs):
        vector[:width[0]] = kwargs.get("padder", 10)
        vector[-width[1]:] = kwargs.get("padder", 10) + iaxis

    x = np.arange(6).reshape(2, 3)
    a = t(x, device)
    r = tnp.pad(a, 2, pad_with, padder=100)
    assert r.device == a.device
    assert_same(r, np.pad(x, 2, pad_with, padder=100))


def test_copyto(device, rng):
    x = rng.standard_normal((3, 4))
    dst_np = np.zeros((3, 4), np.float32)
    dst = tnp.zeros((3, 4), "float32", device=device)
    np.copyto(dst_np, x)
    tnp.copyto(dst, t(x, device))
    assert_same(dst, dst_np)
    m = rng.random((3, 4)) < 0.5
    np.copyto(dst_np, 7.0, where=m)
    tnp.copyto(dst, 7.0, where=t(m, device))
    assert_same(dst, dst_np)
    np.copyto(dst_np, x[0])
    tnp.copyto(dst, t(x[0], device))
    assert_same(dst, dst_np)
    i = tnp.zeros(3, "int32", device=device)
    with pytest.raises(TypeError):
        np.copyto(np.zeros(3, np.int32), np.ones(3))
    with pytest.raises(TypeError):
        tnp.copyto(i, t(np.ones(3), device))


def test_manipulation_of_lazy_results(device, rng):
    x = rng.standard_normal((4, 6))
    a = t(x, device)
    y = a * 2 + 1  # pending: views of it materialise it first
    assert_same(y.T[::2], (x * 2 + 1).T[::2])
    assert_same(tnp.concatenate([y, a]), np.concatenate([x * 2 + 1, x]))
    assert_same((a + 1).reshape(3, 8), (x + 1).reshape(3, 8))
    assert_same(tnp.flip(a - 1, 0), np.flip(x - 1, 0))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_manipulations_keep_every_dtype(device, rng, dtype):
    x = random(rng, (2, 3, 4), dtype)
    a = t(x, device)
    assert_same(a.reshape(4, 6), x.reshape(4, 6))
    assert_same(a.transpose(1, 2, 0), x.transpose(1, 2, 0))
    assert_same(tnp.concatenate([a, a[::-1]], 2), np.concatenate([x, x[::-1]], 2))
    assert_same(tnp.tile(a[:, :1], (1, 2, 1)), np.tile(x[:, :1], (1, 2, 1)))
    assert_same(tnp.roll(a, 1, 2), np.roll(x, 1, 2))
    assert_same(tnp.pad(a, 1), np.pad(x, 1))


BAD_ARGUMENTS = [
    lambda m, a: m.roll(a, 1, axis=3),
    lambda m, a: m.roll(a, 1, axis=(0, 2)),
    lambda m, a: m.diff(a, n=-1),
    lambda m, a: m.diff(a, axis=5),
    lambda m, a: m.diff(a[0, 0]),
    lambda m, a: m.round(a, decimals=1.5),
    lambda m, a: m.flip(a, axis=(0, 5)),
    lambda m, a: m.repeat(a, 2, axis=5),
    lambda m, a: m.take_along_axis(a, m.argsort(a, axis=1), axis=5),
    lambda m, a: m.gradient(a, axis=5),
    lambda m, a: m.percentile(a, 50, axis=5),
    lambda m, a: m.median(a, axis=(0, 5)),
    lambda m, a: m.quantile(a, 0.5, axis=-3),
    lambda m, a: m.nanmedian(a, axis=5),
    lambda m, a: m.average(a, axis=5, weights=m.ones_like(a)),
    lambda m, a: m.linalg.norm(a, axis=(0, 5)),
    lambda m, a: m.trace(a, axis1=0, axis2=5),
    lambda m, a: m.diagonal(a, axis1=-3, axis2=1),
    lambda m, a: m.cumsum(a, axis=5),
    lambda m, a: m.sort(a, axis=-3),
    lambda m, a: m.unique(a, axis=5),
    lambda m, a: m.fft.fft(a, axis=5),
]


@pytest.mark.parametrize("case", range(len(BAD_ARGUMENTS)))
def test_bad_arguments_raise_numpys_errors(case, device):
    """Out-of-range axes were wrapped around (roll, diff) and bad counts accepted (diff's n, round's decimals)."""
    x = np.arange(12.0).reshape(3, 4)
    with pytest.raises(Exception) as want:
        BAD_ARGUMENTS[case](np, x)
    with pytest.raises(type(want.value)) as got:
        BAD_ARGUMENTS[case](tnp, t(x, device))
    if str(want.value) != "tuple index out of range":  # NumPy's fft: an IndexError by accident (AxisError is one)
        assert str(got.value) == str(want.value)
