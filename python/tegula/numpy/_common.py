"""Helpers shared by the tegula.numpy function modules: operands as arrays, ufunc output handling."""
from __future__ import annotations

import builtins

import numpy as _np

from . import _core
from ._core import _tegula, as_array, dtype_name, ndarray

_py_max, _py_min, _py_abs, _py_sum, _py_all, _py_any, _py_round = (
    builtins.max, builtins.min, builtins.abs, builtins.sum, builtins.all, builtins.any, builtins.round)


def _is_py_scalar(x):
    """Python's own bool/int/float/complex: weak under NEP 50. NumPy scalars (np.float64 is a float) are strong."""
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, _np.generic)


def _arr(x, like=None):
    """x as a tegula array: a weak scalar node next to `like` for Python scalars, else an array on
    `like`'s device (NumPy scalars and 0-d arrays become strong 0-d arrays, as in NumPy 2)."""
    if isinstance(x, ndarray):
        return x
    if like is None:
        return as_array(x)
    if _is_py_scalar(x):
        return like._scalar_like(x)
    return as_array(x, like._device_id)


def _arrays_on_one_device(arrays):
    """The inputs as tegula arrays; host data goes to the device of the first tegula array among them."""
    like = next((a for a in arrays if isinstance(a, ndarray)), None)
    return [a if isinstance(a, ndarray) else as_array(a, None if like is None else like._device_id) for a in arrays]


def _operand(x, like):
    """The other operand of like's binary op: Python scalars go to C++ as they are (weak), NumPy scalars too
    (strong: their dtype takes part). Neither is uploaded as a 0-d array first (alpha * A[i, k] in a loop was an
    allocation and a host-to-device copy per operation)."""
    if _is_py_scalar(x) or _core.is_strong_scalar(x):
        return x
    return _arr(x, like)


def same_dtype_copy(a):
    """A lazy copy of `a` (x * 1 keeps -0.0 and NaN, unlike x + 0; the C++ cast to the same dtype aliases).
    Complex: each part times 1 (a complex product with 1 would make inf * 0 = NaN of an infinite part)."""
    if a._dtype_name.startswith("complex"):
        return same_dtype_copy(a._part(0))._complex(same_dtype_copy(a._part(1)))
    return a._binary("mul", True if a._dtype_name == "bool" else 1, False)


def _copy_of(x):
    return same_dtype_copy(x)


def _dev(device):
    return _core.device_id(device)


def _finish(result, out, where, dtype=None, casting="same_kind", fresh=False):
    """A ufunc's result with NumPy's where=, dtype=, casting= and out=. fresh: result is a node the ufunc has just
    built and nobody else holds, so out= may take it straight into its memory even where it reads out element by
    element (np.multiply(z, z, z): one kernel, no temporary and copy)."""
    if dtype is not None:
        result = result.astype(dtype_name(dtype))
    if where is not True and where is not None:
        if out is None:
            raise NotImplementedError("where= without out= leaves elements uninitialised; pass out= too")
        result = _arr(where, result)._where(result, out)
    if out is not None:
        if isinstance(out, tuple):
            (out,) = out
        if not _tegula.can_cast(result._dtype_name, out._dtype_name, casting):
            raise TypeError(f"Cannot cast ufunc output from dtype('{result._dtype_name}') to "
                            f"dtype('{out._dtype_name}') with casting rule '{casting}'")
        out._assign(result, temporary=fresh)
        return out
    return result


def _done(result, out, kw, fresh=False):
    """_finish with the where=/dtype=/casting= keywords of a ufunc written in Python (fresh as for _finish)."""
    return _finish(result, out, kw.get("where", True), kw.get("dtype"), kw.get("casting", "same_kind"), fresh)


def _is_float(x):
    """A real floating dtype (complex is not: see _is_complex)."""
    return x._dtype_name in ("float16", "bfloat16", "float32", "float64")


def _is_complex(x):
    return x._dtype_name in ("complex64", "complex128")


def _is_inexact(x):
    return _is_float(x) or _is_complex(x)


_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def _real_dtype(name):
    """The dtype of a complex dtype's parts (real dtypes are their own)."""
    return _REAL_OF.get(name, name)


def _not_supported(name):
    """NumPy's TypeError for a ufunc without a loop for the operands' dtype (complex in float-only ufuncs)."""
    return TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could not be safely "
                     "coerced to any supported types according to the casting rule ''safe''")


def _no_complex(name, *xs):
    """Raises NumPy's TypeError when an operand of the float-only ufunc `name` is complex."""
    for x in xs:
        if isinstance(x, complex) and not isinstance(x, _np.generic) or \
                (isinstance(x, ndarray) and _is_complex(x)) or \
                (isinstance(x, (_np.ndarray, _np.generic)) and x.dtype.kind == "c"):
            raise _not_supported(name)


def _parts(x):
    """(real, imag) of a complex array: views when it is materialised, lazy nodes when pending."""
    return x._part(0), x._part(1)


def _complex_warning():
    import warnings

    warnings.warn("Casting complex values to real discards the imaginary part", _np.exceptions.ComplexWarning,
                  stacklevel=4)


def _raise_axis(axis, nd, prefix=""):
    raise _tegula.AxisError(f"{prefix}axis {axis} is out of bounds for array of dimension {nd}")


def _axis(axis, nd, prefix=""):
    """axis normalised for nd dimensions (negative counts from the end), NumPy's AxisError when out of range (never
    wrapped around); `prefix` as NumPy's "axis2: "."""
    if not -nd <= axis < nd:
        _raise_axis(axis, nd, prefix)
    return axis % nd
