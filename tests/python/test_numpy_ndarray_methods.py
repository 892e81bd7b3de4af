"""ndarray methods with NumPy's semantics, on the CPU interpreter and (where there is one) the GPU: sort and
partition sort in place and return None (np.sort returns a copy); argpartition, compress, choose, put,
searchsorted; `in`, divmod, copy.copy/deepcopy, @= in place, tobytes."""
import copy

import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import device, rng, t  # noqa: F401


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_is_in_place(axis, device, rng):
    x = rng.standard_normal((4, 6))
    a, n = t(x, device), x.copy()
    if axis is None:  # the method takes no axis=None (np.sort does: a flattened copy)
        for arr in (a, n):
            with pytest.raises(TypeError, match="NoneType"):
                arr.sort(axis=None)
        return
    assert a.sort(axis=axis) is None and n.sort(axis=axis) is None
    np.testing.assert_array_equal(a.get(), n)


def test_partition_is_in_place(device, rng):
    x = rng.standard_normal(9)
    a, n = t(x, device), x.copy()
    assert a.partition(4) is None and n.partition(4) is None
    got = a.get()
    assert got[4] == n[4] and (got[:4] <= got[4]).all() and (got[5:] >= got[4]).all()


def test_selection_methods(device, rng):
    x = rng.standard_normal((3, 5))
    a = t(x, device)
    np.testing.assert_array_equal(a.compress([True, False, True], axis=1).get(),
                                  x.compress([True, False, True], axis=1))
    k = a.argpartition(2, axis=1).get()
    np.testing.assert_array_equal(np.take_along_axis(x, k, axis=1)[:, 2], np.partition(x, 2, axis=1)[:, 2])
    choices = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    np.testing.assert_array_equal(t([0, 2, 1], device).choose(choices).get(), np.array([0, 2, 1]).choose(choices))
    s = t([1.0, 3.0, 5.0], device)
    np.testing.assert_array_equal(np.asarray(s.searchsorted([0, 4, 9], side="right").get()),
                                  np.array([1.0, 3.0, 5.0]).searchsorted([0, 4, 9], side="right"))
    p = tnp.zeros(5, device=device)
    assert p.put([0, 2], [7, 8]) is None
    np.testing.assert_array_equal(p.get(), [7, 0, 8, 0, 0])


def test_operators_and_copies(device):
    a = t([1, 3, -7], device)
    assert 3 in a and 4 not in a
    q, r = divmod(a, 3)
    nq, nr = divmod(np.array([1, 3, -7]), 3)
    np.testing.assert_array_equal(q.get(), nq)
    np.testing.assert_array_equal(r.get(), nr)
    q, r = divmod(7, a)
    nq, nr = divmod(7, np.array([1, 3, -7]))
    np.testing.assert_array_equal(q.get(), nq)
    np.testing.assert_array_equal(r.get(), nr)
    c, d = copy.copy(a), copy.deepcopy(a)
    c[0] = 99
    assert a.get()[0] == 1 and d.get().tolist() == [1, 3, -7]
    assert a.tobytes() == np.array([1, 3, -7]).tobytes()


def test_matmul_in_place(device):
    m = t(np.eye(3), device)
    same = m
    m @= t(2 * np.eye(3), device)
    assert m is same
    np.testing.assert_array_equal(m.get(), 2 * np.eye(3))
    v = tnp.ones((3, 2), device=device)
    with pytest.raises(ValueError, match="matmul"):
        v @= tnp.ones((2, 4), device=device)


def test_matrix_transpose_needs_two_axes(device):
    with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):
        _ = t([1, 2], device).mT
    assert t(np.ones((2, 3)), device).mT.shape == (3, 2)


def test_flat_reads_and_writes_in_c_order(device):
    x = np.arange(12).reshape(3, 4)
    a = t(x, device)
    assert a.flat[5].item() == 5 and len(a.flat) == 12
    np.testing.assert_array_equal(a.flat[[1, 3]].get(), x.flat[[1, 3]])
    np.testing.assert_array_equal(a.flat[2:5].get(), x.flat[2:5])
    assert [int(v) for v in t(np.arange(3), device).flat] == [0, 1, 2]
    assert a.flat.copy().shape == (12,) and np.asarray(a.flat).tolist() == list(range(12))
    for make in (lambda: x.copy(), lambda: x.T.copy()):  # C-ordered, and a transposed (non-contiguous) view
        n = make()
        g = t(n, device) if n.flags.c_contiguous else t(n.T, device).T
        for op in (lambda z: z.flat.__setitem__([0, 1, 2, 3], [7, 8]), lambda z: z.flat.__setitem__(1, 100),
                   lambda z: z.flat.__setitem__([0, 1], [])):
            op(n)
            op(g)
            np.testing.assert_array_equal(g.get(), n)
        n.flat, g.flat = [1, 2, 3], [1, 2, 3]
        np.testing.assert_array_equal(g.get(), n)
        n.flat, g.flat = 5, 5
        np.testing.assert_array_equal(g.get(), n)


def test_view_shares_memory_and_names_what_it_cannot_do(device):
    a = tnp.arange(4, device=device)
    v = a.view()
    assert v is not a
    v[0] = 9
    assert a.get().tolist() == [9, 1, 2, 3] and a.view(np.int64).get().tolist() == [9, 1, 2, 3]
    with pytest.raises(NotImplementedError, match="subclasses"):
        a.view(np.ndarray)
    with pytest.raises(NotImplementedError, match="a != 0"):
        a.view(bool)


VIEWS = [("float32", "int32"), ("float32", "uint8"), ("float32", "float64"), ("float64", "float32"),
         ("complex128", "float64"), ("float64", "complex128"), ("int64", "int16"), ("uint8", "int32"),
         ("float16", "int16"), ("complex64", "uint32"), ("bool", "uint8")]


@pytest.mark.parametrize("src,dst", VIEWS)
@pytest.mark.parametrize("part", ["whole", "rows", "columns"])
def test_view_as_another_dtype_reads_the_same_bytes(src, dst, part, device, rng):
    """ndarray.view(dtype): NumPy's shape and bits, through row and column slices, and writes through the view
    reach the original."""
    x = (rng.standard_normal((4, 16)) * 100).astype(src) if src != "bool" else rng.random((4, 16)) > 0.5
    if src.startswith("complex"):
        x = x + 1j * rng.standard_normal((4, 16)).astype(src)
    key = {"whole": (slice(None),), "rows": (slice(1, 3),), "columns": (slice(None), slice(4, 12))}[part]
    a = t(x, device)[key]
    want = x[key].view(dst)
    got = a.view(dst)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.get().tobytes() == want.tobytes()
    if src == "bool":
        return
    # a write through the view changes the original's bytes as NumPy's does
    xx = x.copy()
    xx[key].view(dst)[..., :1] = want[..., 1:2]
    got[..., :1] = a.view(dst)[..., 1:2]
    assert t(x, device)[key].dtype == a.dtype and a.get().tobytes() == xx[key].tobytes()


def test_view_as_bfloat16_and_back(device):
    bits = np.array([0x3F80, 0x4000, 0xC040, 0x7F80], dtype=np.uint16)  # 1, 2, -3, inf in bfloat16
    b = t(bits, device).view("bfloat16")
    assert b.dtype == "bfloat16" and b.astype("float32").get().tolist() == [1.0, 2.0, -3.0, np.inf]
    assert b.view(np.uint16).get().tolist() == bits.tolist()


def test_view_dtype_errors_match_numpy(device):
    x = np.zeros((3, 4), np.float32)
    cases = [lambda m, a: m.asarray(1.0, dtype=np.float32).view(np.int16) if m is tnp else np.zeros((), np.float32).view(np.int16),
             lambda m, a: a.T.view(np.int16),
             lambda m, a: a[:, :3].view(np.float64)]
    for case in cases:
        with pytest.raises(ValueError) as want:
            case(np, x)
        with pytest.raises(ValueError) as got:
            case(tnp, t(x, device))
        assert str(got.value) == str(want.value)
    with pytest.raises(NotImplementedError, match="whole number"):
        t(np.zeros((4, 6), np.float32), device)[:, :3][::1, 1:3].view(np.float64)  # offset of 1 float32
    with pytest.raises(TypeError, match="does not support dtype"):
        t(x, device).view("S4")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "bool", "complex64", "bfloat16"])
def test_pickle_round_trip(dtype, device):
    import pickle

    x = (np.arange(6).reshape(2, 3) % 3 == 0) if dtype == "bool" else np.arange(6).reshape(2, 3).astype(
        "float32" if dtype == "bfloat16" else dtype)
    a = t(x, device).astype(dtype).T
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, tnp.ndarray) and b._dtype_name == a._dtype_name and b.shape == a.shape
    assert b.device == a.device and bool((b == a).all())


def test_generic_alias_for_annotations():
    alias = tnp.ndarray[tuple, np.dtype[np.float64]]
    assert alias.__origin__ is tnp.ndarray and alias.__args__ == (tuple, np.dtype[np.float64])


def test_files_pickles_and_small_names(device, tmp_path):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = t(x, device)
    a.tofile(str(tmp_path / "raw.bin"))
    assert np.array_equal(np.fromfile(str(tmp_path / "raw.bin"), np.float32).reshape(2, 3), x)
    a.tofile(str(tmp_path / "text.txt"), sep=",")
    assert open(tmp_path / "text.txt").read() == "0.0,1.0,2.0,3.0,4.0,5.0"
    import pickle

    b = pickle.loads(a.dumps())
    assert b.device == a.device and np.array_equal(b.get(), x)
    a.dump(str(tmp_path / "a.pkl"))
    with open(tmp_path / "a.pkl", "rb") as f:
        assert np.array_equal(pickle.load(f).get(), x)
    assert tnp.uint is np.uint and tnp.little_endian == np.little_endian
    assert isinstance(a.flat, tnp.flatiter)


@pytest.mark.parametrize("op,name", [("__itruediv__", "divide"), ("__ipow__", "power"), ("__isub__", "subtract")])
def test_in_place_cast_errors_name_numpys_ufunc(op, name, device):
    with pytest.raises(TypeError, match=f"Cannot cast ufunc '{name}' output from dtype"):
        getattr(tnp.arange(3, device=device), op)(2.5)
