"""tegula.numpy's ufuncs as objects with NumPy's ufunc methods: `tnp.add(x, y)` as before, and `tnp.add.reduce`,
`tnp.maximum.accumulate`, `tnp.multiply.outer`. reduce maps to the reductions (add: sum, multiply: prod, maximum:
max, ...); accumulate to cumsum/cumprod, and for maximum, minimum, fmax, fmin, logical_and, logical_or to log2(n)
fused doubling steps; outer broadcasts; add.at and subtract.at count repeated indices with bincount's kernel, the
other associative ufuncs' `at` and `reduceat` combine by doubling (_ufunc_segments.py). The rest raise
NotImplementedError naming them."""
from __future__ import annotations

import numpy as _np

from . import _creation, _manipulation, _nanfunctions, _reductions

# _scan (accumulate's doubling), _ufunc_segments (at, reduceat) and _histogram (add.at's counts) load at first use:
# tegula.numpy's import needs only the ufunc type (tests/python/test_lazy_import.py).

_REDUCE = {"add": _reductions.sum, "multiply": _reductions.prod, "maximum": _reductions.max,
           "minimum": _reductions.min, "logical_and": _reductions.all, "logical_or": _reductions.any,
           "fmax": _nanfunctions.nanmax, "fmin": _nanfunctions.nanmin}
_ACCUMULATE = {"add": _reductions.cumsum, "multiply": _reductions.cumprod}
_DOUBLING = ("maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or")
_NO_INITIAL = object()  # reduce's initial= when not given (None is a value NumPy accepts there)


class ufunc:
    """One of tegula.numpy's universal functions, with NumPy's ufunc attributes (nin, nout, nargs, identity,
    signature) and methods."""

    def __init__(self, fn, numpy_ufunc):
        self._fn = fn
        self.__name__ = numpy_ufunc.__name__
        self.__doc__ = fn.__doc__ or numpy_ufunc.__doc__
        self.nin, self.nout, self.nargs = numpy_ufunc.nin, numpy_ufunc.nout, numpy_ufunc.nargs
        self.identity, self.signature = numpy_ufunc.identity, numpy_ufunc.signature

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    @property
    def __signature__(self):
        """The function's own parameters (inspect.signature(tnp.vecdot) is (x1, x2, /, *, axis=-1))."""
        import inspect

        return inspect.signature(self._fn)

    def __repr__(self):
        return f"<tegula.numpy ufunc '{self.__name__}'>"

    def _binary(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_INITIAL, where=True):
        self._binary("reduce")
        reduction = _REDUCE.get(self.__name__)
        if reduction is None:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduce: only add, multiply, maximum, minimum, "
                                      "fmax, fmin, logical_and and logical_or reduce")
        kwargs = {"axis": axis, "out": out, "keepdims": keepdims}
        if where is not True:
            kwargs["where"] = where
        if initial is not _NO_INITIAL:
            if reduction in (_reductions.all, _reductions.any):
                raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduce(initial=...)")
            kwargs["initial"] = initial
        if dtype is not None:
            if reduction not in (_reductions.sum, _reductions.prod):
                array = _creation.asarray(array).astype(_np.dtype(dtype).name)
            else:
                kwargs["dtype"] = dtype
        return reduction(array, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        self._binary("accumulate")
        a = _creation.asarray(array)
        if dtype is not None:
            a = a.astype(_np.dtype(dtype).name)
        if self.__name__ in _ACCUMULATE:
            return _ACCUMULATE[self.__name__](a, axis=axis, out=out)
        if self.__name__ not in _DOUBLING:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.accumulate")
        if a.ndim == 0:
            raise ValueError("accumulate on a 0-d array")  # NumPy's AxisError text differs; the type matches
        from ._scan import scan_by_doubling

        r = scan_by_doubling(a, axis, self._fn)
        if out is not None:
            out[...] = r
            return out
        return r

    def outer(self, A, B, **kwargs):
        self._binary("outer")
        a, b = _creation.asarray(A), _creation.asarray(B)
        return self._fn(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def at(self, a, indices, b=None):
        """In place, a[indices] op= b with every repeated index applied (add and subtract): the indexed positions
        come from tegula.numpy's own indexing of an arange (any index NumPy takes), and their totals from the
        counting kernel of bincount (int64 totals for integers and bools, float64 for floats, by parts for
        complex), added to a once."""
        if isinstance(a, _np.ndarray):  # a NumPy array: NumPy's own, in place on the host
            return getattr(_np, self.__name__).at(a, indices, b)
        from . import _ufunc_segments
        from ._histogram import _counts

        if self.__name__ not in ("add", "subtract") + _ufunc_segments.AT:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.at: implemented for add, subtract and the "
                                      f"associative ufuncs ({', '.join(_ufunc_segments.AT)})")
        if b is None:
            raise ValueError("second operand needed for ufunc")
        if self.__name__ in _ufunc_segments.AT:
            return _ufunc_segments.at(self, a, indices, b)
        if self.__name__ == "subtract" and a._dtype_name == "bool":
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                            "`^` operator, or the logical_xor function instead.")
        pos = _creation.arange(a.size, dtype="int64", device=a.device).reshape(a.shape)[indices]
        vals = _manipulation.broadcast_to(_creation.asarray(b, device=a.device), pos.shape).reshape(-1)
        pos = pos.reshape(-1)
        if self.__name__ == "subtract":
            vals = -vals
        if vals._dtype_name.startswith("complex"):
            re, im = _counts(pos, a.size, vals.real), _counts(pos, a.size, vals.imag)
            totals = re + 1j * im
        else:
            kind = "float64" if vals._dtype_name.startswith(("float", "bfloat")) else "int64"
            totals = _counts(pos, a.size, vals.astype(kind))
        totals = totals.reshape(a.shape)
        if a._dtype_name == "bool":
            a[...] = a | (totals != 0)
        else:
            a[...] = (a + totals).astype(a._dtype_name)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """The reduction of each slice [indices[i], indices[i+1]) along `axis` (a[indices[i]] where
        indices[i] >= indices[i+1]), for add, multiply, maximum, minimum, fmax, fmin, logical_and, logical_or."""
        self._binary("reduceat")
        from . import _ufunc_segments

        if self.__name__ not in _ufunc_segments.REDUCEAT:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduceat: implemented for "
                                      f"{', '.join(_ufunc_segments.REDUCEAT)}")
        return _ufunc_segments.reduceat(self, array, indices, axis, dtype, out)


def wrap_namespace(ns):
    """Replaces each NumPy ufunc's name in namespace `ns` (tegula.numpy's globals) by a ufunc object over it."""
    for name in list(ns):
        target = getattr(_np, name, None)
        fn = ns[name]
        if isinstance(target, _np.ufunc) and callable(fn) and not isinstance(fn, ufunc) and not isinstance(fn, type):
            ns[name] = ufunc(fn, target)
