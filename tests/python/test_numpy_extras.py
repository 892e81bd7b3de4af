"""NumPy functions tegula.numpy builds from its own operations (_construct, _mathextra, _reshaping): each case runs
the same call through NumPy and tegula.numpy and compares values, dtypes and shapes (exactly for integers and
booleans, to rounding for floats), then the in-place writers and NumPy's errors."""
import math

import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error, device  # noqa: F401

RNG = np.random.default_rng(31)
A = RNG.standard_normal((4, 5))
I = RNG.integers(-9, 9, (4, 5))
V = RNG.standard_normal(7)
X = np.sort(RNG.uniform(0, 10, 9))
P = np.array([1.0, -3.0, 2.0])
BITS = RNG.integers(0, 2, (3, 11))

CASES = {
    # construction
    "logspace": lambda m: m.logspace(0, 3, 7),
    "logspace base axis": lambda m: m.logspace([0, 1], [2, 3], 4, base=2.0, axis=1),
    "geomspace": lambda m: m.geomspace(1, 1000, 4),
    "geomspace negative": lambda m: m.geomspace(-1000, -1, 4, endpoint=False),
    "geomspace complex": lambda m: m.geomspace(1j, 1000j, 4),
    "geomspace mixed signs": lambda m: m.geomspace(-1, 1, 3),
    "indices": lambda m: m.indices((2, 3)),
    "indices sparse": lambda m: m.indices((2, 3), sparse=True),
    "fromfunction": lambda m: m.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
    "diag of 1-D": lambda m: m.diag(m.asarray([1, 2, 3]), 1),
    "diag of 1-D below": lambda m: m.diag(m.asarray([1.0, 2.0]), -2),
    "diag of 2-D": lambda m: m.diag(m.asarray(A), -1),
    "diagflat": lambda m: m.diagflat(m.asarray([[1, 2], [3, 4]])),
    "vander": lambda m: m.vander(m.asarray([1.0, 2.0, 3.0]), 4),
    "vander increasing int": lambda m: m.vander(m.asarray([1, 2, 3]), increasing=True),
    "tril_indices": lambda m: m.tril_indices(4, -1),
    "triu_indices m": lambda m: m.triu_indices(3, 1, 5),
    "tril_indices_from": lambda m: m.tril_indices_from(m.asarray(A)),
    "diag_indices_from": lambda m: m.diag_indices_from(m.ones((3, 3, 3))),
    "atleast_3d": lambda m: [x.shape for x in m.atleast_3d(m.asarray(1.0), m.ones(3), m.ones((2, 3)))],
    "bartlett": lambda m: m.bartlett(7), "blackman": lambda m: m.blackman(8), "hamming": lambda m: m.hamming(6),
    "hanning": lambda m: m.hanning(5), "kaiser": lambda m: m.kaiser(9, 4.5), "hanning 1": lambda m: m.hanning(1),
    # mathematics
    "cbrt": lambda m: m.cbrt(m.asarray([-27.0, -1e-300, 0.0, 8.0, 1e300, np.inf, -np.inf, np.nan, 2.0])),
    "cbrt int": lambda m: m.cbrt(m.asarray([-8, 27])),
    "gcd": lambda m: m.gcd(m.asarray([12, -18, 0, 7, 0]), m.asarray([18, 24, 5, 0, 0])),
    "lcm": lambda m: m.lcm(m.asarray([4, -6, 0, 7]), m.asarray([6, 4, 5, 3])),
    "divmod": lambda m: m.divmod(m.asarray([7, -7, 7.5]), m.asarray([2, 2, -2])),
    "modf": lambda m: m.modf(m.asarray([-3.5, 2.25, 0.0, np.inf, -np.inf])),
    "frexp": lambda m: m.frexp(m.asarray([0.0, 1.0, -3.0, 1024.0, 0.1, 1e-310, np.inf])),
    "ldexp": lambda m: m.ldexp(m.asarray([1.0, -3.0, 0.5, 1.0]), m.asarray([2, 3, -1, 1023])),
    "heaviside": lambda m: m.heaviside(m.asarray([-1.5, 0.0, 2.0, np.nan]), 0.5),
    # both operands' dtypes promote (the first's alone made float32 of these): NumPy's float loops
    "heaviside f32 by f64 scalar": lambda m: m.heaviside(m.asarray([-1.5, 0.0, 2.0], dtype=np.float32), np.float64(.5)),
    "heaviside scalar first": lambda m: m.heaviside(np.float32(0.0), m.asarray([-1.5, 0.0, 2.0])),
    "heaviside int by weak float": lambda m: m.heaviside(m.asarray([-1, 0, 2], dtype=np.int16), 0.5),
    "heaviside weak float by f32": lambda m: m.heaviside(0.0, m.asarray([-1.5, 0.0, 2.0], dtype=np.float32)),
    "sinc": lambda m: m.sinc(m.asarray([0.0, 0.5, 1.0, -2.5])),
    "i0": lambda m: m.i0(m.asarray([0.0, 0.5, -3.0, 14.9, 15.1, 29.9, 30.1, 40.0, 300.0])),
    "bitwise_count": lambda m: [m.bitwise_count(m.asarray(np.array([0, 1, 7, 100, -1, -128], dtype=dt)))
                                for dt in ("int8", "int16", "int64")] +
                               [m.bitwise_count(m.asarray(np.array([0, 255, 2**63 + 5], dtype=np.uint64)))],
    "spacing": lambda m: m.spacing(m.asarray([1.0, -1.0, 0.0, 1e300, np.inf, np.nan, -2.5])),
    "spacing float32": lambda m: m.spacing(m.asarray(np.array([1.0, -3.0], dtype=np.float32))),
    "mask_indices": lambda m: m.mask_indices(4, m.triu, 1),
    "apply_over_axes": lambda m: m.apply_over_axes(m.sum, m.asarray(np.arange(24).reshape(2, 3, 4)), [0, 2]),
    "require": lambda m: m.require(m.asarray(np.arange(6.0).reshape(2, 3)).T, "float32", ["C"]),
    "cross": lambda m: m.cross(m.asarray([1, 2, 3]), m.asarray([4, 5, 6])),
    "cross 2-D vectors": lambda m: m.cross(m.asarray([[1, 2], [3, 4]]), m.asarray([[5, 6], [7, 8]])),
    "cross 2 and 3": lambda m: m.cross(m.asarray([1, 2]), m.asarray([4, 5, 6])),
    "cross axes": lambda m: m.cross(m.asarray(np.arange(6).reshape(3, 2)), m.asarray(np.arange(6, 12).reshape(3, 2)),
                                    axisa=0, axisb=0),
    "cross axisc": lambda m: m.cross(m.asarray(A[:, :3]), m.asarray(A[:, 1:4]), axisc=0),
    "ix_": lambda m: m.ix_(m.asarray([0, 1]), m.asarray([2, 4])),
    "ix_ bool": lambda m: m.ix_(m.asarray(np.array([True, False, True]))),
    "packbits": lambda m: m.packbits(m.asarray(np.array([[2, 0, 1], [0, 1, 1]])), axis=None),
    "packbits axis little": lambda m: m.packbits(m.asarray(BITS), axis=1, bitorder="little"),
    "unpackbits": lambda m: m.unpackbits(m.asarray(np.array([[2], [7]], dtype=np.uint8)), axis=1),
    "unpackbits count": lambda m: [m.unpackbits(m.asarray(np.array([7, 200], dtype=np.uint8)), count=c, bitorder=o)
                                   for c, o in ((3, "big"), (-2, "little"), (20, "big"))],
    "polydiv": lambda m: m.polydiv(m.asarray([3.0, 5, 2]), m.asarray([2.0, 1])),
    "polydiv exact": lambda m: m.polydiv(m.asarray([1, 2, 3]), m.asarray([1])),
    "einsum_path": lambda m: m.einsum_path("ij,jk,kl->il", m.ones((2, 3)), m.ones((3, 4)), m.ones((4, 5)))[0],
    "isposinf": lambda m: m.isposinf(m.asarray([np.inf, -np.inf, 1.0, np.nan])),
    "isneginf": lambda m: m.isneginf(m.asarray([np.inf, -np.inf, 1.0, np.nan])),
    "ptp": lambda m: m.ptp(m.asarray(A), axis=1),
    "ptp all": lambda m: m.ptp(m.asarray(I)),
    "nancumsum": lambda m: m.nancumsum(m.asarray([1.0, np.nan, 2.0, np.nan])),
    "nancumprod axis": lambda m: m.nancumprod(m.asarray([[1.0, np.nan], [2.0, 3.0]]), axis=0),
    "ediff1d": lambda m: m.ediff1d(m.asarray(I), to_begin=[-1], to_end=[100, 200]),
    "gradient": lambda m: m.gradient(m.asarray(V)),
    "gradient 2-D spacing": lambda m: m.gradient(m.asarray(A), 0.5, 2.0),
    "gradient coords edge 2": lambda m: m.gradient(m.asarray(X ** 2), m.asarray(X), edge_order=2),
    "gradient axis": lambda m: m.gradient(m.asarray(A), axis=1, edge_order=2),
    "trapezoid": lambda m: m.trapezoid(m.asarray(A)),
    "trapezoid x": lambda m: m.trapezoid(m.asarray(X ** 2), m.asarray(X)),
    "trapezoid dx axis": lambda m: m.trapezoid(m.asarray(A), dx=0.5, axis=0),
    "interp": lambda m: m.interp(m.asarray([-1.0, 0.0, 2.5, 5.0, 9.99, 12.0]), m.asarray(X), m.asarray(np.sin(X))),
    "interp left right": lambda m: m.interp(m.asarray([-1.0, 20.0]), m.asarray(X), m.asarray(X), left=-5, right=7),
    "interp period": lambda m: m.interp(m.asarray([-180.0, -170, -185, 185, -10, -5, 0, 365]),
                                        m.asarray([190.0, -190, 350, -350]), m.asarray([5.0, 10, 3, 4]), period=360),
    "interp complex": lambda m: m.interp(m.asarray([0.5, 1.5]), m.asarray([0.0, 1.0, 2.0]),
                                         m.asarray([1 + 1j, 2 - 1j, 0j])),
    "unwrap": lambda m: m.unwrap(m.asarray(np.array([0, 0.78, 5.49, 6.28, 0.1, 6.5]))),
    "unwrap period": lambda m: m.unwrap(m.asarray(np.array([2.0, 3, 4, 5, 2, 3, 4, 5])), period=4),
    "average": lambda m: m.average(m.asarray(A)),
    "average weights axis": lambda m: m.average(m.asarray(A), axis=1, weights=m.asarray(np.arange(1.0, 6.0))),
    "average returned": lambda m: m.average(m.asarray(A), axis=0, weights=m.asarray(np.abs(A)), returned=True),
    "cov": lambda m: m.cov(m.asarray(A)),
    "cov y rowvar bias": lambda m: m.cov(m.asarray(A), m.asarray(A[::-1]), rowvar=False, bias=True),
    "cov weights": lambda m: m.cov(m.asarray(A), fweights=m.asarray([1, 2, 1, 3, 1]),
                                   aweights=m.asarray([0.5, 1.0, 2.0, 1.0, 1.0])),
    "cov 1-D": lambda m: m.cov(m.asarray(V)),
    "corrcoef": lambda m: m.corrcoef(m.asarray(A)),
    "array_equiv": lambda m: [m.array_equiv(m.asarray([1, 2]), m.asarray([[1, 2], [1, 2]])),
                              m.array_equiv(m.asarray([1, 2]), m.asarray([[1, 2], [1, 3]])),
                              m.array_equiv(m.asarray([1, 2]), m.asarray([1, 2, 3]))],
    "sort_complex": lambda m: m.sort_complex(m.asarray([5, 3, 6, 2, 1])),
    "matvec": lambda m: m.matvec(m.asarray(RNG.standard_normal((2, 3, 4)) * 0 + 1.5), m.asarray(np.arange(4.0))),
    "vecmat": lambda m: m.vecmat(m.asarray(np.arange(3.0)), m.asarray(A[:3])),
    "polyval": lambda m: m.polyval(m.asarray(P), m.asarray(V)),
    "polyfit": lambda m: m.polyfit(m.asarray(X), m.asarray(2 * X ** 2 - X + 3), 2),
    "polyfit weights": lambda m: m.polyfit(m.asarray(X), m.asarray(np.sin(X)), 3, w=m.asarray(np.linspace(1, 2, 9))),
    "polyfit full": lambda m: m.polyfit(m.asarray(X), m.asarray(np.sin(X)), 3, full=True),
    "polyfit cov": lambda m: m.polyfit(m.asarray(X), m.asarray(np.sin(X)), 3, cov=True),
    "polyfit cov unscaled 2-D": lambda m: m.polyfit(m.asarray(X), m.asarray(np.stack([np.sin(X), X], 1)), 2,
                                                    cov="unscaled"),
    "polyadd": lambda m: m.polyadd(m.asarray([1, 2]), m.asarray([9, 5, 4])),
    "polysub": lambda m: m.polysub(m.asarray([1.0, 2]), m.asarray([9.0, 5, 4])),
    "polymul": lambda m: m.polymul(m.asarray([1, 2, 3]), m.asarray([9, 5, 1])),
    "polyder": lambda m: m.polyder(m.asarray([1.0, 1, 1, 1]), 2),
    "polyint": lambda m: m.polyint(m.asarray([1.0, 1, 1]), 2, k=[3, 4]),
    # manipulation
    "append": lambda m: m.append(m.asarray([1, 2]), m.asarray([[3, 4]])),
    "append axis": lambda m: m.append(m.asarray(I), m.asarray(I[:1]), axis=0),
    "delete": lambda m: m.delete(m.asarray(I), [0, 2], axis=1),
    "delete slice flat": lambda m: m.delete(m.asarray(I), slice(2, 11, 3)),
    "delete mask": lambda m: m.delete(m.asarray(np.arange(5)), np.array([True, False, True, False, False])),
    "insert scalar": lambda m: m.insert(m.asarray(I), 1, 99, axis=1),
    "insert many": lambda m: m.insert(m.asarray(np.arange(6)), [1, 1, 5, 6], [10, 20, 30, 40]),
    "insert flat": lambda m: m.insert(m.asarray(I), 3, [7, 8]),
    "insert rows": lambda m: m.insert(m.asarray(I), [0, 4], m.asarray(I[:2]), axis=0),
    "column_stack": lambda m: m.column_stack([m.asarray([1, 2, 3]), m.asarray(I[:3, :2])]),
    "row_stack": lambda m: m.vstack([m.asarray([1, 2]), m.asarray([[3, 4]])]),
    "dstack": lambda m: m.dstack([m.asarray([1, 2]), m.asarray([3, 4])]),
    "hsplit": lambda m: m.hsplit(m.asarray(np.arange(12.0).reshape(3, 4)), 2),
    "hsplit 1-D": lambda m: m.hsplit(m.asarray(np.arange(6)), [1, 4]),
    "vsplit": lambda m: m.vsplit(m.asarray(I), [1, 3]),
    "dsplit": lambda m: m.dsplit(m.asarray(np.arange(24).reshape(2, 3, 4)), 2),
    "rot90": lambda m: m.rot90(m.asarray(I)),
    "rot90 k": lambda m: [m.rot90(m.asarray(np.arange(24).reshape(2, 3, 4)), k, axes) for k, axes in
                          ((2, (0, 1)), (3, (1, 2)), (-1, (2, 0)), (4, (0, 2)))],
    "rollaxis": lambda m: m.rollaxis(m.ones((3, 4, 5, 6)), 3, 1).shape,
    "rollaxis start": lambda m: m.rollaxis(m.ones((3, 4, 5, 6)), 1, 4).shape,
    "resize": lambda m: m.resize(m.asarray([[0, 1], [2, 3]]), (2, 3)),
    "resize grow": lambda m: m.resize(m.asarray([1, 2, 3]), 7),
    "trim_zeros": lambda m: m.trim_zeros(m.asarray([0, 0, 1, 2, 0, 3, 0])),
    "trim_zeros b": lambda m: m.trim_zeros(m.asarray([0, 0, 1, 2, 0, 3, 0]), "b"),
    "ravel_multi_index": lambda m: m.ravel_multi_index((m.asarray([3, 6, 6]), m.asarray([4, 5, 1])), (7, 6)),
    "ravel_multi_index F clip": lambda m: m.ravel_multi_index((m.asarray([3, 9]), m.asarray([4, -1])), (7, 6),
                                                                mode="clip", order="F"),
    "unravel_index": lambda m: m.unravel_index(m.asarray([22, 41, 37]), (7, 6)),
    "unravel_index F": lambda m: m.unravel_index(m.asarray([31, 41, 13]), (7, 6), order="F"),
    "select": lambda m: m.select([m.asarray(V) < -0.5, m.asarray(V) > 0.5], [m.asarray(V) * 10, m.asarray(V) * 100],
                                 default=-1.0),
    "choose": lambda m: m.choose(m.asarray([2, 3, 1, 0]), [m.asarray([0, 1, 2, 3]), m.asarray([10, 11, 12, 13]),
                                                            m.asarray([20, 21, 22, 23]), m.asarray([30, 31, 32, 33])]),
    "choose clip": lambda m: m.choose(m.asarray([2, 4, 1, 0]), [m.asarray([0, 1, 2, 3]), m.asarray([10, 11, 12, 13]),
                                                                m.asarray([20, 21, 22, 23])], mode="clip"),
    "piecewise": lambda m: m.piecewise(m.asarray(V), [m.asarray(V) < 0, m.asarray(V) >= 0],
                                       [lambda x: -x, lambda x: x * 2]),
    "piecewise default": lambda m: m.piecewise(m.asarray([-2.0, 0.0, 3.0]), [m.asarray([-2.0, 0.0, 3.0]) > 0],
                                               [lambda x: x ** 2, 7.0]),
    "apply_along_axis": lambda m: m.apply_along_axis(lambda r: r.max() - r.min(), 1, m.asarray(A)),
    "apply_along_axis vector": lambda m: m.apply_along_axis(lambda r: r[::-1] * 2, 0, m.asarray(A)),
    "block": lambda m: m.block([[m.asarray(np.eye(2)), m.zeros((2, 3))], [m.ones((1, 2)), m.asarray([[5, 6, 7]])]]),
    "block 1-D": lambda m: m.block([m.asarray([1, 2]), 3, m.asarray([4])]),
}


def _host(x):
    if isinstance(x, (tuple, list)):
        return [_host(y) for y in x]
    return x.get() if hasattr(x, "get") else x


def _same(got, want, name):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), name
        for g, w in zip(got, want):
            _same(g, w, name)
        return
    if isinstance(want, str):
        assert got == want, (name, got, want)
        return
    w = np.asarray(want)
    g = np.asarray(got)
    assert g.shape == w.shape, (name, g.shape, w.shape)
    if isinstance(want, np.ndarray):
        assert g.dtype == w.dtype, (name, g.dtype, w.dtype)
    if w.dtype.kind in "biu" or w.dtype == object:
        np.testing.assert_array_equal(g, w, err_msg=name)
    else:
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("name", list(CASES))
def test_as_numpy(name):
    if _numpy_raises(CASES[name]):  # this NumPy refuses the case (cross of 2-vectors from NumPy 2.5): so must we
        assert_same_error(CASES[name])
        return
    with np.errstate(all="ignore"):
        want = CASES[name](np)
    got = _host(CASES[name](tnp))
    _same(got, want, name)


def _numpy_raises(case):
    try:
        with np.errstate(all="ignore"):
            case(np)
    except Exception:
        return True
    return False


def test_in_place_writers():
    a, w = tnp.zeros((4, 4)), np.zeros((4, 4))
    tnp.fill_diagonal(a, 5.0)
    np.fill_diagonal(w, 5.0)
    np.testing.assert_array_equal(a.get(), w)
    t, u = tnp.zeros((7, 3)), np.zeros((7, 3))
    tnp.fill_diagonal(t, [1.0, 2.0], wrap=True)
    np.fill_diagonal(u, [1.0, 2.0], wrap=True)
    np.testing.assert_array_equal(t.get(), u)
    c, d = tnp.zeros((3, 3, 3)), np.zeros((3, 3, 3))
    tnp.fill_diagonal(c, 4.0)
    np.fill_diagonal(d, 4.0)
    np.testing.assert_array_equal(c.get(), d)
    p, q = tnp.asarray(np.arange(8)), np.arange(8)
    tnp.put(p, [0, -1, 3], [10, 20])
    np.put(q, [0, -1, 3], [10, 20])
    np.testing.assert_array_equal(p.get(), q)
    tnp.put(p, [9, -12], [1, 2], mode="clip")
    np.put(q, [9, -12], [1, 2], mode="clip")
    np.testing.assert_array_equal(p.get(), q)
    r, s = tnp.asarray(np.arange(6.0)), np.arange(6.0)
    tnp.place(r, r.get() > 2, [44, 55])
    np.place(s, s > 2, [44, 55])
    np.testing.assert_array_equal(r.get(), s)
    m, n = tnp.asarray(np.arange(6).reshape(2, 3)), np.arange(6).reshape(2, 3)
    tnp.putmask(m, m.get() > 2, [-1, -2])
    np.putmask(n, n > 2, [-1, -2])
    np.testing.assert_array_equal(m.get(), n)
    g, h = tnp.asarray(np.arange(12.0).reshape(3, 4)), np.arange(12.0).reshape(3, 4)
    idx = np.argmax(h, axis=1)[:, None]
    tnp.put_along_axis(g, tnp.asarray(idx), 99.0, axis=1)
    np.put_along_axis(h, idx, 99.0, axis=1)
    np.testing.assert_array_equal(g.get(), h)


ERRORS = [
    lambda m: m.geomspace(0, 10), lambda m: m.diag(m.ones((2, 2, 2))), lambda m: m.vander(m.ones((2, 2))),
    lambda m: m.tril_indices_from(m.ones(3)), lambda m: m.diag_indices_from(m.ones((2, 3))),
    lambda m: m.delete(m.ones(3), 5), lambda m: m.insert(m.ones(3), 9, 1), lambda m: m.rot90(m.ones((2, 2)), axes=(0, 0)),
    lambda m: m.rollaxis(m.ones((2, 2)), 4), lambda m: m.resize(m.ones(3), (-1,)), lambda m: m.vsplit(m.ones(3), 3),
    lambda m: m.select([m.ones(2) > 0], []), lambda m: m.choose(m.asarray([5]), [m.ones(1), m.ones(1)]),
    lambda m: m.unravel_index(m.asarray([50]), (7, 6)), lambda m: m.ravel_multi_index((m.asarray([9]), m.asarray([0])), (7, 6)),
    lambda m: m.interp(m.ones(2), m.ones(3), m.ones(2)), lambda m: m.interp(m.ones(2), [1.0, 2.0], [1.0, 2.0], period=0),
    lambda m: m.average(m.ones((2, 3)), weights=m.ones(3)), lambda m: m.average(m.ones(3), weights=m.zeros(3)),
    lambda m: m.gradient(m.ones(1)), lambda m: m.polyder(m.ones(3), -1), lambda m: m.polyfit(m.ones(3), m.ones(3), -1),
    lambda m: m.block((m.ones(2), m.ones(2))), lambda m: m.cov(m.ones((2, 2, 2))),
    lambda m: m.polyfit(m.asarray([1.0, 2, 3]), m.asarray([1.0, 2, 3]), 2, cov=True),
]


@pytest.mark.parametrize("call", ERRORS, ids=range(len(ERRORS)))
def test_errors_as_numpy(call):
    assert_same_error(call)


def test_roots_says_it_runs_on_the_host():
    from tegula.tile import PerformanceWarning

    from tegula.numpy import _mathextra

    _mathextra._HOST_SAID.discard("roots")
    with pytest.warns(PerformanceWarning, match="runs on the host"):
        r = tnp.roots(tnp.asarray([1.0, -3.0, 2.0]))
    np.testing.assert_allclose(np.sort(r.get()), [1.0, 2.0])
    assert math.isclose(float(tnp.i0(tnp.asarray(0.0))), 1.0)


def test_host_io_printing_and_dtype_utilities(tmp_path):
    """Readers give device arrays, writers take them; printing, dtype helpers and the memory checks as NumPy's."""
    a = tnp.asarray(A)
    tnp.save(tmp_path / "a.npy", a)
    back = tnp.load(tmp_path / "a.npy")
    assert isinstance(back, tnp.ndarray)
    np.testing.assert_array_equal(back.get(), A)
    tnp.savez(tmp_path / "z.npz", x=a, y=tnp.asarray(I))
    z = tnp.load(tmp_path / "z.npz")
    np.testing.assert_array_equal(z["y"].get(), I)
    tnp.savetxt(tmp_path / "t.txt", a)
    np.testing.assert_allclose(tnp.loadtxt(tmp_path / "t.txt").get(), A)
    np.testing.assert_array_equal(tnp.frombuffer(b"\x01\x02\x03\x04", dtype=np.uint8).get(), [1, 2, 3, 4])
    np.testing.assert_array_equal(tnp.fromiter(range(5), dtype=np.int64).get(), np.arange(5))
    assert tnp.array2string(tnp.asarray([1.5, 2.0])) == np.array2string(np.array([1.5, 2.0]))
    assert tnp.array_str(tnp.asarray(I)) == np.array_str(I)
    assert tnp.issubdtype(tnp.asarray(I).dtype, np.integer) and not tnp.issubdtype(np.float32, np.integer)
    assert tnp.common_type(tnp.ones(2, dtype="int32"), tnp.ones(2, dtype="float32")) is np.float64
    assert tnp.promote_types("int8", "uint8") == np.int16 and tnp.binary_repr(5) == "101"
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        tnp.asarray_chkfinite([1.0, np.nan])
    np.testing.assert_array_equal(tnp.asarray_chkfinite([1.0, 2.0]).get(), [1.0, 2.0])
    b = tnp.asarray(np.arange(12.0).reshape(3, 4))
    assert tnp.shares_memory(b, b[1:, ::2]) and not tnp.shares_memory(b[:1], b[2:])
    assert tnp.may_share_memory(b, b.T) and not tnp.shares_memory(b, tnp.asarray(np.arange(12.0)))
    assert not tnp.isfortran(b) and tnp.isfortran(b.T)



def test_frompyfunc_isnat_and_buffers():
    from tegula.numpy import _host_utils
    from tegula.tile import PerformanceWarning

    _host_utils._SAID["frompyfunc"] = False
    add = tnp.frompyfunc(lambda a, b: a + 2 * b, 2, 1)
    with pytest.warns(PerformanceWarning, match="runs its Python function on the host"):
        r = add(tnp.asarray([1, 2]), tnp.asarray([10, 20]))
    np.testing.assert_array_equal(r.astype(np.int64), [21, 42])
    with pytest.raises(TypeError, match="only defined for np.datetime64"):
        tnp.isnat(tnp.asarray([1.0]))
    assert tnp.getbufsize() == np.getbufsize()


def test_vectorize_runs_on_the_host_and_says_so(device):
    from tegula.numpy import _host_utils
    from tegula.tile import PerformanceWarning

    _host_utils._SAID["vectorize"] = False
    fn = lambda x, y: x + 2 * y if x > 0 else 0.0  # noqa: E731
    f, nf = tnp.vectorize(fn), np.vectorize(fn)
    x = np.array([1.0, -2.0, 3.0])
    with pytest.warns(PerformanceWarning, match="runs its Python function on the host"):
        r = f(tnp.asarray(x, device=device), 2)
    assert isinstance(r, tnp.ndarray) and r.device == tnp.asarray(x, device=device).device
    np.testing.assert_array_equal(r.get(), nf(x, 2))

    @tnp.vectorize(otypes=[np.int64])
    def triple(v):
        return int(v) * 3

    np.testing.assert_array_equal(triple(tnp.arange(4, device=device)).get(), [0, 3, 6, 9])
    a, b = tnp.vectorize(lambda v: (v, v * 2))(tnp.arange(3, device=device))
    np.testing.assert_array_equal(b.get(), [0, 2, 4])
    s = tnp.vectorize(str)(tnp.arange(2, device=device))  # strings stay NumPy arrays: tegula has no str dtype
    assert isinstance(s, np.ndarray) and s.tolist() == ["0", "1"]
    with pytest.raises(TypeError, match="decorator takes one function"):
        tnp.vectorize(otypes=[float])(1, 2)
