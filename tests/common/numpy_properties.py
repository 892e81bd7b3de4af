"""Property tests of tegula.numpy against NumPy (issue #23): hypothesis draws a function of the namespace, the dtypes
and shapes of its operands (empty, size 1, longer than 8192 along a reduced axis, and absurd sizes that must be
refused), and values with NaN, infinities and signed zeros at random places; both libraries run the same call, and
they must agree on the exception type, or on the result's type, dtype, shape and values (NaN for NaN, infinities
and zeros with their signs, finite values within the dtype's rounding).

Shared by tests/python/test_numpy_properties.py (the CPU interpreter, in CI) and tests/gpu/test_gpu_properties.py.
Where NumPy's own answer is platform-dependent (documented in docs/numpy_differences.md) the case is not drawn:
KNOWN_DIFFERENCES says which and why."""
from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import strategies as st

import tegula.numpy as tnp

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
DTYPES = ["bool"] + INTS + FLOATS + COMPLEX

UNARY = ["negative", "positive", "absolute", "sign", "sqrt", "exp", "expm1", "exp2", "log", "log1p", "log2", "log10",
         "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
         "floor", "ceil", "trunc", "rint", "square", "isnan", "isinf", "isfinite", "signbit", "logical_not", "conj",
         "cbrt", "deg2rad", "invert", "reciprocal", "fabs", "spacing"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power", "maximum", "minimum",
          "fmax", "fmin", "arctan2", "hypot", "copysign", "equal", "not_equal", "less", "less_equal", "greater",
          "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "left_shift", "right_shift", "logaddexp", "nextafter"]
REDUCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "mean", "any", "all", "nansum", "nanmax", "nanmin",
              "count_nonzero", "cumsum", "var", "std", "ptp"]
CREATION = ["zeros", "ones", "empty", "full"]

# Cases not drawn, because NumPy's answer there is its platform's (docs/numpy_differences.md):
KNOWN_DIFFERENCES = {
    "reciprocal": "of an integer 0: the platform's INT_MIN on x86, 0 in tegula",
    "float-to-int": "float values out of an integer type's range cast to it: undefined in C",
    "fmin/fmax signed zeros": "NumPy's scalar loop (arrays shorter than its vector width, and float16) returns x1",
    "min/max signed zeros": "NumPy's float16 loops return x1 on ties",
    "unique complex NaNs": "which of several complex NaNs stands for them all in unique depends on NumPy's code path",
    "int lerp": "NumPy's percentile of integers takes b - a in their own dtype, which can wrap (int16 -23718 and "
                "25444 at 37.5% give -29858.25); tegula subtracts in float64",
    "float16 products": "NumPy rounds every partial product of float16 values to float16, so it overflows and "
                        "underflows (inf * 0 = NaN) at other places than tegula's float32 products",
    "float16 sums": "NumPy rounds partial sums to float16 (its cumsum, var, and sums along an outer axis), so they "
                    "drift and can overflow there; tegula sums in float32: compared with the exact value, rounded",
    "complex prod of infinities": "tegula multiplies pairwise, NumPy in sequence: NaN parts can land elsewhere",
    "shifts past the width": "left/right_shift by the type's width or more: C leaves it undefined",
}

class Case(tuple):
    """(kind, name, args, kwargs), shown as the call it makes (hypothesis prints it for a failing example)."""

    def __repr__(self):
        return describe(self)


TOL = {"float16": 4e-3, "float32": 3e-6, "float64": 2e-14, "complex64": 3e-6, "complex128": 2e-14}
SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0]


@st.composite
def shapes(draw, reduced=False):
    """Empty, size-1 and ordinary shapes of up to 3 axes; with reduced=True one axis may be longer than 8192 (a
    reduction then spans several column tiles and blocks)."""
    ndim = draw(st.integers(0, 3))
    extent = st.sampled_from([0, 1, 1, 2, 3, 5, 8, 17])
    shape = [draw(extent) for _ in range(ndim)]
    if reduced and ndim and draw(st.booleans()):
        shape[draw(st.integers(0, ndim - 1))] = draw(st.integers(8193, 20000))
        shape = [d if d > 8192 else min(d, 3) for d in shape]
    return tuple(shape)


def _values(rng, shape, dtype, specials):
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (max(info.min, -100), min(info.max, 100)) if rng.random() < 0.7 else (info.min, info.max)
        return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)
    scale = float(rng.choice([1.0, 1e-3, 1e3]))
    if dt.kind == "c":
        part = np.dtype(dtype).type(0).real.dtype
        v = (_values(rng, shape, part, specials) + 1j * _values(rng, shape, part, specials)).astype(dt)
        return v
    v = (rng.standard_normal(shape) * scale).astype(dt)
    if specials and v.size:
        k = rng.integers(0, min(v.size, 6) + 1)
        flat = v.reshape(-1)
        flat[rng.integers(0, v.size, size=k)] = rng.choice(SPECIALS, size=k)
    return v


@st.composite
def arrays(draw, shape, dtypes=DTYPES, specials=True):
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return np.asarray(_values(rng, shape, dtype, specials), dtype=dtype)


@st.composite
def unary_cases(draw):
    name = draw(st.sampled_from(UNARY))
    x = draw(arrays(draw(shapes())))
    if name == "reciprocal" and x.dtype.kind in "iu":  # KNOWN_DIFFERENCES["reciprocal"]
        x = np.where(x == 0, 1, x).astype(x.dtype)
    return Case(("unary", name, (x,), {}))


@st.composite
def binary_cases(draw):
    name = draw(st.sampled_from(BINARY))
    shape = draw(shapes())
    other = draw(st.sampled_from([shape, shape[1:], (1,) * len(shape), (), shape[:-1] + (1,) if shape else ()]))
    a, b = draw(arrays(shape)), draw(arrays(other))
    if name in ("fmin", "fmax", "minimum", "maximum") and (a.dtype.kind == "f" or b.dtype.kind == "f"):
        # KNOWN_DIFFERENCES: ties of signed zeros in NumPy's scalar and float16 loops
        a, b = _no_zero_ties(a, b)
    if name in ("left_shift", "right_shift") and b.dtype.kind in "iu":  # KNOWN_DIFFERENCES["shifts past the width"]
        b = (np.abs(b.astype(np.int64)) % 8).astype(b.dtype)
    if draw(st.booleans()) and b.ndim == 0:  # a Python scalar operand (NEP 50's weak scalars)
        b = b.item()
    return Case(("binary", name, (a, b), {}))


def _no_zero_ties(a, b):
    a = np.where(a == 0, np.asarray(1, a.dtype), a).astype(a.dtype) if a.dtype.kind in "fc" else a
    b = np.where(b == 0, np.asarray(2, b.dtype), b).astype(b.dtype) if b.dtype.kind in "fc" else b
    return a, b


def _float16_product_safe(x):
    """KNOWN_DIFFERENCES["float16 products"]: float16 values whose products neither overflow nor underflow (magnitudes
    in [0.5, 2), up to 8 of them, no infinities; NaN and zeros kept)."""
    x = x.reshape(-1)[:8].reshape((-1,) if x.ndim else ())
    finite = np.isfinite(x)
    scaled = np.where(x == 0, x, np.copysign(1 + (np.abs(x) % 1), x))
    return np.where(finite, scaled, np.where(np.isnan(x), x, 1)).astype(np.float16)


@st.composite
def reduction_cases(draw):
    name = draw(st.sampled_from(REDUCTIONS))
    shape = draw(shapes(reduced=True))
    x = draw(arrays(shape))
    if name == "prod" and x.size > 64:  # products of long runs are all overflow or underflow: keep them short
        x = x.reshape(-1)[:64]
    if name in ("cumsum", "sum", "nansum", "mean", "var", "std") and x.dtype == np.float16:
        # KNOWN_DIFFERENCES["float16 sums"]: no partial sum may overflow
        finite = np.isfinite(x)
        x = np.where(finite, x / np.float16(max(1.0, float(np.abs(x[finite]).max(initial=0)))), x).astype(x.dtype)
    if name == "prod" and x.dtype == np.float16:
        x = _float16_product_safe(x)
    if name == "prod" and x.dtype.kind == "c":  # KNOWN_DIFFERENCES["complex prod of infinities"]
        x = np.where(np.isfinite(x), x, 1).astype(x.dtype)
    axis = draw(st.sampled_from([None, 0, -1, 5] + ([(0, -1)] if x.ndim > 1 else [])))
    kw = {} if name in ("cumsum", "count_nonzero") else {"keepdims": draw(st.booleans())}
    if name == "cumsum" and isinstance(axis, tuple):
        axis = 0
    return Case(("reduce", name, (x,), {"axis": axis, **kw}))


ABSURD = [2**62, 2**63 - 1, 2**63, -1, (2**32, 2**32), (2**62, 4), (2**62, 0), (0, 2**63), (1,) * 65, (3, -2),
          (2**31, 2**31)]


@st.composite
def creation_cases(draw):
    name = draw(st.sampled_from(CREATION))
    shape = draw(st.one_of(st.sampled_from(ABSURD), shapes()))
    dtype = draw(st.sampled_from(DTYPES))
    args = (shape, 3) if name == "full" else (shape,)
    return Case(("create", name, args, {"dtype": dtype}))


@st.composite
def view_cases(draw):
    """Views with absurd or ordinary shapes: reshape, broadcast_to, squeeze with axes."""
    x = draw(arrays(draw(shapes()), specials=False))
    kind = draw(st.sampled_from(["reshape", "broadcast_to", "squeeze", "expand_dims", "flip", "transpose"]))
    if kind in ("reshape", "broadcast_to"):
        target = draw(st.one_of(st.sampled_from(ABSURD), st.just(x.shape), st.just((-1,)), st.just((1,) + x.shape)))
        return Case(("call", kind, (x, target), {}))
    if kind == "squeeze":
        return Case(("call", kind, (x,), {"axis": draw(st.sampled_from([None, (), 0, -1, 3]))}))
    if kind == "expand_dims":
        return Case(("call", kind, (x,), {"axis": draw(st.sampled_from([0, -1, 4, (0, 1)]))}))
    return Case(("call", kind, (x,), {"axis": draw(st.sampled_from([None, 0, -1, 3]))} if kind == "flip" else {}))


# Functions of the namespace beyond the ufuncs: name -> (ranks it is drawn for, builder(draw, x) -> (args, kwargs)).
# Sorts compare by value (their order of equal elements, -0.0 and 0.0 among them, is the algorithm's), so the
# argsorts are the stable ones.
_AXIS = st.sampled_from([None, 0, -1, 2])
_INT_AXIS = st.sampled_from([0, -1, 1, 3])
FUNCTIONS = {
    "sort": lambda d, x: ((x,), {"axis": d(_INT_AXIS)}),
    "argsort": lambda d, x: ((x,), {"axis": d(_INT_AXIS), "kind": "stable"}),
    "unique": lambda d, x: ((x,), {}),
    "diff": lambda d, x: ((x,), {"n": d(st.sampled_from([1, 2, 0])), "axis": d(_INT_AXIS)}),
    "clip": lambda d, x: ((x, d(st.sampled_from([-1, 0, None])), d(st.sampled_from([1, 2, None]))), {}),
    "round": lambda d, x: ((x,), {"decimals": d(st.sampled_from([0, 1, 2, -1]))}),
    "nan_to_num": lambda d, x: ((x,), {}),
    "isclose": lambda d, x: ((x, x[..., ::-1] if x.ndim else x), {}),
    "where": lambda d, x: ((x > 0 if x.dtype.kind != "c" else x.real > 0, x, -x if x.dtype != np.bool_ else ~x), {}),
    "concatenate": lambda d, x: (([x, x],), {"axis": d(_AXIS)}),
    "stack": lambda d, x: (([x, x],), {"axis": d(_INT_AXIS)}),
    "take": lambda d, x: ((x, d(st.sampled_from([[0], [1, 0, -1], [], [5]]))), {"axis": d(_AXIS)}),
    "repeat": lambda d, x: ((x, d(st.sampled_from([0, 1, 3]))), {"axis": d(_AXIS)}),
    "tile": lambda d, x: ((x, d(st.sampled_from([1, 2, (2, 1), (1, 0, 2)]))), {}),
    "roll": lambda d, x: ((x, d(st.sampled_from([1, -2, 7]))), {"axis": d(_AXIS)}),
    "moveaxis": lambda d, x: ((x, d(st.sampled_from([0, -1, 3])), d(st.sampled_from([0, -1]))), {}),
    "swapaxes": lambda d, x: ((x, d(st.sampled_from([0, -1, 2])), d(st.sampled_from([0, 1]))), {}),
    "median": lambda d, x: ((x,), {"axis": d(_AXIS)}),
    "percentile": lambda d, x: ((x, d(st.sampled_from([0, 37.5, 100, [10, 90]]))), {"axis": d(_AXIS)}),
    "nanmedian": lambda d, x: ((x,), {"axis": d(_AXIS)}),
    "average": lambda d, x: ((x,), {"axis": d(_AXIS)}),
    "cumprod": lambda d, x: ((x[..., :8] if x.ndim else x,), {"axis": d(st.sampled_from([None, 0, -1]))}),
    "nonzero": lambda d, x: ((x,), {}),
    "flatnonzero": lambda d, x: ((x,), {}),
    "argwhere": lambda d, x: ((x,), {}),
    "trace": lambda d, x: ((x,), {}),
    "diagonal": lambda d, x: ((x,), {"offset": d(st.sampled_from([0, 1, -1]))}),
    "tril": lambda d, x: ((x,), {"k": d(st.sampled_from([0, 1, -1]))}),
    "outer": lambda d, x: ((x.reshape(-1)[:9], x.reshape(-1)[:7]), {}),
    "ravel": lambda d, x: ((x,), {"order": d(st.sampled_from(["C", "F"]))}),
    "flip": lambda d, x: ((x,), {"axis": d(_AXIS)}),
    "atleast_2d": lambda d, x: ((x,), {}),
    "count_nonzero": lambda d, x: ((x,), {"axis": d(_AXIS)}),
    "searchsorted": lambda d, x: ((np.sort(x.reshape(-1)), x.reshape(-1)[::-1]), {"side": d(st.sampled_from(["left", "right"]))}),
}


@st.composite
def function_cases(draw):
    name = draw(st.sampled_from(sorted(FUNCTIONS)))
    x = draw(arrays(draw(shapes())))
    if name in ("median", "percentile", "nanmedian", "average") and x.dtype == np.float16:
        x = x.astype(np.float32)  # KNOWN_DIFFERENCES["float16 sums"]: NumPy interpolates in float16
    if name in ("median", "percentile", "nanmedian") and x.dtype.kind in "iu":  # KNOWN_DIFFERENCES["int lerp"]
        x = np.clip(x, -50, 50).astype(x.dtype)
    if name == "cumprod" and x.dtype == np.float16:
        x = _float16_product_safe(x)
    if name == "cumprod" and x.dtype.kind == "c":  # no product may overflow either (that makes infinities too)
        x = (x / np.maximum(1, np.abs(x))).astype(x.dtype)
    if name in ("cumprod", "median", "nanmedian", "percentile", "average") and x.dtype.kind == "c":
        # KNOWN_DIFFERENCES["complex prod of infinities"]; NumPy's median averages by complex division, whose
        # inf * 0 makes NaN parts that tegula's interpolation does not
        x = np.where(np.isfinite(x), x, 1).astype(x.dtype)
    if name == "unique" and x.dtype.kind == "c":  # KNOWN_DIFFERENCES["unique complex NaNs"]
        x = np.where(np.isnan(x), complex(np.nan, np.nan), x).astype(x.dtype)
    args, kw = FUNCTIONS[name](draw, x)
    return Case(("func", name, args, kw))


@st.composite
def _index_key(draw, shape):
    """A NumPy index for an array of `shape`: ints (out of range too), slices (negative steps, out-of-range bounds),
    None, Ellipsis, integer arrays and boolean masks, in a tuple of up to ndim + 1 entries."""
    entries = []
    for k in range(draw(st.integers(0, len(shape) + 1))):
        n = shape[k] if k < len(shape) else 1
        kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ints", "mask", "ellipsis"]))
        if kind == "int":
            entries.append(draw(st.integers(-n - 1, n)))
        elif kind == "slice":
            bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
            entries.append(slice(draw(bound), draw(bound), draw(st.sampled_from([None, 1, 2, -1, -3]))))
        elif kind == "none":
            entries.append(None)
        elif kind == "ellipsis":
            entries.append(Ellipsis)
        elif kind == "ints":
            entries.append(np.array(draw(st.lists(st.integers(-n, max(n - 1, 0)), max_size=4)), dtype=np.int64))
        else:
            entries.append(np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool))
    return tuple(entries)


def _getitem(x, key):
    return x[key]


def _setitem(x, key, value):
    """x with x[key] = value applied to a copy (the result is the whole array)."""
    y = x.copy()
    y[key] = value
    return y


@st.composite
def indexing_cases(draw):
    """x[key] and x[key] = value, with basic and advanced keys (bad ones too: NumPy's IndexError must come)."""
    x = draw(arrays(draw(shapes()), specials=False))
    key = draw(_index_key(x.shape))
    if draw(st.booleans()):
        return Case(("index", "_getitem", (x, key), {}))
    value = draw(st.sampled_from([0, 1, -1, 2.5, True]))
    return Case(("index", "_setitem", (x, key, value), {}))


def cases():
    return st.one_of(unary_cases(), binary_cases(), reduction_cases(), creation_cases(), view_cases(), function_cases(),
                     indexing_cases())


# ---- running and comparing ----------------------------------------------------------------------------
def _run(module, case, device):
    kind, name, args, kw = case
    if kind == "create":
        return getattr(module, name)(*args, **kw, **({} if module is np else {"device": device}))
    if module is not np:
        def dev(a):
            if isinstance(a, np.ndarray):
                return tnp.asarray(a, device=device)
            if isinstance(a, tuple):  # an index: its arrays on the device too
                return tuple(dev(b) for b in a)
            return [dev(b) for b in a] if isinstance(a, list) and a and isinstance(a[0], np.ndarray) else a
        args = tuple(dev(a) for a in args)
    if kind == "index":
        return globals()[name](*args)
    return getattr(module, name)(*args, **kw)


def _outcome(module, case, device):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return _run(module, case, device), None
        except Exception as e:  # noqa: BLE001 - the exception type is compared
            return None, e


def _same_exception(want, got):
    """got is of want's type: NumPy's AxisError exactly (tegula raises NumPy's own), else the built-in exception
    that want's type derives from (NumPy's _ArrayMemoryError is a MemoryError)."""
    if isinstance(want, np.exceptions.AxisError):
        return isinstance(got, np.exceptions.AxisError)
    base = next(c for c in type(want).__mro__ if c.__module__ == "builtins")
    return isinstance(got, base)


def _host(x):
    if isinstance(x, tnp.ndarray):
        return tnp.asnumpy(x)
    return x


def _compare_values(want, got, case, tol_scale):
    if want.dtype.kind in "biu" or want.dtype == np.bool_:
        np.testing.assert_array_equal(got, want)
        return
    kind, name, args, kw = case
    tol = TOL.get(str(want.dtype), 1e-6) * tol_scale
    if name in ("power", "float_power") and want.dtype.kind in "fc":
        # x ** y = exp(y log x) is ill-conditioned: its relative error is the rounding of y log x = log |result|
        with np.errstate(all="ignore"):
            big = np.abs(np.log(np.abs(want[np.isfinite(want) & (want != 0)]))) if want.size else np.zeros(0)
        tol *= max(1.0, float(big.max(initial=0)))
    magnitude = np.abs(np.asarray(want, np.complex128))  # complex parts are compared relative to |value|
    for w, g in ((want.real, got.real), (want.imag, got.imag)) if want.dtype.kind == "c" else ((want, got),):
        w, g = np.asarray(w, np.float64), np.asarray(g, np.float64)
        nan = np.isnan(w)
        assert np.array_equal(nan, np.isnan(g)), "NaN positions differ"
        exact = ~nan & ((w == 0) | np.isinf(w))
        assert np.array_equal(w[exact], g[exact]), "infinities or zeros differ"
        if kind in ("unary", "binary", "call"):  # signs of zeros and infinities of elementwise results and views
            assert np.array_equal(np.signbit(w[exact]), np.signbit(g[exact])), "signs of zeros differ"
        fin = ~nan & ~exact
        if fin.any():
            part_scale = magnitude[fin] if want.dtype.kind == "c" else np.abs(w[fin])
            scale = np.maximum(np.where(np.isfinite(part_scale), part_scale, np.abs(w[fin])),
                               _reduction_scale(case, want.dtype))
            err = np.abs(w[fin] - g[fin])
            part = np.finfo(want.real.dtype if want.dtype.kind == "c" else want.dtype)
            atol = 2 * float(part.smallest_subnormal)  # subnormal results: a unit in their last place
            assert np.all(err <= tol * scale + atol), f"max error {np.max(err / scale):.3g} > {tol:.3g}"


def _reduction_scale(case, dtype):
    """Sums round differently by order: their error is measured against the sum of |x| (as the bound of any
    order's rounding), over sqrt of the count."""
    kind, name, args, kw = case
    if not (kind == "reduce" and name in ("sum", "nansum", "mean", "cumsum", "var", "std")) and \
            not (kind == "func" and name == "average"):
        return 0.0
    if name == "average":
        name = "mean"
    x = np.abs(np.asarray(args[0], np.complex128 if args[0].dtype.kind == "c" else np.float64))
    x = np.where(np.isfinite(x), x, 0)
    total = float(x.sum()) if name != "mean" else float(x.mean()) if x.size else 0.0
    if name in ("var", "std"):
        total = float((x * x).mean()) if x.size else 0.0
        total = math.sqrt(total) if name == "std" else total
    return total * max(1.0, math.log2(max(x.size, 2)))


def check(case, device, tol_scale=1.0):
    """The case gives NumPy's exception type, or NumPy's result (type, dtype, shape, values)."""
    want, want_err = _outcome(np, case, device)
    got, got_err = _outcome(tnp, case, device)
    if want_err is not None:
        assert got_err is not None, f"NumPy raises {type(want_err).__name__}: {want_err}; tegula returned {got!r}"
        assert _same_exception(want_err, got_err), \
            f"NumPy raises {type(want_err).__name__}({want_err}); tegula {type(got_err).__name__}({got_err})"
        return
    if got_err is not None:
        raise AssertionError(f"tegula raises {type(got_err).__name__}: {got_err}; NumPy returned {want!r}") \
            from got_err
    if case[0] == "create" and case[1] == "empty":
        want, got = np.asarray(want), _host(got)
        assert (got.shape, got.dtype) == (want.shape, want.dtype)
        return
    if _float16_sum(case):  # KNOWN_DIFFERENCES["float16 sums"]: NumPy's value, or else the exact one rounded once
        kind, name, args, kw = case
        try:
            return _compare_all(want, got, case, tol_scale)
        except AssertionError:
            with np.errstate(all="ignore"):
                want = np.asarray(getattr(np, name)(args[0].astype(np.float64), **kw)).astype(np.asarray(want).dtype)
    _compare_all(want, got, case, tol_scale)


def _compare_all(want, got, case, tol_scale):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        pairs = list(zip(want, got))
    else:
        pairs = [(want, got)]
    for w, g in pairs:
        w = np.asarray(w)
        if w.size > 10**7:  # a broadcast view too big to copy: its shape, dtype and first row
            assert (tuple(g.shape), g.dtype) == (w.shape, w.dtype)
            w, g = w[(0,) * (w.ndim - 1)][:8], g[(0,) * (g.ndim - 1)][:8]
        g = np.asarray(_host(g))
        assert g.dtype == w.dtype, f"dtype {g.dtype}, NumPy's {w.dtype}"
        assert g.shape == w.shape, f"shape {g.shape}, NumPy's {w.shape}"
        _compare_values(w, g, case, tol_scale)


def _float16_sum(case):
    kind, name, args, kw = case
    return (kind == "reduce" and name in ("cumsum", "sum", "nansum", "mean", "var", "std") or
            kind == "func" and name in ("trace", "average")) and args[0].dtype == np.float16


def describe(case):
    kind, name, args, kw = case
    if kind == "index":
        key = args[1]
        shown = ", ".join(f"array{list(k)}" if isinstance(k, np.ndarray) else repr(k) for k in key)
        value = f" = {args[2]!r}" if name == "_setitem" else ""
        return f"{args[0].dtype}{list(args[0].shape)}[{shown}]{value}"

    def show(a):
        if not isinstance(a, np.ndarray):
            return repr(a)
        flat = a.reshape(-1)
        specials = [repr(v) for v in flat[:2000] if a.dtype.kind in "fc" and not np.isfinite(v)][:4]
        values = np.array2string(flat[:6], precision=4, separator=",") + ("..." if a.size > 6 else "")
        return f"{a.dtype}{list(a.shape)}{values}{' with ' + ','.join(specials) if specials else ''}"

    shown = ", ".join(show(a) for a in args)
    return f"{name}({shown}{', ' if kw else ''}{', '.join(f'{k}={v!r}' for k, v in kw.items())})"


def property_tests(device, counts, suffix=""):
    """The suite's test functions for `device` ("cpu" or "cuda"), one per kind of case, as a dict for a test module's
    globals(). counts: the default number of examples per kind (unary, binary, reduce, create, view, function,
    indexing);
    TEGULA_PROPERTY_EXAMPLES overrides them all, TEGULA_PROPERTY_RANDOM=1 draws new cases instead of the fixed ones."""
    import os

    from hypothesis import HealthCheck, given, settings

    n = int(os.environ.get("TEGULA_PROPERTY_EXAMPLES", "0"))
    fixed = os.environ.get("TEGULA_PROPERTY_RANDOM") != "1"
    tests = {}
    for kind, strategy, count in zip(("unary_ufuncs", "binary_ufuncs", "reductions", "creation", "views", "functions",
                                      "indexing"),
                                     (unary_cases, binary_cases, reduction_cases, creation_cases, view_cases,
                                      function_cases, indexing_cases), counts):
        def test(case):
            check(case, device)

        name = f"test_{kind}_match_numpy{suffix}"
        test.__name__ = test.__qualname__ = name
        tests[name] = settings(derandomize=fixed, deadline=None, suppress_health_check=list(HealthCheck),
                               database=None, print_blob=True, max_examples=n or count)(given(strategy())(test))
    return tests
