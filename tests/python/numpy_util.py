"""Shared helpers for the tegula.numpy-vs-NumPy suites: the `device` fixture, random inputs per dtype,
the views to feed as inputs, and one comparison that checks type, dtype, shape and values."""
import contextlib
import os
import warnings

import numpy as np
import pytest

import tegula._tegula as _T
import tegula.numpy as tnp


def _has_gpu():
    info = _T.driver_info()
    return bool(info.get("available")) and _T.device_count() > 0


HAS_GPU = _has_gpu()
DEVICES = ["cpu"] + (["cuda"] if HAS_GPU else [])

INTS = ["int8", "int16", "int32", "int64"]
UINTS = ["uint8", "uint16", "uint32", "uint64"]
INTEGERS = INTS + UINTS
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
NUMERIC = INTEGERS + FLOATS
ALL_DTYPES = ["bool"] + NUMERIC


@pytest.fixture(params=DEVICES)
def device(request):
    """'cpu' (the interpreter) always, 'cuda' where a GPU is present. Import it into a test module."""
    return request.param


@pytest.fixture
def rng():
    """A fresh generator; its seed is printed (shown when a test fails) and TEGULA_TEST_SEED fixes it."""
    seed = int(os.environ.get("TEGULA_TEST_SEED", np.random.SeedSequence().entropy % 2**32))
    print(f"rng seed {seed} (TEGULA_TEST_SEED={seed} repeats it)")
    return np.random.default_rng(seed)


def t(x, device, dtype=None):
    """x (NumPy array, list or scalar) as a tegula array on `device`."""
    return tnp.asarray(x, dtype=dtype, device=device)


def random(rng, shape, dtype, low=None, high=None):
    """Random values of `dtype`: uniform bools; integers in [low, high) (default a small range that no
    add/sub/mul of two values overflows in int8); standard normals for floats (or uniform in [low, high))."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        lo = (-10 if dtype.kind == "i" else 0) if low is None else low
        hi = 11 if high is None else high
        return rng.integers(lo, hi, size=shape, endpoint=False).astype(dtype)
    if dtype.kind == "c":
        part = np.float32 if dtype == np.complex64 else np.float64
        return (random(rng, shape, part, low, high) + 1j * random(rng, shape, part, low, high)).astype(dtype)
    if low is not None:
        return rng.uniform(low, high, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def tol(dtype):
    """(rtol, atol) fit for results of `dtype` computed by a few correctly rounded operations."""
    name = np.dtype(dtype).name
    return {"float16": (4e-3, 2e-3), "float32": (2e-5, 1e-6), "float64": (1e-12, 1e-14)}.get(name, (0, 0))


def assert_same(actual, expected, rtol=None, atol=None, dtype=True, equal_nan=True):
    """`actual` is a tegula array (or Python scalar where NumPy gives one) with NumPy's dtype and shape and
    values: exactly for bool and integers, within `tol(dtype)` (or the given rtol/atol) for floats, and for each
    part of complex values (with the tolerance of the part's float dtype)."""
    expected = np.asarray(expected)
    if isinstance(actual, tnp.ndarray):
        got = actual.get()
    else:
        got = np.asarray(actual)
    if dtype:
        assert got.dtype == expected.dtype, f"dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != NumPy's {expected.shape}"
    if expected.dtype.kind == "c" or got.dtype.kind == "c":  # each part within the tolerance of the part dtype
        c = expected.dtype if expected.dtype.kind == "c" else got.dtype
        r, a = tol(np.float32 if c == np.complex64 else np.float64)
        r = r if rtol is None else rtol
        a = a if atol is None else atol
        g, e = got.astype(np.complex128), expected.astype(np.complex128)
        for part in (np.real, np.imag):
            np.testing.assert_allclose(part(g), part(e), rtol=r, atol=a, equal_nan=equal_nan)
    elif expected.dtype.kind == "f" or got.dtype.kind == "f":
        r, a = tol(expected.dtype if expected.dtype.kind == "f" else got.dtype)
        r = r if rtol is None else rtol
        a = a if atol is None else atol
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=r, atol=a,
                                   equal_nan=equal_nan)
    else:
        np.testing.assert_array_equal(got, expected)


@contextlib.contextmanager
def quiet():
    """Suppress NumPy's floating-point warnings (division by zero, invalid, overflow, empty slices)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


# Views that exist for both NumPy and tegula arrays: applied to a base of at least 2-D shape they give
# non-contiguous inputs (steps, negative steps, transposes, broadcasts).
VIEWS = {
    "contiguous": lambda a: a,
    "step": lambda a: a[::2],
    "negative_step": lambda a: a[::-1, ::-2],
    "transpose": lambda a: a.T,
    "offset_slice": lambda a: a[1:, 2:-1],
    "broadcast": lambda a: tnp.broadcast_to(a[:1], (3,) + a.shape[1:]) if isinstance(a, tnp.ndarray)
    else np.broadcast_to(a[:1], (3,) + a.shape[1:]),
}


def view_pair(base_np, kind, device):
    """(NumPy view, tegula view) of `base_np` made by VIEWS[kind] on each side."""
    f = VIEWS[kind]
    return f(base_np), f(t(base_np, device))


# Shapes: 0-d, empty, not powers of two, and 3-D+.
SHAPES = [(), (0,), (1,), (7,), (3, 5), (2, 0, 3), (2, 3, 4), (2, 1, 3, 5)]


def error_class(exc):
    """The standard class a NumPy exception is checked against (AxisError first: it is two of them)."""
    from numpy.exceptions import AxisError

    for cls in (AxisError, OverflowError, ZeroDivisionError, TypeError, IndexError, ValueError,
                NotImplementedError):
        if isinstance(exc, cls):
            if cls is OverflowError:  # tegula says ValueError (test_python_int_out_of_range_is_overflow_error)
                return (OverflowError, ValueError)
            return tnp.AxisError if cls is AxisError else cls
    return type(exc)


def check(np_call, t_call, rtol=None, atol=None, dtype=True):
    """Runs np_call() and t_call(): the same exception class where NumPy raises, else assert_same.
    NumPy's floating-point warnings are suppressed (tegula gives the same values without them)."""
    try:
        with quiet():
            expected = np_call()
    except Exception as e:  # noqa: BLE001 - NumPy's answer is the specification
        with pytest.raises(error_class(e)):
            t_call()
        return None
    got = t_call()
    assert_same(got, expected, rtol=rtol, atol=atol, dtype=dtype)
    return got


def assert_same_error(call):
    """call(numpy) raises; call(tegula.numpy) raises the same exception type (or a subclass) with NumPy's text."""
    import tegula.numpy as tnp

    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(type(want.value)) as got:
        call(tnp)
    assert str(got.value) == str(want.value)


@pytest.fixture
def matrix_pass_everywhere(monkeypatch, request):
    """The matrix pass (libs/matrix_products.hpp) for every size and on the CPU too (its host reference). Its GPU
    kernels crashed the process on their first run (session 27): cuda cases run only with TEGULA_MATRIX_PASS=1
    (tests/gpu/test_gpu_matrix_pass.py says how)."""
    from tegula.numpy import _matmul
    if request.node.callspec.params.get("device") == "cuda" and os.environ.get("TEGULA_MATRIX_PASS") != "1":
        pytest.skip("the matrix pass crashed on its first GPU run (session 27): TEGULA_MATRIX_PASS=1 runs the cuda cases")
    monkeypatch.setattr(_matmul, "_PASS_MIN_BYTES", 0)
    monkeypatch.setattr(_matmul, "_PASS_MIN_BYTES_CPU", 0)


def pass_tol(dt, k):
    """The tolerance of a k-term product sum in float32 or float64 against NumPy's float64."""
    scale = max(k, 1) ** 0.5
    return dict(rtol=2e-5, atol=2e-6 * scale) if dt == np.float32 else dict(rtol=1e-12, atol=1e-13 * scale)
