"""The Python half of tegula.numpy.ndarray: properties and methods that are argument shaping
over the C++ type (operators, views, reductions and transfers are C++)."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._core import ndarray, np_dtype, to_numpy
from . import _creation, _flatiter, _layout, _manipulation
from ._common import _complex_warning
from ._creation import asarray, empty
from ._indexing import getitem_advanced, setitem_advanced


def _normalize_shape(args):
    if len(args) == 1 and not isinstance(args[0], int):
        return tuple(int(v) for v in args[0])
    return tuple(int(v) for v in args)


# Key entries the C++ basic indexer must not see: it reads bools and 0-d arrays as ints, but NumPy's bool is a
# 0-d boolean index and its 0-d integer array an integer index whose read is a copy.
_NOT_BASIC = (bool, _np.bool_, _np.ndarray, ndarray)


def _is_basic(key):
    t = type(key)
    if t is tuple:
        for k in key:
            tk = type(k)
            if tk is not int and tk is not slice and isinstance(k, _NOT_BASIC):  # ints and slices: the common keys
                return False
        return True
    return t is int or t is slice or not isinstance(key, _NOT_BASIC)


def _getitem(self, key):
    if _is_basic(key):
        r = self._getitem_basic((None,) if key is None else key)
        if r is not None:
            return r

    return getitem_advanced(self, key)


def _value(self, value):
    """An assigned value as a node: Python scalars weak (cast to self's dtype), others as arrays."""
    if isinstance(value, ndarray):
        return value
    if _is_scalar(value):
        return self._scalar_like(value)
    return _core.as_array(value, self._device_id)


def _setitem(self, key, value):
    if _is_complex_value(value) and not self._dtype_name.startswith("complex"):
        if isinstance(value, complex) and not isinstance(value, _np.generic):
            raise TypeError("float() argument must be a string or a real number, not 'complex'")  # NumPy's
        _complex_warning()
    try:
        value = _value(self, value)
    except OverflowError:
        from ._indexing import check_structure

        check_structure(self, (None,) if key is None else key)  # NumPy's IndexErrors that come before the value's
        raise
    key = (None,) if key is None else key
    if _is_basic(key):
        basic = value
        if value.ndim and value.shape[0] == 1:  # NumPy drops leading 1-dims the target does not have
            lead = next((i for i, d in enumerate(value.shape) if d != 1), value.ndim)
            basic = value.reshape(value.shape[lead:])
        if self._setitem_basic(key, basic):
            return

    setitem_advanced(self, key, value)


def _is_scalar(v):
    return isinstance(v, (bool, int, float)) and not isinstance(v, _np.generic)


def _is_complex_value(v):
    if isinstance(v, ndarray):
        return v._dtype_name.startswith("complex")
    if isinstance(v, (complex, _np.complexfloating)):
        return True
    return isinstance(v, _np.ndarray) and v.dtype.kind == "c"


# .real / .imag: NumPy's views. A complex array's parts are float views of its storage (a pending array is
# computed first, so that writes through the view reach it); a real array's real part is itself and its
# imaginary part zeros (NumPy's are read-only; these are a new array, so writes to them go nowhere).
def _real(self):
    if not self._dtype_name.startswith("complex"):
        return self
    if self._pending:
        self._materialize()
    return self._part(0)


def _imag(self):
    if not self._dtype_name.startswith("complex"):
        from ._creation import zeros_like

        return zeros_like(self)
    if self._pending:
        self._materialize()
    return self._part(1)


def _set_part(k):
    def setter(self, value):
        if not self._dtype_name.startswith("complex"):
            if k == 1:
                raise TypeError("array does not have imaginary part to set")
            self[...] = value
            return
        if _is_complex_value(value):
            _complex_warning()
        if self._pending:
            self._materialize()
        self._part(k)[...] = value

    return setter


def _repr(self):
    body = repr(to_numpy(self) if self._dtype_name != "bfloat16" else to_numpy(self.astype("float32")))
    return body if self._device_id >= 0 else body[:-1] + ", device='cpu')"


def _array(self, dtype=None, copy=None):
    a = to_numpy(self)
    return a if dtype is None else a.astype(dtype, copy=False)


def _item(self, *args):
    if args:
        return to_numpy(self).item(*args)
    if self.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return to_numpy(self).item()


def _scalar(self, kind):
    """float(a), int(a), complex(a): only for one element, as NumPy (a TypeError otherwise)."""
    if self.size != 1:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    return kind(to_numpy(self).item())


_FUNCTIONS = None  # the _functions facade (the NumPy function modules, _sort's and _matmul's among them), imported
# on the first method that needs it: `import tegula.numpy` loads neither (tests/python/test_lazy_import.py)


def _load_functions():
    global _FUNCTIONS
    from . import _functions

    _FUNCTIONS = _functions
    return _functions


_DOT_KEEPS_DTYPE = frozenset(("float32", "float64", "complex64", "complex128"))  # their sum keeps the dtype
_MATMUL = None  # the _matmul module, imported on the first product (it imports this module's package)


def _load_matmul():
    global _MATMUL
    from . import _matmul

    _MATMUL = _matmul
    return _matmul


def _matmul(self, other):
    m = _MATMUL or _load_matmul()
    # a @ b of two 1-D arrays of one float dtype (lu's, cholesky's and trmm's loops): straight to matmul's fused
    # multiply-sum, without its general checks' Python cost (2.7 -> 1.5 us to record)
    if type(other) is ndarray and self.ndim == 1 and other.ndim == 1 and self.shape == other.shape and \
            self._dtype_name == other._dtype_name and self._dtype_name in _DOT_KEEPS_DTYPE and \
            self._device_id == other._device_id:
        return m._vector_dot(self, other, self._dtype_name)
    return m.matmul(self, other)


def _bool(self):
    if self.size != 1:
        raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")
    return bool(_item(self))


def _len(self):
    if not self.shape:
        raise TypeError("len() of unsized object")
    return self.shape[0]


def _iter(self):
    if not self.shape:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _reshape(self, *shape, order="C", copy=None):
    return _manipulation.reshape(self, _normalize_shape(shape), order=order, copy=copy)


def _transpose(self, *axes):
    if not axes or axes == (None,):
        return self._transpose([])
    return self._transpose(list(_normalize_shape(axes)))


def _cai(self):
    # the consumer may write: pending readers take their values first (bind_array.cpp: array_interface)
    return self._array_interface(True)


def _array_namespace(self, api_version=None):
    if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        raise ValueError(f"tegula.numpy implements the array API 2024.12 (and earlier), not {api_version!r}")
    return __import__("tegula.numpy", fromlist=["x"])


def _dlpack_device(self):
    return (1, 0) if self._device_id < 0 else (2, self._device_id)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """The array API's __dlpack__: zero-copy unless copy=True or dl_device is another device (a copy there, which
    copy=False refuses with BufferError, as the standard says)."""
    src = self
    if dl_device is not None and tuple(dl_device) != _dlpack_device(self):
        kind, ordinal = tuple(dl_device)
        if copy is False:
            raise BufferError(f"__dlpack__: exporting to device {tuple(dl_device)} needs a copy, and copy=False")
        if kind == 1:
            src = _to_device(self, "cpu")
        elif kind == 2:
            src = _to_device(self, ordinal)
        else:
            raise BufferError(f"__dlpack__: cannot export to DLPack device type {kind} (tegula has CPU and CUDA)")
        copy = None  # the moved array is the copy
    if copy:
        src = _copy(self)
    return src._export_dlpack(stream, max_version)


def _to_device(self, device, stream=None):
    dev = _core.device_id(device)
    if dev == self._device_id:
        return self
    if dev < 0:
        return _core.from_numpy(to_numpy(self), -1)
    return _core.from_numpy(to_numpy(self), dev)


def _astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """NumPy's astype: any dtype spelling; a new array even for the same dtype unless copy=False."""
    return _creation._astype(self, dtype, order, copy)


def _copy(self, order="C"):
    return _creation.copy(self, order)


def _fill(self, value):
    self._assign(_value(self, value))



# NumPy scalar (left) op tegula array: NumPy's scalar hands the operator to __array_ufunc__; the four arithmetic
# ufuncs go straight to the C++ operator (alpha * A[i, k] in NPBench's loops: 2.7 -> 1.9 us).
_SCALAR_LEFT = {_np.add: "add", _np.subtract: "sub", _np.multiply: "mul", _np.true_divide: "div"}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if method == "__call__" and not kwargs and len(inputs) == 2 and inputs[1] is self:
        op = _SCALAR_LEFT.get(ufunc)
        x = inputs[0]
        if op is not None and _core.is_strong_scalar(x):
            r = self._binary(op, x, True)
            if r is not NotImplemented:
                return r
    name = ufunc.__name__
    fn = getattr(_FUNCTIONS or _load_functions(), name, None)
    if method == "__call__" and fn is not None:
        return fn(*inputs, **kwargs)
    if method in ("reduce", "accumulate", "outer", "at"):  # numpy.add.reduce(x) etc.: tegula.numpy's ufunc objects
        u = _package_get(name)
        if u is not None and hasattr(u, method):
            return getattr(u, method)(*inputs, **kwargs)
    return NotImplemented  # NumPy then raises TypeError


_NAMESPACE = {}  # tegula.numpy's globals (the live dict), given by the package to install(): it sits above


def _package_get(name):
    """tegula.numpy's `name` or None (NumPy's functions by name: __array_function__, __array_ufunc__'s methods): the
    namespace's own entry, else what its __getattr__ loads at first use (a submodule's or a lazy module's name)."""
    fn = _NAMESPACE.get(name)
    if fn is None and not name.startswith("__"):
        load = _NAMESPACE.get("__getattr__")
        if load is not None:
            try:
                fn = load(name)
            except AttributeError:
                return None
    return fn


def _array_function(self, func, types, args, kwargs):
    fn = _package_get(func.__name__)
    if fn is None or not callable(fn):
        return NotImplemented
    return fn(*args, **kwargs)


def _tnp(name):
    """tegula.numpy's function `name` (the package namespace: some functions live outside _functions)."""
    fn = _package_get(name)
    if fn is None:
        raise KeyError(name)
    return fn


def _tnp_method(name):
    def call(self, *args, **kwargs):
        return _tnp(name)(self, *args, **kwargs)

    call.__name__ = name
    return call


def _method(name):
    def call(self, *args, **kwargs):
        return getattr(_FUNCTIONS or _load_functions(), name)(self, *args, **kwargs)

    call.__name__ = name
    return call


def _clip(self, min=None, max=None, out=None, **kwargs):  # noqa: A002
    """NumPy's ndarray.clip: positional bounds are min and max (the function's a_min/a_max must come in pairs)."""
    return (_FUNCTIONS or _load_functions()).clip(self, min=min, max=max, out=out, **kwargs)


def _sort_in_place(self, axis=-1, kind=None, order=None, *, stable=None):
    """ndarray.sort: sorts `self` in place and returns None, as NumPy's method does (np.sort returns a copy)."""
    if axis is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")  # NumPy's (np.sort takes None)
    extra = {} if stable is None else {"stable": stable}
    self[...] = _tnp("sort")(self, axis=axis, kind=kind, order=order, **extra)


def _partition_in_place(self, kth, axis=-1, kind="introselect", order=None):
    """ndarray.partition: in place, returning None, as NumPy's method does."""
    self[...] = _tnp("partition")(self, kth, axis=axis, kind=kind, order=order)


def _compress(self, condition, axis=None, out=None):
    return _tnp("compress")(condition, self, axis=axis, out=out)


def _imatmul(self, other):
    """a @= b: in place, which needs a @ b to have a's shape (NumPy's ValueError otherwise)."""
    r = _matmul(self, other)
    if r.shape != self.shape:
        raise ValueError(f"matmul: the result of shape {r.shape} does not fit the array of shape {self.shape} "
                         "that @= writes into")
    self[...] = r
    return self


def _view(self, dtype=None, type=None):  # noqa: A002 - NumPy's names
    """ndarray.view: a new array object over the same memory; with a dtype, the same bytes read as that dtype (the
    last axis scales with the item size, NumPy's rules and errors). Viewing as another array class is not
    supported (a NotImplementedError naming it)."""
    import builtins

    if type is not None or (isinstance(dtype, builtins.type) and issubclass(dtype, (ndarray, _np.ndarray))):
        raise NotImplementedError("ndarray.view(type=...): tegula arrays have no subclasses to view as")
    if dtype is None:
        return self[...]
    name = _core.dtype_name(dtype)
    if name == self._dtype_name:
        return self[...]
    if name == "bool":
        raise NotImplementedError(f"ndarray.view(bool) of {self._dtype_name}: bytes other than 0 and 1 would not read "
                                  "as NumPy's True in tegula's kernels; use a != 0")
    return self._view_as(name)


def _dump(self, file):
    """ndarray.dump: the pickle of the array (a host copy and its device) into a file or a path."""
    import os
    import pickle

    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def _rebuild(host, dtype_name, device_id):
    """Unpickling: the values back on the device they were pickled from (the default device when this process has
    no such device; the CPU interpreter for CPU arrays)."""
    if device_id < 0:
        device = _core.Device("cpu")
    else:
        device = _core.Device("cuda", device_id) if device_id < _core.cuda_device_count() else None
    return asarray(host, device=device).astype(dtype_name)


def _reduce(self):
    """pickle: the values as a host NumPy array (bfloat16 as float32, which holds it exactly) and the device."""
    host = (self.astype("float32") if self._dtype_name == "bfloat16" else self).get()
    return _rebuild, (host, self._dtype_name, self._device_id)


def _matrix_transpose(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")  # NumPy's
    return self.swapaxes(-1, -2)


def _construct(shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """NumPy's ndarray(shape, dtype, ...) constructor: a new, uninitialised array on the default device (as
    empty()). Arrays over someone else's memory come from asarray/from_dlpack instead: buffer= and strides= raise."""
    if buffer is not None or strides is not None or offset:
        raise NotImplementedError("tegula.numpy.ndarray(shape, dtype, buffer=/offset=/strides=): an array over existing "
                                  "memory is made with tegula.numpy.asarray or from_dlpack")

    return empty(shape, dtype, "C" if order is None else order)


def install(namespace):
    """Binds every ndarray method and attribute in one place; `namespace` is tegula.numpy's globals (the package
    passes it down, so that nothing here imports the package above it)."""
    global _NAMESPACE
    _NAMESPACE = namespace
    A = ndarray
    _core._tegula._set_ndarray_constructor(_construct)
    if not hasattr(A, "_cast"):
        A._cast = A.astype  # the C++ cast (dtype names only; the same dtype gives the same array)
    A.astype = _astype
    A.dtype = property(lambda self: np_dtype(self._dtype_name))
    A.device = property(_core.device_of)
    A.T = property(lambda self: self._transpose([]))
    A.mT = property(_matrix_transpose)
    A.nbytes = property(lambda self: self.size * self.itemsize)
    A.strides = property(lambda self: tuple(s * self.itemsize for s in self._strides))
    A.__cuda_array_interface__ = property(_cai)
    A.__getitem__ = _getitem
    A.__setitem__ = _setitem
    A.__repr__ = _repr
    A.__str__ = lambda self: str(to_numpy(self))
    A.__array__ = _array
    A.__array_priority__ = 100
    A.__array_ufunc__ = _array_ufunc
    A.__array_function__ = _array_function
    A.__array_namespace__ = _array_namespace
    A.__dlpack_device__ = _dlpack_device
    A.__dlpack__ = _dlpack
    A.__len__ = _len
    A.__iter__ = _iter
    A.__bool__ = _bool
    A.__float__ = lambda self: _scalar(self, float)
    A.__int__ = lambda self: _scalar(self, int)
    A.__matmul__ = _matmul
    A.__rmatmul__ = lambda self, other: _matmul(other, self)
    A.__index__ = lambda self: int(_item(self)) if self._dtype_name.startswith(("int", "uint")) else \
        (_ for _ in ()).throw(TypeError("only integer arrays can be used as an index"))
    A.__complex__ = lambda self: _scalar(self, complex)
    A.real = property(_real, _set_part(0))
    A.imag = property(_imag, _set_part(1))
    A.get = lambda self: to_numpy(self)
    A.tolist = lambda self: to_numpy(self).tolist()
    A.item = _item
    A.reshape = _reshape
    A.transpose = _transpose
    A.copy = _copy
    A.fill = _fill
    A.to_device = _to_device

    A.flags = property(_layout.Flags)
    for name in ("sum", "prod", "mean", "std", "var", "max", "min", "argmax", "argmin", "all", "any", "ravel",
                 "flatten", "squeeze", "swapaxes", "clip", "round", "conj", "nonzero", "cumsum", "cumprod", "dot",
                 "sort", "argsort", "repeat", "take", "conjugate", "diagonal", "trace"):
        setattr(A, name, _method(name))
    for name in ("argpartition", "choose", "put", "searchsorted"):
        setattr(A, name, _tnp_method(name))
    A.sort = _sort_in_place
    A.partition = _partition_in_place
    A.compress = _compress
    A.clip = _clip
    A.__imatmul__ = _imatmul
    A.__copy__ = lambda self: self.copy()
    A.__deepcopy__ = lambda self, memo=None: self.copy()
    A.__contains__ = lambda self, value: bool((self == value).any())
    A.__divmod__ = lambda self, other: _tnp("divmod")(self, other)
    A.__rdivmod__ = lambda self, other: _tnp("divmod")(other, self)
    A.tobytes = lambda self, order="C": to_numpy(self).tobytes(order)
    # A host copy written out, as NumPy's own methods write it (tofile's raw bytes or text; dump(s)'s pickle).
    A.tofile = lambda self, fid, sep="", format="%s": to_numpy(self).tofile(fid, sep, format)  # noqa: A002
    A.dumps = lambda self: __import__("pickle").dumps(self, protocol=2)
    A.dump = _dump
    A.view = _view
    A.__reduce__ = _reduce
    import types

    A.__class_getitem__ = classmethod(types.GenericAlias)  # ndarray[shape, dtype] in annotations, as NumPy's

    A.flat = property(_flatiter.get_flat, _flatiter.set_flat)
