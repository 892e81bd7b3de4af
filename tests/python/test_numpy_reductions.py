"""tegula.numpy reductions against NumPy 2: sum, prod, mean, std, var, min, max, argmin, argmax, all, any,
count_nonzero and the nan* versions, over every dtype, with axis=None/int/negative/tuple, keepdims,
dtype=, out=, initial=, view inputs, 0-d and empty inputs, and large inputs that take the split and
row-loop kernels. Float results are checked against a float64 reference."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import ALL_DTYPES, assert_same, device, error_class, quiet, random, rng, t, tol  # noqa: F401

REDUCTIONS = ["sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax", "all", "any",
              "count_nonzero", "nansum", "nanprod", "nanmean", "nanstd", "nanvar", "nanmin", "nanmax",
              "nanargmin", "nanargmax", "amax", "amin"]
ARG = {"argmin", "argmax", "nanargmin", "nanargmax"}


def inputs(rng, dtype, name, device):
    """(NumPy, tegula) inputs: 3-D, a transposed strided view, a negative-step view, 1-D of odd length, 0-d,
    empty, and (for nan*) float inputs holding NaNs."""
    def make(shape):
        if name in ("prod", "nanprod") and np.dtype(dtype).kind == "f":
            return rng.uniform(0.5, 1.5, shape).astype(dtype)
        if name in ("prod", "nanprod") and np.dtype(dtype).kind in "iu":
            return random(rng, shape, dtype, low=0 if dtype.startswith("u") else -2, high=3)
        return random(rng, shape, dtype)

    x = make((2, 3, 4))
    yield x, t(x, device)
    base = make((6, 5, 7))
    yield base[::2, 1:, ::-3].transpose(2, 0, 1), t(base, device)[::2, 1:, ::-3].transpose(2, 0, 1)
    y = make((11,))
    yield y, t(y, device)
    z = make(())
    yield z, t(z, device)
    e = make((0, 3))  # (3, 0) and (2, 0, 3): test_reduction_of_empty_arrays
    yield e, t(e, device)
    if name.startswith("nan") and np.dtype(dtype).kind == "f":
        w = make((3, 5))
        w[0, 1] = w[2, 4] = w[1, 0] = np.nan
        w[:, 3] = np.nan
        yield w, t(w, device)


def axes_for(ndim):
    axes = [None]
    if ndim >= 1:
        axes += [0, -1]
    if ndim >= 2:
        axes += [1, (0, -1), ()]
    if ndim >= 3:
        axes += [(0, 1, 2), (2, 0)]
    return axes


def reference(np_fn, x, kw):
    """NumPy's answer: the result dtype from x itself, the values from float64 where x is float."""
    with quiet():
        expected = np.asarray(np_fn(x, **kw))
        if x.dtype.kind == "f" and expected.dtype.kind == "f":
            values = np.asarray(np_fn(x.astype(np.float64), **kw))
            return values.astype(expected.dtype) if expected.dtype == np.float64 else values, expected.dtype
    return expected, expected.dtype


def check_reduction(np_fn, t_fn, x, a, kw):
    try:
        values, dtype = reference(np_fn, x, kw)
    except Exception as e:  # noqa: BLE001 - NumPy's error is the specification
        with pytest.raises(error_class(e)):
            r = t_fn(a, **kw)
            r.get()
        return
    got = t_fn(a, **kw)
    assert isinstance(got, tnp.ndarray) or np.isscalar(got)
    got_np = np.asarray(got.get() if isinstance(got, tnp.ndarray) else got)
    assert got_np.dtype == dtype, f"{kw}: dtype {got_np.dtype} != NumPy's {dtype}"
    assert got_np.shape == values.shape, f"{kw}: shape {got_np.shape} != NumPy's {values.shape}"
    if dtype.kind == "f":
        rtol, atol = tol(dtype)
        if x.dtype.kind == "f" and x.size:  # summation order: a bound in the accumulator's epsilon
            acc_eps = np.finfo(np.float32 if x.dtype == np.float16 else x.dtype).eps
            atol = max(atol, 8 * acc_eps * float(np.nanmax(np.abs(x.astype(np.float64)))) * max(x.size, 1) ** 0.5)
        np.testing.assert_allclose(got_np.astype(np.float64), values.astype(np.float64), rtol=rtol, atol=atol,
                                   equal_nan=True, err_msg=str(kw))
    else:
        np.testing.assert_array_equal(got_np, values, err_msg=str(kw))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction(device, rng, name, dtype):
    device = device
    np_fn, t_fn = getattr(np, name), getattr(tnp, name)
    for x, a in inputs(rng, dtype, name, device):
        for axis in axes_for(x.ndim):
            if name in ARG and isinstance(axis, tuple):
                continue  # argmin/argmax take one axis
            for keepdims in (False, True):
                kw = {"axis": axis, "keepdims": keepdims}
                check_reduction(np_fn, t_fn, x, a, kw)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_of_empty_arrays(device, name):
    np_fn, t_fn = getattr(np, name), getattr(tnp, name)
    for shape in ((3, 0), (2, 0, 3)):
        x = np.zeros(shape)
        a = t(x, device)
        for axis in axes_for(x.ndim):
            if name in ARG and isinstance(axis, tuple):
                continue
            check_reduction(np_fn, t_fn, x, a, {"axis": axis})


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax", "all",
                                  "any"])
def test_reduction_methods(device, rng, name):
    x = rng.standard_normal((4, 6))
    a = t(x, device)
    for kw in ({}, {"axis": 0}, {"axis": -1, "keepdims": True}):
        check_reduction(lambda v, **k: getattr(v, name)(**k), lambda v, **k: getattr(v, name)(**k), x, a, kw)


@pytest.mark.parametrize("src", ["bool", "int8", "uint8", "int32", "uint32", "float16", "float32"])
@pytest.mark.parametrize("dtype", ["int64", "uint64", "float32", "float64", "int16"])
def test_sum_and_prod_with_dtype(device, rng, src, dtype):
    x = random(rng, (5, 7), src, low=0, high=4)
    a = t(x, device)
    for axis in (None, 0, 1):
        for name in ("sum", "prod", "mean"):
            if name == "mean" and np.dtype(dtype).kind != "f":
                continue
            check_reduction(getattr(np, name), getattr(tnp, name), x, a, {"axis": axis, "dtype": dtype})


def test_sum_dtype_changes_the_accumulator(device):
    x = np.full(300, 100, dtype=np.int8)
    a = t(x, device)
    assert_same(tnp.sum(a, dtype="int8"), np.sum(x, dtype="int8"))  # wraps in int8, as NumPy
    assert_same(tnp.sum(a), np.sum(x))  # int8 sums in int64
    h = np.full(5000, 1.0, dtype=np.float16)
    assert_same(tnp.sum(t(h, device), dtype="float32"), np.sum(h, dtype="float32"))


def test_reduction_out_and_initial(device, rng):
    x = rng.standard_normal((4, 5))
    a = t(x, device)
    out = tnp.zeros(5, device=device)
    r = tnp.sum(a, axis=0, out=out)
    assert r is out
    assert_same(out, x.sum(axis=0))
    out32 = tnp.zeros(4, "float32", device=device)
    tnp.max(a, axis=1, out=out32)
    assert_same(out32, x.max(axis=1).astype(np.float32))
    assert_same(tnp.sum(a, initial=10.0), np.sum(x, initial=10.0))
    assert_same(tnp.max(a, axis=0, initial=0.5), np.max(x, axis=0, initial=0.5))
    assert_same(tnp.min(t(np.zeros((0, 3)), device), axis=0, initial=2.0), np.min(np.zeros((0, 3)), axis=0, initial=2.0))
    assert_same(tnp.prod(a, axis=1, initial=2), np.prod(x, axis=1, initial=2))
    o = tnp.zeros((), "int64", device=device)
    tnp.argmax(a, out=o)
    assert int(o) == int(np.argmax(x))


def test_std_var_ddof(device, rng):
    x = rng.standard_normal((5, 6))
    a = t(x, device)
    for ddof in (0, 1, 2):
        for axis in (None, 0, 1):
            assert_same(tnp.var(a, axis=axis, ddof=ddof), np.var(x, axis=axis, ddof=ddof))
            assert_same(tnp.std(a, axis=axis, ddof=ddof), np.std(x, axis=axis, ddof=ddof))
            assert_same(tnp.nanvar(a, axis=axis, ddof=ddof), np.nanvar(x, axis=axis, ddof=ddof))
            assert_same(tnp.nanstd(a, axis=axis, ddof=ddof), np.nanstd(x, axis=axis, ddof=ddof))
    assert_same(tnp.var(a, correction=1), np.var(x, correction=1))
    assert_same(tnp.std(t(np.arange(10, dtype=np.int16), device), ddof=1), np.std(np.arange(10, dtype=np.int16), ddof=1))
    with quiet():
        assert_same(tnp.var(t(np.ones(3), device), ddof=3), np.var(np.ones(3), ddof=3))


def test_var_of_large_offset_values(device, rng):
    # two-pass: the mean is subtracted first, so a large common offset does not cancel the variance
    x = rng.standard_normal(1000) + 1e6
    assert_same(tnp.var(t(x, device)), np.var(x), rtol=1e-8)
    x32 = (rng.standard_normal(1000) + 1e3).astype(np.float32)
    assert_same(tnp.std(t(x32, device)), np.std(x32.astype(np.float64)).astype(np.float32), rtol=1e-4)


def test_min_max_nan_propagate(device):
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]])
    a = t(x, device)
    for name in ("min", "max", "argmin", "argmax", "nanmin", "nanmax", "nanargmin", "nanargmax", "sum", "mean"):
        for axis in (None, 0, 1):
            with quiet():
                assert_same(getattr(tnp, name)(a, axis=axis), getattr(np, name)(x, axis=axis))


def test_argmin_argmax_take_the_first_of_ties(device):
    x = np.array([[3, 1, 3, 1], [2, 2, 2, 2], [0, 5, 5, 0]], dtype=np.int16)
    a = t(x, device)
    for axis in (None, 0, 1, -1):
        assert_same(tnp.argmax(a, axis=axis), np.argmax(x, axis=axis))
        assert_same(tnp.argmin(a, axis=axis), np.argmin(x, axis=axis))
    assert_same(tnp.argmax(a, axis=1, keepdims=True), np.argmax(x, axis=1, keepdims=True))
    assert_same(tnp.argmax(a, keepdims=True), np.argmax(x, keepdims=True))


def test_all_nan_slices(device):
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    a = t(x, device)
    with quiet():
        for name in ("nanmax", "nanmin", "nanmean", "nansum", "nanprod", "nanvar"):
            assert_same(getattr(tnp, name)(a, axis=1), getattr(np, name)(x, axis=1))
    with pytest.raises(ValueError, match="All-NaN slice"):
        np.nanargmax(x, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice"):
        tnp.nanargmax(a, axis=1).get()


def test_empty_reduction_errors(device):
    e = t(np.zeros((0, 3)), device)
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        tnp.max(e)
    with pytest.raises(ValueError, match="zero-size array"):
        tnp.min(e, axis=0)
    with pytest.raises(ValueError, match="empty sequence"):
        tnp.argmax(e)
    assert_same(tnp.max(e, axis=1), np.max(np.zeros((0, 3)), axis=1))
    assert_same(tnp.sum(e), np.sum(np.zeros((0, 3))))
    assert_same(tnp.prod(e, axis=0), np.prod(np.zeros((0, 3)), axis=0))
    assert_same(tnp.all(e, axis=0), np.all(np.zeros((0, 3)), axis=0))
    assert_same(tnp.any(e, axis=1), np.any(np.zeros((0, 3)), axis=1))
    with quiet():
        assert_same(tnp.mean(e, axis=0), np.mean(np.zeros((0, 3)), axis=0))


def test_bad_axis(device):
    a = t(np.ones((2, 3)), device)
    for name in ("sum", "max", "mean", "argmax", "all", "var"):
        with pytest.raises(tnp.AxisError) as info:
            getattr(tnp, name)(a, axis=2)
        assert isinstance(info.value, ValueError) and isinstance(info.value, IndexError)
        assert "axis 2 is out of bounds for array of dimension 2" in str(info.value)
        with pytest.raises(tnp.AxisError):
            getattr(tnp, name)(a, axis=-3)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        np.sum(np.ones((2, 3)), axis=(0, 0))
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        tnp.sum(a, axis=(0, 0))
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        tnp.sum(a, axis=(1, -1))


def test_count_nonzero(device, rng):
    x = rng.integers(-2, 3, (4, 5, 3))
    a = t(x, device)
    assert int(tnp.count_nonzero(a)) == np.count_nonzero(x)
    for axis in (0, -1, (0, 2)):
        assert_same(tnp.count_nonzero(a, axis=axis), np.count_nonzero(x, axis=axis))
        assert_same(tnp.count_nonzero(a, axis=axis, keepdims=True), np.count_nonzero(x, axis=axis, keepdims=True))
    f = np.array([0.0, -0.0, np.nan, 1.0])
    assert int(tnp.count_nonzero(t(f, device))) == np.count_nonzero(f)


def test_reductions_of_lazy_expressions(device, rng):
    x, y = rng.standard_normal((30, 17)), rng.standard_normal((17,))
    a, b = t(x, device), t(y, device)
    assert_same(tnp.sum(tnp.exp(-a * a) * b + 0.5 * a, axis=1), np.sum(np.exp(-x * x) * y + 0.5 * x, axis=1))
    assert_same(tnp.max(a - b, axis=0), np.max(x - y, axis=0))
    assert_same(tnp.mean((a > 0) & (b < 0)), np.mean((x > 0) & (y < 0)))
    m = a.max(axis=1, keepdims=True)
    e = tnp.exp(a - m)
    assert_same(e / e.sum(axis=1, keepdims=True), np.exp(x - x.max(1, keepdims=True)) /
                np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True))


# ---- large reductions: split (many blocks per output) and row-loop kernels ----------------------------
def _sum_tol(x, axis=None):
    return 8 * np.finfo(x.dtype).eps * float(np.sum(np.abs(x.astype(np.float64)), axis=axis).max())


def test_large_sum_over_rows_and_all(device, rng):
    x = rng.standard_normal((3, 100000))
    a = t(x, device)
    assert_same(tnp.sum(a, axis=1), x.sum(axis=1), atol=_sum_tol(x, 1))
    assert_same(tnp.sum(a), x.sum(), atol=_sum_tol(x))
    assert_same(a.sum(axis=-1, keepdims=True), x.sum(axis=-1, keepdims=True), atol=_sum_tol(x, 1))
    assert_same(tnp.mean(a, axis=1), x.mean(axis=1), atol=_sum_tol(x, 1) / 1e5)
    assert_same(tnp.max(a, axis=1), x.max(axis=1))
    assert_same(tnp.argmin(a, axis=1), x.argmin(axis=1))
    assert_same(tnp.std(a, axis=1), x.std(axis=1), rtol=1e-9)


def test_large_sum_over_columns(device, rng):
    x = rng.standard_normal((50000, 3)).astype(np.float32)
    a = t(x, device)
    ref = x.astype(np.float64).sum(axis=0).astype(np.float32)
    assert_same(tnp.sum(a, axis=0), ref, atol=_sum_tol(x, 0))
    assert_same(tnp.sum(a.T, axis=1), ref, atol=_sum_tol(x, 0))
    assert_same(tnp.min(a, axis=0), x.min(axis=0))


def test_large_argmax(device, rng):
    x = rng.standard_normal(100000)
    x[77777] = 10.0
    a = t(x, device)
    assert int(tnp.argmax(a)) == 77777
    x[12345] = 10.0  # a tie: the first one
    assert int(tnp.argmax(t(x, device))) == 12345
    assert int(tnp.argmin(a)) == int(np.argmin(x))
    assert_same(tnp.argmax(a[::-1]), np.argmax(x[::-1]))


def test_large_integer_and_bool_reductions(device, rng):
    x = rng.integers(-100, 100, 100003).astype(np.int32)
    a = t(x, device)
    assert_same(tnp.sum(a), x.sum())
    assert_same(tnp.max(a), x.max())
    assert_same(tnp.count_nonzero(a > 50), np.count_nonzero(x > 50))
    assert_same(tnp.any(a == 1000), np.any(x == 1000))
    assert_same(tnp.all(a < 100), np.all(x < 100))
    u = rng.integers(0, 255, (7, 30001)).astype(np.uint8)
    assert_same(tnp.sum(t(u, device), axis=1), u.sum(axis=1))


def test_large_float32_and_float16_sums(device, rng):
    x = rng.standard_normal(200001).astype(np.float32)
    assert_same(tnp.sum(t(x, device)), x.astype(np.float64).sum().astype(np.float32), atol=_sum_tol(x))
    h = rng.uniform(0, 1, 30000).astype(np.float16)  # NumPy's own float16 sum is far off; float32 accumulation
    ref = h.astype(np.float64).sum()
    got = tnp.sum(t(h, device))
    assert got.dtype == np.float16
    assert abs(float(got) - ref) <= 2e-3 * ref
    assert abs(float(tnp.mean(t(h, device))) - h.astype(np.float64).mean()) <= 1e-3


def test_vecdot(device, rng):
    x, y = rng.standard_normal((3, 5)), rng.standard_normal(5)
    assert_same(tnp.vecdot(t(x, device), t(y, device)), np.vecdot(x, y))
    assert_same(tnp.vecdot(t(x, device).T, t(y[:, None], device), axis=0), np.vecdot(x.T, y[:, None], axis=0))
    i = np.arange(6, dtype=np.int16).reshape(2, 3)
    assert_same(tnp.vecdot(t(i, device), t(i, device)), np.vecdot(i, i))


# ---- where= --------------------------------------------------------------------------------------------
WHERE_REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "std", "all", "any", "nansum", "nanprod", "nanmax",
                    "nanmin", "nanmean", "nanvar", "nanstd"]
NO_IDENTITY = {"max", "min", "nanmax", "nanmin"}


def masks_for(rng, shape):
    """where= masks for an input of `shape`: a full random mask, masks that broadcast (trailing axes, size-1
    axes, 0-d), one that selects nothing, and a nested list (NumPy converts lists to bool)."""
    full = rng.random(shape) < 0.6
    masks = [full, np.zeros(shape, bool), full.tolist()]
    if len(shape) >= 1:
        masks.append(rng.random(shape[1:]) < 0.5)
    if len(shape) >= 2:
        masks.append(rng.random((shape[0],) + (1,) * (len(shape) - 2) + (shape[-1],)) < 0.5)
    masks.append(np.bool_(rng.random() < 0.5))
    return masks


def initial_for(dtype):
    return {"b": True, "i": 2, "u": 2, "f": 0.25}[np.dtype(dtype).kind]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", WHERE_REDUCTIONS)
def test_reduction_where(device, rng, name, dtype):
    """NumPy's where=: masked-out elements are the identity (max/min: initial=), mean/var/std count only the
    selected ones (NaN where none is), masks broadcast; numpy masks and tegula masks alike."""
    np_fn, t_fn = getattr(np, name), getattr(tnp, name)
    for x, a in inputs(rng, dtype, name, device):
        masks = masks_for(rng, x.shape)
        cases = [(axis, keepdims) for axis in axes_for(x.ndim) for keepdims in (False, True)]
        for i, (axis, keepdims) in enumerate(cases):
            mask = masks[i % len(masks)]
            kw = {"axis": axis, "keepdims": keepdims, "where": mask}
            if name in NO_IDENTITY:
                kw["initial"] = initial_for(dtype)
            as_tegula = i % 2 and isinstance(mask, np.ndarray)

            def t_call(v, **k):
                return t_fn(v, **(dict(k, where=t(k["where"], device)) if as_tegula else k))

            check_reduction(np_fn, t_call, x, a, kw)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any", "nansum", "nanmax"])
def test_reduction_where_adds_no_kernel(device, rng, name):
    """where(mask, a, identity) is fused into the reduction: as many launches as without the mask."""
    x = rng.standard_normal((6, 40))
    a, m = t(x, device), t(rng.random(40) < 0.5, device)
    kw = {"initial": 0.0} if name in NO_IDENTITY else {}
    launches = []
    for extra in ({}, {"where": m}):
        r = getattr(tnp, name)(a, axis=1, **kw, **extra)
        before = tnp.kernel_stats()["launches"]
        r._materialize()
        launches.append(tnp.kernel_stats()["launches"] - before)
        assert_same(r, getattr(np, name)(x, axis=1, **kw, **{k: v.get() for k, v in extra.items()}))
    assert launches[0] == launches[1] >= 1


def test_reduction_where_errors(device, rng):
    x = rng.standard_normal((2, 3))
    a = t(x, device)
    for name, ufunc in (("max", "maximum"), ("min", "minimum"), ("amax", "maximum"), ("nanmax", "fmax"),
                        ("nanmin", "fmin")):
        for where in (np.array([True, False, True]), np.True_, [[True], [False]]):
            msg = (f"reduction operation '{ufunc}' does not have an identity, so to use a where mask one has to "
                   "specify 'initial'")
            with pytest.raises(ValueError) as np_info:
                getattr(np, name)(x, where=where)
            assert str(np_info.value) == msg
            with pytest.raises(ValueError) as info:
                getattr(tnp, name)(a, where=where)
            assert str(info.value) == msg
    # a non-bool array is not cast (lists and scalars are)
    for name in ("sum", "mean", "all", "nanvar", "max"):
        kw = {"initial": 0.0} if name == "max" else {}
        for mask in (np.ones(3, int), t(np.ones(3, np.float32), device)):
            np_mask = mask.get() if isinstance(mask, tnp.ndarray) else mask
            with pytest.raises(TypeError) as np_info:
                getattr(np, name)(x, where=np_mask, **kw)
            with pytest.raises(TypeError) as info:
                getattr(tnp, name)(a, where=mask, **kw)
            assert str(info.value) == str(np_info.value)
    # masks that do not broadcast to the array's shape (the array is never broadcast to the mask's)
    for name in ("sum", "any", "nanmean", "mean", "var"):
        for shape in ((3, 1), (2,), (2, 2, 3), (4, 3)):
            with pytest.raises(ValueError) as np_info:
                getattr(np, name)(x, where=np.ones(shape, bool))
            with pytest.raises(ValueError) as info:
                getattr(tnp, name)(a, where=np.ones(shape, bool))
            assert str(info.value) == str(np_info.value)
    e = t(np.zeros((2, 1, 4)), device)
    with pytest.raises(ValueError, match=r"non-broadcastable operand with shape \(2,1,4\) doesn't match the "
                                         r"broadcast shape \(2,3,4\)"):
        tnp.sum(e, where=np.ones((2, 3, 1), bool))
    with pytest.raises(TypeError):
        tnp.count_nonzero(a, where=True)  # as NumPy: count_nonzero has no where=


def test_reduction_where_with_dtype_out_and_initial(device, rng):
    x = random(rng, (4, 5), "int8")
    a = t(x, device)
    m = rng.random((4, 5)) < 0.5
    assert_same(tnp.sum(a, axis=0, where=m, dtype="int16", initial=3), np.sum(x, axis=0, where=m, dtype="int16",
                                                                            initial=3))
    assert_same(tnp.prod(a, axis=1, where=m, dtype="float32"), np.prod(x, axis=1, where=m, dtype="float32"))
    with quiet():  # a row or column may have fewer than two selected elements
        assert_same(tnp.mean(a, axis=1, where=m, dtype="float32"), np.mean(x, axis=1, where=m, dtype="float32"))
        assert_same(tnp.var(a, where=m, ddof=1), np.var(x, where=m, ddof=1))
        assert_same(tnp.std(a, axis=0, where=m, correction=1), np.std(x, axis=0, where=m, correction=1))
    out = tnp.zeros(5, "float64", device=device)
    assert tnp.max(a, axis=0, where=m, initial=-3, out=out) is out
    assert_same(out, np.max(x, axis=0, where=m, initial=-3).astype(np.float64))
    assert_same(tnp.min(a, axis=1, where=m, initial=100, keepdims=True),
                np.min(x, axis=1, where=m, initial=100, keepdims=True))
    for name in ("max", "nanmax", "min"):  # initial= is cast into the array's dtype, as NumPy does
        with pytest.raises((OverflowError, ValueError), match="out of bounds for int8"):
            getattr(tnp, name)(a, where=m, initial=1000)
        assert_same(getattr(tnp, name)(a, where=m, initial=1.5), getattr(np, name)(x, where=m, initial=1.5))
    assert_same(tnp.sum(a, initial=1.5), np.sum(x, initial=1.5))
    assert_same(tnp.sum(a, initial=1000), np.sum(x, initial=1000))
    with quiet():  # a var with count - ddof == 0: inf (sum > 0) or NaN (0/0), as NumPy
        assert_same(tnp.var(a, axis=1, ddof=5), np.var(x, axis=1, ddof=5))
        assert_same(tnp.var(a, axis=1, where=m, ddof=2), np.var(x, axis=1, where=m, ddof=2))
        assert_same(tnp.mean(t(np.zeros((0, 3)), device), axis=0, where=np.zeros(3, bool)),
                    np.mean(np.zeros((0, 3)), axis=0, where=np.zeros(3, bool)))
    assert_same(tnp.max(t(np.zeros((0, 3)), device), axis=0, where=np.ones(3, bool), initial=2.0),
                np.max(np.zeros((0, 3)), axis=0, where=np.ones(3, bool), initial=2.0))
    assert_same(tnp.sum(a, where=False), np.sum(x, where=False))


def test_nan_extremes_with_initial(device):
    """nanmax/nanmin are fmax/fmin.reduce: initial= joins the values; a slice with none left gives initial
    (NaN without it); a NaN initial is skipped like any NaN."""
    x = np.array([[np.nan, np.nan, 1.0], [np.nan, 4.0, -2.0]], np.float32)
    a = t(x, device)
    m = np.array([True, True, False])
    with quiet():
        for name in ("nanmax", "nanmin"):
            for kw in ({"initial": 0.5}, {"initial": 0.5, "where": m}, {"initial": np.nan}, {"initial": np.nan,
                                                                                          "where": m}, {}):
                for axis in (None, 0, 1):
                    assert_same(getattr(tnp, name)(a, axis=axis, **kw), getattr(np, name)(x, axis=axis, **kw))


def test_reduction_where_through_numpy(device, rng):
    """where= through the methods, np.<reduction>(tegula array) and ufunc.reduce."""
    x = rng.standard_normal((3, 4))
    a = t(x, device)
    m = rng.random(4) < 0.5
    assert_same(a.sum(axis=0, where=m), x.sum(axis=0, where=m))
    assert_same(a.mean(axis=1, where=m), x.mean(axis=1, where=m))
    assert_same(a.max(where=m, initial=-1.0), x.max(where=m, initial=-1.0))
    r = np.sum(a, axis=1, where=m)
    assert isinstance(r, tnp.ndarray)
    assert_same(r, np.sum(x, axis=1, where=m))
    assert_same(np.add.reduce(a, where=m), np.add.reduce(x, where=m))
    assert_same(np.maximum.reduce(a, axis=1, where=m, initial=0.0), np.maximum.reduce(x, axis=1, where=m,
                                                                                     initial=0.0))
    assert_same(np.logical_or.reduce(a > 0, where=m), np.logical_or.reduce(x > 0, where=m))


def test_split_reductions_of_different_row_counts(device):
    """Long rows are summed in two stages (column parts, then the partials). The part count depends on the
    row count; it once was compiled into a kernel shared by every row count, so a second shape summed the
    wrong parts and read partials nothing wrote. New CPU arrays are poisoned (NaN) here, as GPU memory
    recycled from earlier arrays would be."""
    from tegula import _tegula

    _tegula.array_set_poison(True)
    try:
        gen = np.random.default_rng(3)
        for shape in [(64, 100000), (8, 100000), (64, 20000), (2, 100000), (8, 30000)]:
            for dt in ("float64", "complex128"):
                z = gen.standard_normal(shape).astype(dt)
                if dt == "complex128":
                    z = z + 1j * gen.standard_normal(shape)
                got = tnp.asarray(z, device=device).sum(axis=1).get()
                np.testing.assert_allclose(got, z.sum(axis=1), rtol=1e-9, atol=1e-9, err_msg=f"{shape} {dt}")
    finally:
        _tegula.array_set_poison(False)
