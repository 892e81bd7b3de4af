"""tegula.numpy semantics against NumPy 2: lazy expressions see the values at the time of the operation
(pending readers are materialised before a write, also through views), NumPy dispatch
(__array_ufunc__/__array_function__), np.asarray, repr/str, error types and messages, eager mode."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401


# ---- lazy evaluation: a write never changes what earlier expressions computed ------------------------
def test_pending_result_survives_a_full_write(device, rng):
    x = rng.standard_normal((4, 5))
    a = t(x, device)
    y = a + 1
    assert y._pending
    a[...] = 0
    assert_same(y, x + 1)
    assert_same(a, np.zeros((4, 5)))


def test_pending_result_survives_an_inplace_operator(device, rng):
    x = rng.standard_normal(7)
    a = t(x, device)
    y = a * 2
    s = a.sum()
    a += 5
    assert_same(y, x * 2)
    assert_same(s, x.sum())
    assert_same(a, x + 5)
    z = tnp.exp(a)
    a -= 1
    assert_same(z, np.exp(x + 5))


def test_pending_result_survives_a_write_through_a_view(device, rng):
    x = rng.standard_normal((6, 4))
    a = t(x, device)
    y = a - 3
    v = a[::2, 1:]
    v[...] = 100.0
    assert_same(y, x - 3)
    w = a.T
    z = a * a
    w[0] = -1.0
    assert_same(z, np.where(np.arange(6)[:, None] % 2 == 0, np.where(np.arange(4) >= 1, 1e4, x * x), x * x))
    x2 = x.copy()
    x2[::2, 1:] = 100.0
    x2.T[0] = -1.0
    assert_same(a, x2)


def test_pending_view_reader_survives_a_write_to_the_base(device, rng):
    x = rng.standard_normal((5, 5))
    a = t(x, device)
    v = a[1:4, ::-1]
    y = v + 1  # reads a through a view
    a[...] = 0
    assert_same(y, x[1:4, ::-1] + 1)


def test_pending_result_survives_mask_and_setitem_writes(device, rng):
    x = rng.standard_normal(10)
    a = t(x, device)
    y = a * 10
    a[a > 0] = 0.0
    assert_same(y, x * 10)
    z = a + 0.5
    a[3] = 99.0
    a[1:3] = t(np.array([7.0, 8.0]), device)
    x2 = np.where(x > 0, 0.0, x)
    assert_same(z, x2 + 0.5)


def test_pending_chain_over_a_materialised_array(device, rng):
    x = rng.standard_normal(6)
    a = t(x, device)
    b = a + 1
    b.get()  # b is materialised before its readers are built
    c = b * 2
    d = tnp.maximum(c, 0).sum()
    b[...] = 0
    assert_same(c, (x + 1) * 2)
    assert_same(d, np.maximum((x + 1) * 2, 0).sum())
    a[...] = 1.0
    assert_same(c, (x + 1) * 2)


@pytest.mark.parametrize("write", ["setitem", "iadd", "materialise_then_setitem"])
def test_pending_chain_and_pending_writer(device, rng, write):
    x = rng.standard_normal(6)
    a = t(x, device)
    b = a + 1  # pending
    c = b * 2  # pending, reads b
    if write == "setitem":
        b[...] = 0
    elif write == "iadd":
        b += 1
    else:
        b._materialize()
        b[0] = 0
    assert_same(c, (x + 1) * 2)


@pytest.mark.parametrize("write", ["int_index", "bool_mask_values", "int_index_of_view"])
def test_advanced_index_writes_keep_earlier_readers(device, rng, write):
    # these writes go through tile kernels, outside the engine's own assignment path
    x = rng.standard_normal(6)
    a = t(x, device)
    y = a + 1  # pending, reads a
    expected = x.copy()
    if write == "int_index":
        a[[0, 2]] = t(np.array([9.0, 8.0]), device)
        expected[[0, 2]] = [9.0, 8.0]
    elif write == "bool_mask_values":
        m = x > 0
        a[t(m, device)] = t(np.arange(m.sum(), dtype=np.float64), device)
        expected[m] = np.arange(m.sum())
    else:
        v = a[1:]
        v[[0]] = 7.0
        expected[1] = 7.0
    assert_same(y, x + 1)
    assert_same(a, expected)


def test_out_write_keeps_earlier_readers(device, rng):
    x = rng.standard_normal(5)
    a = t(x, device)
    y = a + 1
    tnp.multiply(a, 3, out=a)
    assert_same(y, x + 1)
    assert_same(a, x * 3)
    tnp.copyto(a, 0.0)
    assert_same(y, x + 1)
    a.fill(2.0)
    assert_same(y, x + 1)
    assert_same(a, np.full(5, 2.0))


def test_many_pending_readers(device, rng):
    x = rng.standard_normal(8)
    a = t(x, device)
    readers = [a * k for k in range(5)]
    a[...] = -1
    for k, r in enumerate(readers):
        assert_same(r, x * k)


def test_eager_mode(device, rng):
    x = rng.standard_normal(4)
    a = t(x, device)
    with tnp.eager():
        y = a + 1
        assert not y._pending
        assert_same(y, x + 1)
    assert (a + 1)._pending


def test_a_repeated_expression_reuses_its_kernel(device, rng):
    a = t(rng.standard_normal(33), device)
    (tnp.exp(-a * a) * a + 0.5).get()
    before = tnp.kernel_stats()["builds"]
    for _ in range(3):
        b = t(rng.standard_normal(33), device)
        (tnp.exp(-b * b) * b + 0.5).get()
    assert tnp.kernel_stats()["builds"] == before


def test_numpy_scalars_are_operands_not_uploads(device, rng, monkeypatch):
    """alpha * A[i, k] with NPBench's NumPy-scalar alpha: the scalar goes to the operator as a strong scalar, never
    uploaded as a 0-d array (an allocation and a host-to-device copy per operation); NumPy's dtypes hold."""
    from tegula.numpy import _core

    x = rng.standard_normal(5).astype(np.float32)
    a = t(x, device)

    def no_upload(*args, **kw):
        raise AssertionError("a NumPy scalar operand was uploaded")

    monkeypatch.setattr(_core, "from_numpy", no_upload)
    for v in (np.float64(1.5), np.float32(-2.0), np.int8(3), np.uint64(7), np.bool_(True), np.complex64(1j)):
        for got, want in ((v * a, v * x), (a * v, x * v), (np.add(v, a), np.add(v, x)), (v / a, v / x)):
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-6)


def test_kernel_stats_time_the_engines_phases(device, rng):
    """kernel_stats' host nanoseconds per phase (bench/probe_loops.py splits a loop's host time with them): a
    launch adds planning, a cache lookup and launch time; a miss adds build time; counters only grow."""
    keys = ("plan_ns", "lookup_ns", "build_ns", "launch_ns")
    a = t(rng.standard_normal(40), device)
    (a * 1.5 + 0.25).get()
    s0 = tnp.kernel_stats()
    (a * 1.5 + 0.25).get()  # a hit
    s1 = tnp.kernel_stats()
    assert s1["launches"] == s0["launches"] + 1 and s1["hits"] == s0["hits"] + 1
    assert all(s1[k] >= s0[k] for k in keys)
    assert s1["plan_ns"] > s0["plan_ns"] and s1["lookup_ns"] > s0["lookup_ns"] and s1["launch_ns"] > s0["launch_ns"]
    assert s1["build_ns"] == s0["build_ns"]
    (tnp.arctan(tnp.sin(a) * a) - tnp.cosh(a) * a * a).get()  # a new structure: a build
    s2 = tnp.kernel_stats()
    assert s2["builds"] == s1["builds"] + 1 and s2["build_ns"] > s1["build_ns"]


# ---- NumPy dispatch ---------------------------------------------------------------------------------
def test_numpy_ufuncs_dispatch_to_tegula(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    for r, ref in [(np.exp(a), np.exp(x)), (np.add(a, a), x + x), (np.maximum(a, 0.5), np.maximum(x, 0.5)),
                   (np.multiply(2, a), 2 * x), (np.less(a, 0), x < 0), (np.negative(a), -x), (np.sqrt(np.abs(a)),
                                                                                               np.sqrt(np.abs(x)))]:
        assert isinstance(r, tnp.ndarray)
        assert_same(r, ref)
    out = tnp.zeros((3, 4), device=device)
    r = np.sin(a, out=out)
    assert r is out
    assert_same(out, np.sin(x))


def test_numpy_functions_dispatch_to_tegula(device, rng):
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    for r, ref in [(np.sum(a), np.sum(x)), (np.sum(a, axis=0), x.sum(0)), (np.mean(a, axis=1, keepdims=True),
                                                                            x.mean(1, keepdims=True)),
                   (np.max(a), x.max()), (np.argmax(a, axis=1), x.argmax(1)), (np.reshape(a, (4, 3)), x.reshape(4, 3)),
                   (np.transpose(a), x.T), (np.concatenate([a, a]), np.concatenate([x, x])),
                   (np.where(a > 0, a, 0.0), np.where(x > 0, x, 0.0)), (np.clip(a, -0.5, 0.5), np.clip(x, -0.5, 0.5)),
                   (np.std(a), x.std()), (np.flip(a, 1), x[:, ::-1]), (np.zeros_like(a), np.zeros_like(x)),
                   (np.stack([a, a], 1), np.stack([x, x], 1)), (np.round(a, 2), np.round(x, 2))]:
        assert isinstance(r, tnp.ndarray), type(r)
        assert_same(r, ref)
    assert np.allclose(a, a) is True
    assert np.shape(a) == (3, 4) and np.ndim(a) == 2 and np.size(a) == 12


def test_mixing_tegula_and_numpy_arrays(device, rng):
    x, y = rng.standard_normal(4), rng.standard_normal(4)
    a = t(x, device)
    for r, ref in [(a + y, x + y), (y + a, y + x), (y * a, y * x), (a < y, x < y)]:
        assert isinstance(r, tnp.ndarray)
        assert_same(r, ref)


def test_numpy_asarray_gives_the_values(device, rng):
    x = rng.standard_normal((2, 3)).astype(np.float32)
    a = t(x, device)
    h = np.asarray(a)
    assert type(h) is np.ndarray and h.dtype == np.float32
    np.testing.assert_array_equal(h, x)
    np.testing.assert_array_equal(np.asarray(a + 1), x + 1)  # a pending array is computed
    np.testing.assert_array_equal(np.asarray(a.T[::-1]), x.T[::-1])
    np.testing.assert_array_equal(np.array(a, dtype=np.float64), x.astype(np.float64))
    np.testing.assert_array_equal(a.get(), x)
    np.testing.assert_array_equal(tnp.asnumpy(a), x)
    assert np.asarray(t(np.int8(3), device)).shape == ()


def test_ufunc_methods_dispatch_to_reductions_and_scans(device, rng):
    # (methods without a tegula equivalent return NotImplemented; NumPy 2.4 then leaks a reference to the
    # operand in ufunc.reduce, so they are not exercised here)
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    for r, ref in [(np.add.reduce(a), np.add.reduce(x)), (np.add.reduce(a, axis=None), np.add.reduce(x, axis=None)),
                   (np.multiply.reduce(a, axis=1, keepdims=True), np.multiply.reduce(x, axis=1, keepdims=True)),
                   (np.maximum.reduce(a, axis=-1), np.maximum.reduce(x, axis=-1)),
                   (np.minimum.reduce(a), np.minimum.reduce(x)),
                   (np.logical_and.reduce(a > 0), np.logical_and.reduce(x > 0)),
                   (np.add.accumulate(a), np.add.accumulate(x)), (np.multiply.accumulate(a, axis=1),
                                                                 np.multiply.accumulate(x, axis=1)),
                   (np.add.outer(a[0], a[:, 0]), np.add.outer(x[0], x[:, 0])),
                   (np.less.outer(a, a[0]), np.less.outer(x, x[0]))]:
        assert isinstance(r, tnp.ndarray)
        assert_same(r, ref)


def test_array_namespace(device):
    a = t(np.ones(3), device)
    assert a.__array_namespace__() is tnp
    info = tnp.__array_namespace_info__()
    assert set(info.dtypes()) >= {"bool", "int8", "uint64", "float64", "complex128"}
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                 "uint64"}
    with pytest.raises(ValueError, match="unknown dtype kind"):
        info.dtypes(kind="strings")
    assert tnp.Device("cpu") in info.devices()


# ---- repr / str ----------------------------------------------------------------------------------------
def test_repr_and_str(device):
    x = np.array([[1.5, -2.0], [0.0, 3.25]])
    a = t(x, device)
    suffix = ", device='cpu')" if device == "cpu" else ")"
    assert repr(a) == repr(x)[:-1] + suffix
    assert str(a) == str(x)
    i = np.arange(3, dtype=np.int8)
    assert repr(t(i, device)) == repr(i)[:-1] + suffix
    assert repr(t(i, device) + 1) == repr(i + 1)[:-1] + suffix  # a pending array prints its values
    assert repr(t(np.float32(2.5), device)) == repr(np.asarray(np.float32(2.5)))[:-1] + suffix
    assert str(t(np.zeros((0, 2)), device)) == str(np.zeros((0, 2)))


# ---- errors: types and NumPy's messages --------------------------------------------------------------
def test_axis_error_is_value_error_and_index_error():
    assert issubclass(tnp.AxisError, ValueError) and issubclass(tnp.AxisError, IndexError)


def test_error_types_match_numpy(device):
    a = t(np.ones((2, 3)), device)
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes \(2,3\) \(2,\)"):
        a + t(np.ones(2), device)
    with pytest.raises(IndexError, match="index 2 is out of bounds for axis 0 with size 2"):
        a[2]
    with pytest.raises(tnp.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        a.sum(axis=2)
    with pytest.raises(ValueError):
        a.sum(axis=-3)  # an AxisError is also a ValueError
    with pytest.raises(IndexError):
        a.max(axis=5)  # ... and an IndexError
    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4,?\)"):
        a.reshape(4)
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(TypeError, match="only integer"):
        [1, 2][t(1.0, device)]
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        a @ a  # (2, 3) @ (2, 3), as NumPy's message


def test_scalar_conversion_errors(device):
    a = t(np.ones(3), device)
    with pytest.raises(ValueError, match="ambiguous"):
        if a:
            pass
    with pytest.raises(TypeError):
        float(a)
    assert bool(t(np.array([0.0]), device)) is False


def test_result_type_and_can_cast(device):
    a = t(np.ones(3, np.int8), device)
    assert tnp.result_type(a, np.uint8) == np.result_type(np.int8, np.uint8)
    assert tnp.result_type(a, 1.5) == np.result_type(np.int8, 1.5)
    assert tnp.can_cast(a, np.int16) and not tnp.can_cast(a, np.uint8)
    assert tnp.isscalar(3.0) and not tnp.isscalar(a)


def test_hash_and_bool_of_comparisons(device):
    a = t(np.arange(3), device)
    with pytest.raises(TypeError):
        hash(a)
    assert bool((a == a).all()) is True
    assert (a == a).all().item() is True


def test_assignment_drops_leading_unit_dims_of_the_value(device):
    """NumPy: a[2] = ones((1, 5, 6)) fits the (5, 6) target by dropping the value's leading 1-dims."""
    x = np.zeros((4, 5, 6))
    a = tnp.asarray(x, device=device)
    v = np.arange(30.0).reshape(1, 1, 5, 6)
    a[2] = tnp.asarray(v, device=device)
    x[2] = v
    a[1:2] = v[0] * 2
    x[1:2] = v[0] * 2
    np.testing.assert_array_equal(a.get(), x)
    with pytest.raises(ValueError, match="could not broadcast"):
        a[0] = np.ones((2, 5, 6))


def test_asarray_copy_false_raises_when_a_copy_is_needed(device):
    a = tnp.asarray(np.arange(6), device=device)
    assert tnp.asarray(a, copy=False) is a
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        tnp.asarray(a, dtype="float32", copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        tnp.asarray(np.arange(3), copy=False)
