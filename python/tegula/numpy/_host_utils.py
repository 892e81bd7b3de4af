"""NumPy's functions that belong on the host by nature: file and buffer I/O (load, save, savez, loadtxt, savetxt,
genfromtxt, fromfile, frombuffer, fromiter, fromstring), printing (array2string, array_repr, array_str and the
print options), dtype utilities (issubdtype, common_type, ...) and a few checks. Readers build the
array with NumPy on the host and copy it to the device; writers copy the array back first. Said here, not
warned: no GPU path could do these."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._common import _arr

# dtype utilities and print options: NumPy's own (they see dtypes and settings, never array data)
from numpy import (base_repr, binary_repr, errstate, format_float_positional, format_float_scientific,  # noqa: F401
                   get_printoptions, getbufsize, geterr, geterrcall, iterable, min_scalar_type, mintypecode,
                   printoptions, set_printoptions, setbufsize, seterr, seterrcall, typename)
from ._creation import asarray
from ._ufuncs import isfinite
# (seterr/geterr/errstate govern NumPy's own floating-point warnings on the host: tegula's kernels raise none,
# as CuPy's do not)


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """NumPy's contraction order for these shapes (it looks only at shapes: the operands are stood in for by
    zero-stride host views, so nothing is copied)."""
    stand_ins = [_np.lib.stride_tricks.as_strided(_np.zeros(1, dtype=_np.dtype(_arr(o).dtype)), _arr(o).shape,
                                                  (0,) * _arr(o).ndim) for o in operands]
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize, einsum_call=einsum_call)


def issubdtype(arg1, arg2):
    def dt(x):  # an array stands for its dtype; a type or dtype is itself
        return x.dtype if isinstance(x, (_core.ndarray, _np.ndarray)) else x
    return _np.issubdtype(dt(arg1), dt(arg2))


def common_type(*arrays):
    return _np.common_type(*[_np.empty(0, dtype=_np.dtype(_arr(a).dtype)) for a in arrays])


def _to_device(host, device=None):
    return _core.as_array(host, None if device is None else _core.device_id(device))


def _host(a):
    return a.get() if isinstance(a, _core.ndarray) else a


def load(file, *args, device=None, **kwargs):
    """np.load, with each array copied to the device (an .npz file gives a dict of tegula arrays)."""
    r = _np.load(file, *args, **kwargs)
    if isinstance(r, _np.ndarray):
        return _to_device(r, device)
    if hasattr(r, "files"):
        with r:
            return {k: _to_device(r[k], device) for k in r.files}
    return r


def save(file, arr, *args, **kwargs):
    _np.save(file, _host(arr), *args, **kwargs)


def savez(file, *args, **kwds):
    _np.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    _np.savez_compressed(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def loadtxt(*args, device=None, **kwargs):
    return _to_device(_np.loadtxt(*args, **kwargs), device)


def savetxt(fname, X, *args, **kwargs):
    _np.savetxt(fname, _host(X), *args, **kwargs)


def genfromtxt(*args, device=None, **kwargs):
    return _to_device(_np.genfromtxt(*args, **kwargs), device)


def fromfile(*args, device=None, **kwargs):
    return _to_device(_np.fromfile(*args, **kwargs), device)


def frombuffer(*args, device=None, **kwargs):
    return _to_device(_np.frombuffer(*args, **kwargs).copy(), device)


def fromiter(*args, device=None, **kwargs):
    return _to_device(_np.fromiter(*args, **kwargs), device)


def fromstring(*args, device=None, **kwargs):
    return _to_device(_np.fromstring(*args, **kwargs), device)


def array2string(a, *args, **kwargs):
    return _np.array2string(_host(_arr(a)), *args, **kwargs)


def array_repr(arr, *args, **kwargs):
    return _np.array_repr(_host(_arr(arr)), *args, **kwargs)


def array_str(a, *args, **kwargs):
    return _np.array_str(_host(_arr(a)), *args, **kwargs)


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    return _to_device(_np.fromregex(file, regexp, dtype, encoding=encoding), device)


def isnat(x):
    """tegula arrays hold no datetime64/timedelta64 values, so this is NumPy's TypeError for every other dtype."""
    raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")


def frompyfunc(func, nin, nout, *, identity=None):
    """A function applying the Python callable element by element, as NumPy's frompyfunc: it runs on the host
    (a Python call per element cannot run on a GPU), said once by a PerformanceWarning, and gives object arrays
    as NumPy's does (NumPy arrays: tegula arrays have no object dtype)."""
    uf = _np.frompyfunc(func, nin, nout, identity=identity)

    def apply(*args, **kwargs):
        import warnings

        from tegula.tile import PerformanceWarning

        if not _SAID["frompyfunc"]:
            _SAID["frompyfunc"] = True
            warnings.warn("tegula.numpy.frompyfunc runs its Python function on the host, element by element, and "
                          "returns NumPy object arrays", PerformanceWarning, stacklevel=2)
        return uf(*[_host(a) for a in args], **kwargs)
    apply.__name__ = getattr(func, "__name__", "frompyfunc")
    return apply


_SAID = {"frompyfunc": False, "vectorize": False}

_DEVICE_KINDS = "biufc"  # result dtypes tegula arrays hold (bool, integers, floats, complex)


class vectorize:
    """NumPy's vectorize: the Python function runs on the host, element by element (a Python call per element
    cannot run on a GPU), said once by a PerformanceWarning. Tegula arrays among the arguments are copied to the
    host; numeric results come back as tegula arrays on the first tegula argument's device (the default device
    when there is none), others (objects, strings) stay NumPy arrays. Used bare or as `@vectorize(otypes=...)`."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        self._options = {"otypes": otypes, "doc": doc, "excluded": excluded, "cache": cache, "signature": signature}
        self._v = None if pyfunc is None else _np.vectorize(pyfunc, **self._options)
        if pyfunc is not None:
            self.__doc__ = self._v.__doc__
            self.__name__ = getattr(pyfunc, "__name__", "vectorize")

    def __call__(self, *args, **kwargs):
        if self._v is None:  # @vectorize(otypes=...) applied to the function
            if len(args) != 1 or kwargs or not callable(args[0]):
                raise TypeError("vectorize(otypes=...) used as a decorator takes one function")
            return vectorize(args[0], **self._options)
        import warnings

        from tegula.tile import PerformanceWarning

        if not _SAID["vectorize"]:
            _SAID["vectorize"] = True
            warnings.warn("tegula.numpy.vectorize runs its Python function on the host, element by element; "
                          "numeric results are copied back to the device", PerformanceWarning, stacklevel=2)
        device = next((a.device for a in list(args) + list(kwargs.values()) if isinstance(a, _core.ndarray)), None)
        r = self._v(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})

        def back(x):
            x = _np.asarray(x)
            return _to_device(x, device) if x.dtype.kind in _DEVICE_KINDS else x

        return tuple(back(x) for x in r) if isinstance(r, tuple) else back(r)


def asarray_chkfinite(a, dtype=None, order=None, *, device=None):
    r = asarray(a, dtype=dtype, device=device)
    if r._dtype_name.startswith(("float", "complex", "bfloat")) and not bool(isfinite(r).all()):
        raise ValueError("array must not contain infs or NaNs")
    return r


def isfortran(a):
    """True for a Fortran-ordered array that is not also C-ordered (NumPy's isfortran)."""
    a = _arr(a)
    if a.ndim < 2 or a._c_contiguous:
        return False
    expect = a.itemsize
    for n, s in zip(a.shape, a.strides):
        if n > 1 and s != expect:
            return False
        expect *= n
    return True


def shares_memory(a, b, max_work=None):
    """Whether a and b overlap in memory (their byte ranges on the same device; exact for contiguous arrays)."""
    a, b = _arr(a), _arr(b)
    if a._device_id != b._device_id or a.size == 0 or b.size == 0:
        return False
    return a._shares_memory(b)


may_share_memory = shares_memory


__all__ = ["fromregex", "isnat", "frompyfunc", "vectorize", "getbufsize", "setbufsize", "base_repr", "binary_repr", "errstate", "geterr", "geterrcall", "seterr", "seterrcall", "einsum_path",
           "format_float_positional", "format_float_scientific", "get_printoptions",
           "iterable", "min_scalar_type", "mintypecode", "printoptions", "set_printoptions",
           "typename", "issubdtype", "common_type", "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt",
           "genfromtxt", "fromfile", "frombuffer", "fromiter", "fromstring", "array2string", "array_repr", "array_str",
           "asarray_chkfinite", "isfortran", "shares_memory", "may_share_memory"]
