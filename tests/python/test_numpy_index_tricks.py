"""NumPy's index tricks and scalar type names in tegula.numpy, against NumPy: mgrid/ogrid (dense and sparse grids,
real and complex steps), r_/c_ (slices, scalars, arrays, directives, NEP 50 promotion), their errors; s_, index_exp,
ndindex and ndenumerate; the abstract scalar kinds and C-named aliases; and NumPy's OverflowError for Python ints
out of a requested integer dtype's range."""
import numpy as np
import pytest

import tegula.numpy as tnp

GRIDS = ["mgrid[0:1:3j, 0:2:2j]", "mgrid[0:5, 0:3]", "mgrid[0:5:2, 1.5:3]", "mgrid[0:1:1j, 0:3]", "mgrid[0:1:3j]",
         "mgrid[0:5:2]", "mgrid[2:3:1j]", "mgrid[-1:1:0.5]", "mgrid[0:3, 0:2, 0:4:2]", "mgrid[5:0:-2]",
         "ogrid[0:1:3j, 0:2:2j]", "ogrid[0:5, 0:3]", "ogrid[0:5]", "ogrid[0:3, 0:2, 0:4:2]"]
CONCATS = ["r_[1, 2, np.array([3, 4]), 0:3, 0.5]", "r_[np.int8(1), np.array([1, 2], np.int8)]",
           "r_[7, np.array([1, 2], np.int8)]", "c_[np.array([1, 2, 3]), np.array([4, 5, 6])]",
           "r_['0,2', [1, 2, 3], [4, 5, 6]]", "r_['0,2,0', [1, 2, 3], [4, 5, 6]]", "r_['1,2,0', [1, 2, 3], [4, 5, 6]]",
           "r_[-1:1:6j, [0] * 3, 5, 6]", "c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])]", "r_['0,2', 1:4]",
           "r_['0,3,1', [1, 2]]", "r_['-1,3,-2', [1, 2]]", "r_[np.array([[1, 2], [3, 4]]), np.array([[5, 6]])]",
           "c_[0:3, 1:4]", "r_['1', np.ones((2, 2)), np.zeros((2, 1))]", "r_[True, False]", "r_[1j, 2]",
           "r_[np.float32(1.5), np.arange(3, dtype=np.float32)]", "r_[3]", "r_['1,2,0,9', [1]]"]


def _same(expected, got):
    got = got.get() if isinstance(got, tnp.ndarray) else got
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, got.shape, expected.dtype,
                                                                         expected.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-15, atol=0)


@pytest.mark.parametrize("expr", GRIDS + CONCATS)
def test_matches_numpy(expr):
    expected, got = eval("np." + expr), eval("tnp." + expr)  # noqa: S307 - the expressions above
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for e, g in zip(expected, got):
            _same(e, g)
    else:
        assert isinstance(got, tnp.ndarray)
        _same(expected, got)


def test_device_arrays_concatenate():
    a, b = tnp.arange(3), tnp.asarray([[1.5, 2.5]])
    _same(np.r_[np.arange(3), 7, 0:2], tnp.r_[a, 7, 0:2])
    _same(np.c_[np.array([[1.5, 2.5]]), 1], tnp.c_[b, 1])


@pytest.mark.parametrize("expr,error", [("r_[()]", ValueError), ("r_[1, 'a']", ValueError),
                                        ("r_['x', 1]", ValueError), ("r_['1,y', [1]]", ValueError),
                                        ("r_[1000, np.array([1, 2], np.int8)]", OverflowError),
                                        ("r_[[1, 2], [[3]]]", ValueError)])
def test_errors_match_numpy(expr, error):
    for mod in ("np", "tnp"):
        with pytest.raises(error):
            eval(f"{mod}.{expr}")  # noqa: S307


def test_matrix_directives_are_named():
    with pytest.raises(NotImplementedError, match="np.matrix"):
        tnp.r_["r", [1, 2]]
    with pytest.raises(TypeError, match="slices"):
        tnp.mgrid[0:3, 5]


def test_pure_index_helpers():
    assert tnp.s_[1:2, ::3] == np.s_[1:2, ::3] and tnp.index_exp[2] == np.index_exp[2]
    assert list(tnp.ndindex(2, 3)) == list(np.ndindex(2, 3))
    x = np.arange(6.0).reshape(2, 3)
    assert list(tnp.ndenumerate(tnp.asarray(x))) == list(np.ndenumerate(x))


def test_scalar_kinds_and_aliases():
    a = tnp.arange(4)
    assert tnp.issubdtype(a.dtype, tnp.integer) and tnp.issubdtype(a.dtype, tnp.signedinteger)
    assert tnp.issubdtype((a * 0.5).dtype, tnp.floating) and tnp.issubdtype((a * 1j).dtype, tnp.complexfloating)
    assert not tnp.issubdtype(a.dtype, tnp.inexact) and tnp.issubdtype(tnp.uint8, tnp.unsignedinteger)
    for name in ("int_", "intp", "uintp", "intc", "uintc", "byte", "ubyte", "short", "ushort", "long", "ulong",
                 "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble", "generic", "number"):
        assert getattr(tnp, name) is getattr(np, name), name
    for name in ("intp", "intc", "short", "half", "double", "csingle"):
        assert tnp.zeros(2, dtype=getattr(tnp, name)).dtype == np.dtype(getattr(np, name))
    assert tnp.True_ is np.True_ and tnp.typecodes == np.typecodes


@pytest.mark.parametrize("call", ["array(1000, dtype='int8')", "asarray([1, 1000], dtype='int8')",
                                  "array(-1, dtype='uint8')", "asarray(2 ** 64, dtype='uint64')"])
def test_python_ints_out_of_range_raise_overflow_error(call):
    with pytest.raises(OverflowError, match="out of bounds|too large"):
        eval("np." + call)  # noqa: S307
    with pytest.raises(OverflowError, match="out of bounds|too large"):
        eval("tnp." + call)  # noqa: S307
    # NumPy arrays cast (and wrap) as NumPy's array() does
    assert tnp.array(np.array([1000]), dtype="int8").get().tolist() == [-24]


def test_broadcast_object():
    a, b = tnp.ones((3, 1)), tnp.arange(4.0)
    got, want = tnp.broadcast(a, b, 2.0), np.broadcast(np.ones((3, 1)), np.arange(4.0), 2.0)
    assert (got.shape, got.nd, got.ndim, got.size, got.numiter) == (want.shape, want.nd, want.ndim, want.size,
                                                                     want.numiter)
    assert list(got) == list(want) and got.index == 12
    got.reset()
    assert got.index == 0
    with pytest.raises(ValueError) as w:
        np.broadcast(np.ones(3), np.ones(4))
    with pytest.raises(ValueError) as g:
        tnp.broadcast(tnp.ones(3), tnp.ones(4))
    assert str(g.value) == str(w.value)
