"""tegula.numpy's ufuncs as objects with NumPy's ufunc methods, against NumPy: reduce (axis 0 by default, keepdims,
initial, where, dtype), accumulate (cumsum/cumprod and the doubling scans of maximum, minimum, fmax, fmin,
logical_and, logical_or), outer; attributes; at (add/subtract by counting, the other associative ufuncs by
doubling) and reduceat; what is refused, by name."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401

REDUCING = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or"]


@pytest.mark.parametrize("name", REDUCING)
@pytest.mark.parametrize("axis", [0, 1, None, -1])
def test_reduce(name, axis, device, rng):
    x = rng.standard_normal((4, 6))
    if name.startswith("logical"):
        x = x > 0
    if name.startswith("f"):
        x[1, 2] = np.nan
    assert_same(getattr(tnp, name).reduce(t(x, device), axis=axis), getattr(np, name).reduce(x, axis=axis))
    assert_same(getattr(tnp, name).reduce(t(x, device), axis=axis, keepdims=True),
                getattr(np, name).reduce(x, axis=axis, keepdims=True))


def test_reduce_options(device, rng):
    x = rng.standard_normal((3, 5))
    assert_same(tnp.add.reduce(t(x, device)), np.add.reduce(x))  # axis 0 by default, as NumPy
    assert_same(tnp.maximum.reduce(t(x, device), axis=1, initial=0.5), np.maximum.reduce(x, axis=1, initial=0.5))
    w = x > 0
    assert_same(tnp.add.reduce(t(x, device), axis=1, where=t(w, device)), np.add.reduce(x, axis=1, where=w))
    assert_same(tnp.add.reduce(t(np.arange(5, dtype=np.int8), device), dtype=np.int64),
                np.add.reduce(np.arange(5, dtype=np.int8), dtype=np.int64))


@pytest.mark.parametrize("name", REDUCING)
@pytest.mark.parametrize("shape,axis", [((13,), 0), ((5, 9), 1), ((5, 9), 0), ((1, 1), 0), ((4, 0), 1)])
def test_accumulate(name, shape, axis, device, rng):
    x = rng.standard_normal(shape)
    if name.startswith("logical"):
        x = x > -0.5
    if name.startswith("f") and x.size > 3:
        x.flat[3] = np.nan
    assert_same(getattr(tnp, name).accumulate(t(x, device), axis=axis), getattr(np, name).accumulate(x, axis=axis))


def test_outer_and_attributes(device, rng):
    a, b = rng.standard_normal(3), rng.standard_normal((2, 2))
    for name in ("multiply", "maximum", "subtract", "greater"):
        assert_same(getattr(tnp, name).outer(t(a, device), t(b, device)), getattr(np, name).outer(a, b))
    assert isinstance(tnp.add, tnp.ufunc) and tnp.add.__name__ == "add"
    assert (tnp.add.nin, tnp.add.nout, tnp.add.identity) == (2, 1, 0) and tnp.sin.nin == 1
    assert_same(tnp.add(t(a, device), 1.0), a + 1.0)


AT_CASES = [
    (lambda: np.zeros(5), [0, 0, 3], [1.0, 2, 3], "add"),
    (lambda: np.arange(6.0).reshape(2, 3), (slice(None), [0, 0, 2]), [1.0, 2, 3], "add"),
    (lambda: np.zeros(3, np.uint8), [0, 0], 1, "subtract"),
    (lambda: np.zeros(3, np.int64), [0], 1.5, "add"),
    (lambda: np.zeros(3, bool), [0, 0], True, "add"),
    (lambda: np.zeros(4, np.complex64), [1, 1, 2], [1 + 1j, 2j, 3], "add"),
    (lambda: np.arange(12.0).reshape(3, 4).T, ([0, 1, 1], [2, 2, 0]), 5.0, "add"),
    (lambda: np.zeros((3, 3), np.float32), np.array([[1, 0, 1], [0, 0, 0], [1, 1, 1]], bool), 2.0, "add"),
    (lambda: np.zeros(5, np.int8), [4, 4, 4], 100, "add"),
    (lambda: np.ones(4), Ellipsis, 1.0, "subtract"),
    (lambda: np.zeros(6), [0, 0, 3, 5, 3, 0], [1.0, -2, 3, 4, 7, 5], "maximum"),
    (lambda: np.full(6, np.nan), [1, 1, 2], [1.0, np.nan, 2.0], "fmax"),
    (lambda: np.array([1.0, np.nan, 3.0]), [0, 1, 0, 2], [np.nan, 5.0, 1.0, 2.0], "maximum"),
    (lambda: np.arange(12, dtype=np.int32).reshape(3, 4), ([0, 0, 2, 2], [1, 1, 3, 3]), [-5, 7, 100, -100],
     "minimum"),
    (lambda: np.array([5.0, 5.0]), [0, 0, 1], np.array([-1.0, 2.0, -3.0]), "fmin"),
    (lambda: np.ones(4), [1, 1, 1, 3], [2.0, 3.0, 0.5, -1.0], "multiply"),
    (lambda: np.ones(3, np.float32), [0, 0], 2.5, "multiply"),
    (lambda: np.zeros(3, np.int64), [0, 0], 1.5, "maximum"),
    (lambda: np.array([True, True, False]), [0, 0, 2], [True, False, True], "logical_and"),
    (lambda: np.array([0, 1, 2]), [0, 0, 1], [3, 0, 0], "logical_or"),
    (lambda: np.array([0b1111, 0b1010], np.uint8), [0, 0, 1], [0b0110, 0b0011, 0b1000], "bitwise_and"),
    (lambda: np.zeros(3, np.int16), [2, 2, 2], [1, 2, 4], "bitwise_xor"),
    (lambda: np.zeros(4), [], [], "maximum"),
]


@pytest.mark.parametrize("case", range(len(AT_CASES)))
def test_at_applies_every_repeated_index(case, device):
    make, index, b, op = AT_CASES[case]
    want = make()
    getattr(np, op).at(want, index, b)
    src = make()
    got = t(src, device) if src.flags.c_contiguous else t(src.T, device).T
    assert getattr(tnp, op).at(got, index, b) is None
    assert_same(got, want)


REDUCEAT_CASES = [
    ("add", lambda: np.arange(8), [0, 4, 1, 5], 0),
    ("add", lambda: np.arange(10, dtype=np.int8), [0, 3, 3, 9], 0),
    ("add", lambda: np.array([True, True, False, True]), [0, 1], 0),
    ("maximum", lambda: np.arange(8.0).reshape(4, 2), [0, 3], 0),
    ("minimum", lambda: np.random.default_rng(3).standard_normal((5, 37)), [0, 1, 20, 19, 36], 1),
    ("multiply", lambda: np.arange(1, 6), [0, 2], 0),
    ("add", lambda: np.random.default_rng(4).standard_normal((100, 3)), [0, 64, 63, 99, 0], 0),
    ("logical_and", lambda: np.array([1, 2, 0, 3]), [0, 2], 0),
    ("logical_or", lambda: np.array([0, 0, 0, 3]), [0, 3], 0),
    ("fmax", lambda: np.array([np.nan, 1.0, np.nan, np.nan]), [0, 2], 0),
    ("maximum", lambda: np.array([np.nan, 1.0, 2.0]), [0, 1], 0),
    ("add", lambda: np.arange(5.0), [], 0),
    ("add", lambda: np.arange(24.0).reshape(2, 3, 4), [2, 0], -1),
]


@pytest.mark.parametrize("case", range(len(REDUCEAT_CASES)))
def test_reduceat_matches_numpy(case, device):
    op, make, idx, axis = REDUCEAT_CASES[case]
    x = make()
    want = getattr(np, op).reduceat(x, idx, axis=axis)
    got = getattr(tnp, op).reduceat(t(x, device), idx, axis=axis)
    assert_same(got, want, rtol=1e-12)


def test_reduceat_dtype_out_and_errors(device):
    x = np.arange(1, 6)
    assert_same(tnp.multiply.reduceat(t(x, device), [0, 2], dtype=np.float32),
                np.multiply.reduceat(x, [0, 2], dtype=np.float32))
    out = tnp.zeros(2, dtype="int64", device=device)
    assert tnp.add.reduceat(t(x, device), t(np.array([0, 3]), device), out=out) is out
    assert out.get().tolist() == [6, 9]
    for idx in ([0, 7], [-1]):
        with pytest.raises(IndexError) as want:
            np.add.reduceat(x, idx)
        with pytest.raises(IndexError) as got:
            tnp.add.reduceat(t(x, device), idx)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="maximum number of dimension"):
        tnp.add.reduceat(t(x, device), [[0]])
    for bad in (lambda m, v: m.add.reduceat(v[0], [0]), lambda m, v: m.add.reduceat(v, [0], axis=3)):
        with pytest.raises(Exception) as want:  # a 0-d array; an axis out of range
            bad(np, x)
        with pytest.raises(type(want.value)) as got:
            bad(tnp, t(x, device))
        assert str(got.value) == str(want.value)
    with pytest.raises(NotImplementedError, match="subtract.reduceat"):
        tnp.subtract.reduceat(t(x, device), [0, 2])
    with pytest.raises(ValueError, match="binary"):
        tnp.sin.reduceat(t(x, device), [0])


def test_what_is_refused():
    with pytest.raises(NotImplementedError, match="divide.at"):
        tnp.divide.at(tnp.zeros(3), [0, 0], 1.0)
    with pytest.raises(NotImplementedError, match="rounds into the array"):
        tnp.multiply.at(tnp.ones(3, dtype="int64"), [0, 0], 1.5)
    with pytest.raises(IndexError, match="out of bounds"):
        tnp.add.at(tnp.zeros(3), [5], 1.0)
    with pytest.raises(ValueError, match="second operand"):
        tnp.add.at(tnp.zeros(3), [0])
    with pytest.raises(TypeError, match="boolean subtract"):
        tnp.subtract.at(tnp.zeros(3, dtype=bool), [0], True)
    h = np.zeros(3)  # a NumPy array: NumPy's add.at, in place
    tnp.add.at(h, [0, 0], 1.0)
    assert h.tolist() == [2.0, 0.0, 0.0]
    with pytest.raises(NotImplementedError, match="subtract.reduce"):
        tnp.subtract.reduce(tnp.arange(4))
    with pytest.raises(ValueError, match="binary"):
        tnp.sin.reduce(tnp.arange(4.0))
    with pytest.raises(np.exceptions.AxisError, match="axis 5 is out of bounds"):  # not wrapped around
        tnp.maximum.accumulate(tnp.ones((2, 3)), axis=5)


def test_ldexp_takes_a_python_int(device):
    v = np.array([1.5, -2.0, 0.25])
    assert_same(tnp.ldexp(t(v, device), 2), np.ldexp(v, 2))
    assert_same(tnp.ldexp(t(v.astype(np.float32), device), 3), np.ldexp(v.astype(np.float32), 3))


def test_numpy_ufunc_methods_on_tegula_arrays(device):
    """numpy.maximum.accumulate(x) and friends on a tegula array dispatch to tegula.numpy's ufunc objects."""
    x = np.array([[1.0, 5, 2], [4, 0, 6]])
    a = t(x, device)
    assert_same(np.maximum.accumulate(a, axis=1), np.maximum.accumulate(x, axis=1))
    assert_same(np.logical_or.reduce(a > 3, axis=0), np.logical_or.reduce(x > 3, axis=0))
    assert_same(np.multiply.outer(a[0], a[1]), np.multiply.outer(x[0], x[1]))
    np.add.at(a, ([0, 0], [1, 1]), 1.0)
    assert a.get()[0, 1] == 7.0


@pytest.mark.parametrize("op", ["maximum", "minimum", "multiply", "bitwise_or"])
def test_at_and_reduceat_on_random_data(op, device, rng):
    """Many repeats (1000 indices into 50 places) and random slices (sorted and not) against NumPy."""
    if op == "bitwise_or":
        a0, vals = rng.integers(0, 1 << 20, 50), rng.integers(0, 1 << 20, 1000)
    else:
        a0, vals = rng.standard_normal(50), np.exp(rng.standard_normal(1000) * 0.01)
    idx = rng.integers(0, 50, 1000)
    want = a0.copy()
    getattr(np, op).at(want, idx, vals)
    got = t(a0, device)
    getattr(tnp, op).at(got, idx, vals)
    assert_same(got, want, rtol=1e-12)
    if op == "bitwise_or":  # no reduction, so no reduceat
        return
    x = rng.standard_normal((1000, 3))
    starts = np.concatenate([np.sort(rng.integers(0, 1000, 40)), rng.integers(0, 1000, 10)])
    assert_same(getattr(tnp, op).reduceat(t(x, device), starts), getattr(np, op).reduceat(x, starts), rtol=1e-10)
