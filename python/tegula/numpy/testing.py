"""numpy.testing for tegula arrays, so NumPy test code runs with `import tegula.numpy as np`: every name of
numpy.testing, and the assertions that compare values take tegula arrays (copied to the host first; a 0-d array
becomes the NumPy scalar NumPy's own reductions return, so `assert_equal(a.sum(), 3.0)` holds as in NumPy).
Assertions that call functions (assert_raises, assert_warns, ...) are NumPy's own, untouched."""
from __future__ import annotations

import functools as _functools

import numpy.testing as _t
from numpy.testing import *  # noqa: F401,F403

from ._core import ndarray as _ndarray

__all__ = list(_t.__all__)

_COMPARING = ("assert_equal", "assert_almost_equal", "assert_approx_equal", "assert_array_equal", "assert_array_less",
              "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_max_ulp", "assert_allclose",
              "assert_array_compare", "assert_", "print_assert_equal")


def _host(x):
    if isinstance(x, _ndarray):
        h = (x.astype("float32") if x._dtype_name == "bfloat16" else x).get()
        return h[()] if h.ndim == 0 else h
    if isinstance(x, (list, tuple)) and any(isinstance(i, _ndarray) for i in x):
        return type(x)(_host(i) for i in x)
    if isinstance(x, dict) and any(isinstance(v, _ndarray) for v in x.values()):
        return {k: _host(v) for k, v in x.items()}
    return x


def _on_host(fn):
    @_functools.wraps(fn)
    def call(*args, **kwargs):
        return fn(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})

    return call


for _name in _COMPARING:
    if hasattr(_t, _name):
        globals()[_name] = _on_host(getattr(_t, _name))
del _name
