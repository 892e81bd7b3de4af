"""tegula.numpy.emath (numpy.emath, numpy.lib.scimath): sqrt, log, log2, log10, logn, power, arccos, arcsin,
arctanh that give complex results where the real functions have none (sqrt(-1) = 1j), as NumPy's do. Whether an
input needs the complex form depends on its values: deciding it reads one flag back (a synchronisation)."""
from __future__ import annotations

from . import _array_api, _ufuncs
from ._creation import asarray
from ._ufuncs import absolute
from ._core import as_array, ndarray

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's choice of complex type for a real input made complex: single precision for the small types.
_SINGLE = ("float32", "int8", "int16", "uint8", "uint16")


def _as_array(x):
    return asarray(x)


def _tocomplex(x):
    return x.astype("complex64" if x._dtype_name in _SINGLE else "complex128")


def _fix(x, bad):
    """x, made complex when it is real and `bad(x)` holds anywhere."""
    x = _as_array(x)
    if not x._dtype_name.startswith("complex") and x.size and bool(bad(x).any()):
        return _tocomplex(x)
    return x


def _negative(x):
    return _fix(x, lambda v: v < 0)


def _outside_unit(x):
    return _fix(x, lambda v: absolute(v) > 1)


def _ufunc(name):
    """The real function `name` (tegula.numpy's, applied once the input is made complex where it must be)."""
    return getattr(_array_api, name) if name in ("arccos", "arcsin", "arctanh") else getattr(_ufuncs, name)


def sqrt(x):
    return _ufunc("sqrt")(_negative(x))


def log(x):
    return _ufunc("log")(_negative(x))


def log2(x):
    return _ufunc("log2")(_negative(x))


def log10(x):
    return _ufunc("log10")(_negative(x))


def logn(n, x):
    # both on the device of whichever is a tegula array (a Python n must not land on the default device)
    like = x if isinstance(x, ndarray) else n if isinstance(n, ndarray) else None
    dev = None if like is None else like._device_id
    return log(as_array(x, dev)) / log(as_array(n, dev))


def power(x, p):
    return _ufunc("power")(_negative(x), p)


def arccos(x):
    return _ufunc("arccos")(_outside_unit(x))


def arcsin(x):
    return _ufunc("arcsin")(_outside_unit(x))


def arctanh(x):
    return _ufunc("arctanh")(_outside_unit(x))
