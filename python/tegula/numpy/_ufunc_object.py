"""tegula.numpy's ufuncs as objects with NumPy's ufunc methods: `tnp.add(x, y)` as before, and `tnp.add.reduce`,
`tnp.maximum.accumulate`, `tnp.multiply.outer`. reduce maps to the reductions (add: sum, multiply: prod, maximum:
max, ...); accumulate to cumsum/cumprod, and for maximum, minimum, fmax, fmin, logical_and, logical_or to log2(n)
fused doubling steps; outer broadcasts. `at` and `reduceat` raise NotImplementedError naming them."""
from __future__ import annotations

import numpy as _np

_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
           "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
_DOUBLING = ("maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or")


def _tnp(name):
    import tegula.numpy as tnp

    return getattr(tnp, name)


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

    def __repr__(self):
        return f"<tegula.numpy ufunc '{self.__name__}'>"

    def _binary(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_np._NoValue, where=True):
        self._binary("reduce")
        name = _REDUCE.get(self.__name__)
        if name is None:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduce: only add, multiply, maximum, minimum, "
                                      "fmax, fmin, logical_and and logical_or reduce")
        kwargs = {"axis": axis, "out": out, "keepdims": keepdims}
        if where is not True:
            kwargs["where"] = where
        if initial is not _np._NoValue:
            if name in ("all", "any"):
                raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduce(initial=...)")
            kwargs["initial"] = initial
        if dtype is not None:
            if name not in ("sum", "prod"):
                array = _tnp("asarray")(array).astype(_np.dtype(dtype).name)
            else:
                kwargs["dtype"] = dtype
        return _tnp(name)(array, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        self._binary("accumulate")
        a = _tnp("asarray")(array)
        if dtype is not None:
            a = a.astype(_np.dtype(dtype).name)
        if self.__name__ in _ACCUMULATE:
            return _tnp(_ACCUMULATE[self.__name__])(a, axis=axis, out=out)
        if self.__name__ not in _DOUBLING:
            raise NotImplementedError(f"tegula.numpy.{self.__name__}.accumulate")
        if a.ndim == 0:
            raise ValueError("accumulate on a 0-d array")  # NumPy's AxisError text differs; the type matches
        r = _doubling(self._fn, a, axis)
        if out is not None:
            out[...] = r
            return out
        return r

    def outer(self, A, B, **kwargs):
        self._binary("outer")
        a, b = _tnp("asarray")(A), _tnp("asarray")(B)
        return self._fn(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def at(self, *args, **kwargs):
        raise NotImplementedError(f"tegula.numpy.{self.__name__}.at (unbuffered in-place updates at repeated "
                                  "indices) is not implemented")

    def reduceat(self, *args, **kwargs):
        raise NotImplementedError(f"tegula.numpy.{self.__name__}.reduceat is not implemented")


def _doubling(fn, a, axis):
    """The running fn along `axis`: after step j every element holds fn over the 2^(j+1) elements ending at it."""
    axis = axis % a.ndim
    n = a.shape[axis]
    r = a
    step = 1
    while step < n:
        head = [slice(None)] * a.ndim
        tail = [slice(None)] * a.ndim
        head[axis], tail[axis] = slice(0, step), slice(step, None)
        earlier = [slice(None)] * a.ndim
        earlier[axis] = slice(0, n - step)
        r = _tnp("concatenate")([r[tuple(head)], fn(r[tuple(tail)], r[tuple(earlier)])], axis=axis)
        step *= 2
    return r


def wrap_namespace(ns):
    """Replaces each NumPy ufunc's name in namespace `ns` (tegula.numpy's globals) by a ufunc object over it."""
    for name in list(ns):
        target = getattr(_np, name, None)
        fn = ns[name]
        if isinstance(target, _np.ufunc) and callable(fn) and not isinstance(fn, ufunc) and not isinstance(fn, type):
            ns[name] = ufunc(fn, target)
