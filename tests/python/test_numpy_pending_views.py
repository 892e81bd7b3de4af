"""Basic-index views of pending arrays (docs/array_engine.md, "Views of pending arrays"): computed where they are
read (the index pushed down the elementwise graph to its leaves), with NumPy's values for every kind of basic index,
and still NumPy's views: a write into the view lands in the array, a write into the array is seen by the view, and
a write into an input keeps both at their old values. A stencil of a stencil (hdiff) is one kernel."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401

KEYS = [
    (slice(1, None),),
    (slice(None, -1), slice(2, None)),
    (slice(None, None, -1), slice(1, None, 3)),
    (2,),
    (Ellipsis, 3),
    (None, slice(1, 4), None, 0),
    (-1, -2),
    (slice(4, 2),),  # empty
]


@pytest.mark.parametrize("key", range(len(KEYS)))
def test_views_of_pending_arrays_have_numpys_values(key, device, rng):
    a0, b0 = rng.standard_normal((7, 9)), rng.standard_normal((1, 9))
    c0 = rng.standard_normal(7) + 1j * rng.standard_normal(7)
    a, b, c = t(a0, device), t(b0, device), t(c0, device)
    k = KEYS[key]
    cases = [
        (lambda m, x, y, z: 4.0 * x - (x + y) * 0.5, a, b, c),  # a row broadcast
        (lambda m, x, y, z: m.where(x > y, x, y * 2).astype(np.float32), a, b, c),
        (lambda m, x, y, z: (z[:, None] * x).real + abs(z[:, None]), a, b, c),  # complex parts, a column broadcast
    ]
    for f, x, y, z in cases:
        want = f(np, a0, b0, c0)[k]
        got = f(tnp, x, y, z)[k]
        assert got.shape == want.shape
        assert_same(got, want, rtol=1e-6 if want.dtype == np.float32 else 1e-12)


def test_a_view_of_a_pending_array_is_still_its_view(device, rng):
    a0, b0 = rng.standard_normal((6, 7)), rng.standard_normal((6, 7))
    a, b = t(a0, device), t(b0, device)
    x, x0 = a + b, a0 + b0
    v, v0 = x[1:, ::2], x0[1:, ::2]
    w, w0 = v * 2, v0 * 2  # read before the write below: keeps the old values
    v[0, 0] = 100.0
    v0[0, 0] = 100.0
    assert_same(x, x0)
    assert_same(v, v0)
    assert_same(w, w0)
    x, x0 = a * 3, a0 * 3
    v, v0 = x[2], x0[2]
    vv, vv0 = v[1:], v0[1:]  # a view of the view
    x[2, 1] = -5.0
    x0[2, 1] = -5.0
    assert_same(v, v0)
    assert_same(vv, vv0)
    x, x0 = a - 1, a0 - 1
    v, v0 = x[:, 3], x0[:, 3]
    a[:, 3] = 7.0  # an input written: the expression and its view keep the values they had
    a0[:, 3] = 7.0
    assert_same(v, v0)
    assert_same(x, x0)
    y = (a * 2)[::-1]
    y += 1  # an in-place operator on a view of a temporary (NumPy: changes only that temporary)
    assert_same(y, (a0 * 2)[::-1] + 1)


def test_graphs_that_are_not_pushed_keep_their_values(device, rng):
    a0 = rng.standard_normal((5, 8))
    a = t(a0, device)
    assert_same((a - a.mean(axis=1, keepdims=True))[1:, 2:], (a0 - a0.mean(axis=1, keepdims=True))[1:, 2:],
                rtol=1e-12)
    assert_same(tnp.cumsum(a, axis=1)[:, ::2], np.cumsum(a0, axis=1)[:, ::2], rtol=1e-12)
    x, x0 = a, a0
    for _ in range(30):  # more pending nodes than a view pushes: materialised and viewed
        x, x0 = x * 1.01 + 0.5, x0 * 1.01 + 0.5
    assert_same(x[2:, 1], x0[2:, 1], rtol=1e-12)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 5"):
        (a + 1)[9]
    with pytest.raises(IndexError, match="too many indices"):
        (a + 1)[1, 2, 3]


def _hdiff(m, inf, coeff):
    """NPBench's hdiff for in_field (I + 4, J + 4, K) and coeff (I, J, K), in module m (NumPy or tegula.numpy)."""
    I, J = coeff.shape[0], coeff.shape[1]
    lap = 4.0 * inf[1:I + 3, 1:J + 3] - (inf[2:I + 4, 1:J + 3] + inf[0:I + 2, 1:J + 3] +
                                         inf[1:I + 3, 2:J + 4] + inf[1:I + 3, 0:J + 2])
    res = lap[1:, 1:J + 1] - lap[:-1, 1:J + 1]
    flx = m.where(res * (inf[2:I + 3, 2:J + 2] - inf[1:I + 2, 2:J + 2]) > 0, 0, res)
    res = lap[1:I + 1, 1:] - lap[1:I + 1, :-1]
    fly = m.where(res * (inf[2:I + 2, 2:J + 3] - inf[2:I + 2, 1:J + 2]) > 0, 0, res)
    return inf[2:I + 2, 2:J + 2] - coeff * (flx[1:] - flx[:-1] + fly[:, 1:] - fly[:, :-1])


def test_a_stencil_of_a_stencil_is_one_kernel(rng):
    """hdiff's shape: lap = stencil(in); flx = where(...(lap[1:] - lap[:-1])...); out = in - c * (flx[1:] - ...)."""
    I, J, K = 12, 10, 4
    inf0, c0 = rng.standard_normal((I + 4, J + 4, K)), rng.standard_normal((I, J, K))

    inf, c = tnp.asarray(inf0, device="cpu"), tnp.asarray(c0, device="cpu")
    with tegula.profile(gpu_timing=False) as p:
        got = _hdiff(tnp, inf, c)
        got._materialize()
    assert [k.name for k in p.launches] == ["tegula_array_kernel"]
    assert_same(got, _hdiff(np, inf0, c0), rtol=1e-12)


def test_a_stencils_kernel_reads_each_view_once_over_merged_rows(rng):
    """hdiff's kernel: its 50 pushed-down views of in_field are 13 distinct ones, each one parameter and one load
    (cse merges what is computed from them), and every view's (J, K) axes merge into rows of J * K elements (the
    space is 2-D: no batch axis, no 256-wide tile for K = 16)."""
    from tegula import _tegula

    I, J, K = 12, 10, 16
    inf0, c0 = rng.standard_normal((I + 4, J + 4, K)), rng.standard_normal((I, J, K))
    inf, coeff = tnp.asarray(inf0, device="cpu"), tnp.asarray(c0, device="cpu")

    got = _hdiff(tnp, inf, coeff)
    got._materialize()
    ir = _tegula.array_last_kernel()[0]
    signature = ir.split("{", 1)[0]
    assert signature.count("array<float64, 2>") == 15  # 13 views of in_field, coeff, out
    assert "array<float64, 3>" not in signature
    assert sum(1 for line in ir.splitlines() if " = load " in line) == 14
    assert_same(got, _hdiff(np, inf0, c0), rtol=1e-12)


@pytest.mark.parametrize("shape, index", [((6, 5, 8), (slice(1, 5), slice(None), slice(None))),
                                          ((6, 5, 8), (slice(1, 5), slice(1, 4), slice(None))),
                                          ((4, 6, 5, 3), (slice(None), slice(1, 5), slice(None), slice(None)))])
def test_merged_inner_axes_keep_numpys_values(device, rng, shape, index):
    """Elementwise expressions over views whose inner axes merge in every leaf (the columns take them all), whose
    inner axes merge only in some (the last axis alone), and a 4-D inner block: NumPy's values."""
    x0, y0 = rng.standard_normal(shape), rng.standard_normal(shape)
    x, y = tnp.asarray(x0, device=device), tnp.asarray(y0, device=device)
    got = 2.0 * x[index] - y[index] * x[index] + y[index][::-1]
    assert_same(got, 2.0 * x0[index] - y0[index] * x0[index] + y0[index][::-1], rtol=1e-12)
    out0 = y0.copy()
    out = tnp.asarray(y0, device=device)
    out[index] = x[index] * 3 + 1
    out0[index] = x0[index] * 3 + 1
    assert_same(out, out0, rtol=1e-12)


def test_many_views_each_read_twice(device, rng):
    """Past 32 distinct views the planner finds repeated ones through an index: 40 shifted views of one array,
    each read twice, give NumPy's value."""
    x0 = rng.standard_normal(300)
    x = tnp.asarray(x0, device=device)
    got, ref = x[0:200] * 0, x0[0:200] * 0
    for s in range(40):
        got = got + x[s:s + 200] * x[s:s + 200]
        ref = ref + x0[s:s + 200] * x0[s:s + 200]
    assert_same(got, ref, rtol=1e-12)


RESHAPES = [((6, 8), (48,)), ((6, 8), (3, 16)), ((6, 8), (2, 3, 8)), ((2, 3, 8), (6, 8)), ((6, 8), (6, 8, 1))]


@pytest.mark.parametrize("shapes", RESHAPES)
def test_reshapes_of_pending_arrays_have_numpys_values(shapes, device, rng):
    """x.reshape(...) of pending x is x's graph over its reshaped leaves where every leaf reshapes as a view;
    a broadcast operand that does not (a row repeated down the rows) materialises x first, as before."""
    src, dst = shapes
    a0, b0 = rng.standard_normal(src), rng.standard_normal(src)
    a, b = t(a0, device), t(b0, device)
    assert_same((a * b + 1.5).reshape(dst), (a0 * b0 + 1.5).reshape(dst), rtol=1e-12)
    row0 = rng.standard_normal(src[-1:])
    row = t(row0, device)
    assert_same(tnp.exp(a - row).reshape(dst), np.exp(a0 - row0).reshape(dst), rtol=1e-12)
    c0 = a0 + 1j * b0
    c = t(c0, device)
    assert_same((c * c).reshape(dst).real, (c0 * c0).reshape(dst).real, rtol=1e-12)


def test_a_reshape_of_a_pending_array_is_still_its_view(device, rng):
    a0, b0 = rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
    a, b = t(a0, device), t(b0, device)
    x, x0 = a + b, a0 + b0
    v, v0 = x.reshape(3, 8), x0.reshape(3, 8)
    w, w0 = v * 2, v0 * 2  # read before the write below: keeps the old values
    v[1, 2] = 100.0  # a write into the view lands in x
    v0[1, 2] = 100.0
    assert_same(x, x0)
    assert_same(v, v0)
    assert_same(w, w0)
    x, x0 = a * 3, a0 * 3
    v, v0 = x.reshape(-1), x0.reshape(-1)
    vv, vv0 = v[5:], v0[5:]  # a view of the reshape
    x[2, 1] = -5.0  # a write into x is seen by both
    x0[2, 1] = -5.0
    assert_same(v, v0)
    assert_same(vv, vv0)
    x, x0 = a - 1, a0 - 1
    v, v0 = x.reshape(6, 4), x0.reshape(6, 4)
    a[0] = 7.0  # an input written: the expression and its reshape keep the values they had
    a0[0] = 7.0
    assert_same(v, v0)
    assert_same(x, x0)


def test_a_reshape_read_by_the_next_expression_is_not_stored(rng):
    """stockham_fft's `reshape(tmp_perm * D, (R, N // R))` read by the product after it: one kernel, no store of
    the reshaped array in between."""
    a0, b0 = rng.standard_normal(64), rng.standard_normal(64)
    a, b = tnp.asarray(a0, device="cpu"), tnp.asarray(b0, device="cpu")
    with tegula.profile(gpu_timing=False) as p:
        m = (a * b).reshape(4, 16)
        got = m[0] + m[3] * 2
        got._materialize()
    assert [k.name for k in p.launches] == ["tegula_array_kernel"]
    m0 = (a0 * b0).reshape(4, 16)
    assert_same(got, m0[0] + m0[3] * 2, rtol=1e-12)
