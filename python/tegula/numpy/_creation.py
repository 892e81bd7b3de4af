"""tegula.numpy array creation: empty/zeros/ones/full (and *_like), array/asarray, arange, linspace, eye, meshgrid,
copy; in C, F or any memory order (order=)."""
from __future__ import annotations

import math
import operator as _operator

import numpy as _np

from . import _core, _layout
from ._common import _arr, _complex_warning, _copy_of, _dev, _py_all, _py_any, _py_max
from ._core import _tegula, as_array, dtype_name, ndarray
from ._dtypes import result_type


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _reversed_axes(n):
    return list(range(n))[::-1]


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    """order='F': a C-ordered array of the reversed shape, transposed (a view), which is F-ordered memory."""
    shape = _shape(shape)
    if _layout.parse_order(order, "CF") == "F":
        return _layout.empty_in(shape, dtype_name(dtype), _dev(device), _reversed_axes(len(shape)))
    return _tegula.array_empty(shape, dtype_name(dtype), _dev(device))


def _filled(a, fill_value):
    """a with every element set to fill_value (an array broadcasts; a Python scalar is cast as NumPy's fill)."""
    if isinstance(fill_value, ndarray) and fill_value._device_id != a._device_id:
        fill_value = fill_value.to_device(_core.device_of(a))
    a._assign(_arr(fill_value, a) if not isinstance(fill_value, ndarray) else fill_value)
    return a


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    if dtype is None:
        dtype = _np.asarray(fill_value).dtype if not isinstance(fill_value, ndarray) else fill_value.dtype
    if isinstance(fill_value, ndarray) and device is None:  # an array fill: the result lives where it does
        device = _core.device_of(fill_value)
    return _filled(empty(shape, dtype, order, device=device), fill_value)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 0, dtype or "float64", order, device=device)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 1, dtype or "float64", order, device=device)


def _like_device(a, device):
    return device if device is not None else (_core.device_of(a) if isinstance(a, ndarray) else None)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """order='K' (the default) keeps a's memory order (C, F or any axis order), 'A' F where a is F-contiguous;
    a pending `a` is C-ordered. A shape= of another number of axes gives C order, as NumPy does."""
    if not isinstance(a, (ndarray, _np.ndarray)):
        a = _np.asarray(a)
    o = _layout.parse_order(order, default="K")
    shape = a.shape if shape is None else _shape(shape)
    if len(shape) == a.ndim:
        perm = _layout.memory_perm(a, o)
    else:  # 'K' has no order to keep: C; 'A' still F for an F-contiguous a
        fortran = o == "F" or (o == "A" and _layout.f_contiguous(a) and not _layout.c_contiguous(a))
        perm = _reversed_axes(len(shape)) if fortran else list(range(len(shape)))
    return _layout.empty_in(shape, dtype_name(dtype or a.dtype), _dev(_like_device(a, device)), perm)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled(empty_like(a, dtype, order, subok, shape, device=device), 0)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled(empty_like(a, dtype, order, subok, shape, device=device), 1)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _filled(empty_like(a, dtype, order, subok, shape, device=device), fill_value)


def _inverse(perm):
    inv = [0] * len(perm)
    for j, p in enumerate(perm):
        inv[p] = j
    return inv


def _from_host(obj, dtype, order, device_id):
    """Host data (NumPy arrays, lists, scalars) uploaded in the memory order NumPy's array(obj, dtype, order)
    gives: the host array with its axes permuted to C order is what is copied, so an F-ordered array goes up
    as it is, with no host copy."""
    native = dtype is not None and dtype_name(dtype) != "bfloat16"
    if native and not isinstance(obj, _np.ndarray):
        # Python values convert as NumPy converts them: a Python int out of the dtype's range is NumPy's
        # OverflowError, not a wrapped value (NumPy arrays cast, wrapping, as NumPy's array() does).
        src = _np.asarray(obj, dtype=_np.dtype(dtype_name(dtype)))
    else:
        src = _np.asarray(obj)
    host = src if not native else src.astype(dtype, copy=False)
    perm = _layout.memory_perm(host, "K" if order == "A" and host is not src else order)
    if perm == list(range(host.ndim)):
        return as_array(host, device_id, dtype)
    # the transpose of the (possibly pending, cast) upload materialises it in the permuted C order
    return as_array(_np.ascontiguousarray(host.transpose(perm)), device_id, dtype)._transpose(_inverse(perm))


def _in_order(obj, dtype, order, copy, device):
    """A tegula array as NumPy's array(obj, dtype, order, copy) lays it out: 'K' keeps obj's memory order, 'A'
    F for F-contiguous obj (and, with a cast, 'K' otherwise, as NumPy), 'C'/'F' force it. C-ordered results
    of a cast stay lazy (a pending cast computes in C order)."""
    cast = dtype is not None and dtype_name(dtype) != obj._dtype_name
    a = obj.astype(dtype_name(dtype)) if cast else obj
    moved = device is not None and _dev(device) != obj._device_id
    if moved:
        a = a.to_device(device)
    if order == "A" and cast and not (_layout.f_contiguous(obj) and not _layout.c_contiguous(obj)):
        order = "K"
    perm = _layout.memory_perm(obj, order)
    if perm == list(range(obj.ndim)):
        if copy and not (cast or moved):
            a = _layout.in_layout(obj, perm)
        return a._contiguous() if order == "C" and not _layout.c_contiguous(a) else a
    if copy or cast or moved or not _layout.has_layout(a, perm):
        a = _layout.in_layout(a, perm)
    return a


def _astype(a, dtype, order="K", copy=True):
    """ndarray.astype's order= (for _ndarray to call): 'K' keeps a's memory order, 'A' F for F-contiguous a,
    'C'/'F' force it; copy=False returns a itself where dtype and order already hold, as NumPy. A C-ordered
    result stays lazy (a pending cast), another order is computed into memory of that order."""
    o = _layout.parse_order(order, default="K")
    name = dtype_name(dtype)
    same = name == a._dtype_name
    if not same and a._dtype_name.startswith("complex") and not name.startswith("complex") and name != "bool":
        _complex_warning()
    if same and not copy:
        c, f = _layout.c_contiguous(a), _layout.f_contiguous(a)
        if o == "K" or (o == "A" and (c or f)) or (o == "C" and c) or (o == "F" and f):
            return a
    value = _copy_of(a) if same else a._cast(name)
    perm = _layout.memory_perm(a, o)
    return value if perm == list(range(a.ndim)) else _layout.in_layout(value, perm)


def array(obj, dtype=None, copy=True, order="K", ndmin=0, *, device=None, like=None):
    """order='K' keeps the input's memory order (C, F or any axis order), 'A' F for F-contiguous input,
    'C'/'F' force it."""
    o = _layout.parse_order(order, default="K")
    if isinstance(obj, ndarray):
        a = _in_order(obj, dtype, o, copy, device) if copy else asarray(obj, dtype, o, device=device)
    elif not isinstance(obj, _np.ndarray) and _core.has_cai(obj):
        a = as_array(obj, _dev(device), dtype)
    else:
        a = _from_host(obj, dtype, o, _dev(device))
    while a.ndim < ndmin:
        a = a[None]
    return a


def asarray(obj, dtype=None, order=None, *, device=None, copy=None, like=None):
    """No copy unless one is needed (another device, dtype or memory order) or asked for (copy=True)."""
    if type(obj) is _np.ndarray and dtype is None and order is None and copy is None and obj.flags.c_contiguous:
        # the common upload, as _from_host would do it, without its general steps
        return _core.from_numpy(obj, _core.default_device_id() if device is None else _dev(device))
    o = _layout.parse_order(order, default="K")
    if isinstance(obj, ndarray):
        if copy:
            return _in_order(obj, dtype, o, True, device)
        same = (dtype is None or dtype_name(dtype) == obj._dtype_name) and (device is None or
                                                                           _dev(device) == obj._device_id)
        r = obj if same and o in ("K", "A") else _in_order(obj, dtype, o, False, device)
        if copy is False and r is not obj and r._base_id != obj._base_id:
            raise ValueError("Unable to avoid copy while creating an array as requested.")  # NumPy 2's text
        return r
    if not isinstance(obj, _np.ndarray) and _core.has_cai(obj):
        return asarray(as_array(obj, None if device is None else _dev(device)), dtype, order, copy=copy)
    if copy is False:  # host data (NumPy arrays, lists, scalars) is always copied to the device
        raise ValueError("Unable to avoid copy while creating an array as requested: host data is copied to "
                         "the device (tegula.numpy arrays never alias host memory)")
    return _from_host(obj, dtype, o, None if device is None else _dev(device))


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None):
    """A C-contiguous array, at least 1-D (as NumPy's)."""
    r = asarray(a, dtype, order="C")
    return r.reshape(1) if r.ndim == 0 else r


def asfortranarray(a, dtype=None, *, like=None):
    """An F-contiguous array, at least 1-D (as NumPy's)."""
    r = asarray(a, dtype, order="F")
    return r.reshape(1) if r.ndim == 0 else r


def from_dlpack(x, *, device=None, copy=None):
    """A CUDA producer is wrapped zero-copy (copied with copy=True); a host producer is read through NumPy and
    uploaded to the default device, or kept on the CPU (the interpreter's device) with device='cpu'. A move to
    another device copies, which copy=False refuses (BufferError, as the array API says)."""
    target = None if device is None else _dev(device)
    if _core.has_cai(x):
        a = _core.from_cuda_array_interface(x)
        if copy:
            a = a.copy()
    else:
        host = _np.from_dlpack(x, copy=copy) if copy is not None else _np.from_dlpack(x)
        if copy is False and target is not None and target >= 0:
            raise BufferError("from_dlpack: a host array needs a copy to reach a CUDA device, and copy=False")
        a = as_array(host, target)
    if target is not None and a._device_id != target:
        if copy is False:
            raise BufferError(f"from_dlpack: moving the array to device {device!r} needs a copy, and copy=False")
        a = a.to_device(device)
    return a


def asnumpy(a, stream=None, order="C", out=None):
    """A NumPy array of a's values in memory order `order` ('K' and 'A' keep a's own); an F-ordered array is
    downloaded as its C-ordered transpose and transposed back on the host, with no device copy."""
    if isinstance(a, ndarray):
        perm = _layout.memory_perm(a, _layout.parse_order(order))
        r = _core.to_numpy(a) if perm == list(range(a.ndim)) else \
            _core.to_numpy(a._transpose(perm)).transpose(_inverse(perm))
    else:
        r = _np.asarray(a, order=order)
    if out is not None:
        out[...] = r
        return out
    return r


def _host_made(values, device):
    # Small index/grid constructors are computed by NumPy and copied once (documented).
    return as_array(values, _dev(device))


def arange(start, stop=None, step=1, dtype=None, *, device=None, like=None):
    """Computed on the device: start + i * step."""
    if _py_any(isinstance(v, (complex, _np.complexfloating)) for v in (start, stop, step)) or \
            (dtype is not None and dtype_name(dtype).startswith("complex")):
        raise NotImplementedError("arange with complex values or a complex dtype is not implemented yet")
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if dtype is None:
        dtype = result_type(*[_np.asarray(v) if not isinstance(v, (int, float, bool)) else
                              (_np.int64 if isinstance(v, int) else _np.float64) for v in (start, stop, step)])
    name = dtype_name(dtype)
    return _tegula.array_iota(_arange_length(start, stop, step), float(start), float(step), name, _dev(device))


_MAX_INTP = (1 << 63) - 1


def _arange_length(start, stop, step):
    """arange's element count, with NumPy's errors for a length that is NaN or past the largest intp."""
    if _py_all(isinstance(v, (int, _np.integer)) for v in (start, stop, step)):
        n = _py_max(0, (int(stop) - int(start) + int(step) - (1 if step > 0 else -1)) // int(step))
    else:
        q = (float(stop) - float(start)) / float(step)
        if math.isnan(q):
            raise ValueError("arange: cannot compute length")
        n = 0 if q <= 0 else _MAX_INTP + 1 if math.isinf(q) or q > _MAX_INTP else math.ceil(q)
    if n > _MAX_INTP:
        raise ValueError("Maximum allowed size exceeded")
    return n


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """Computed on the device (the last value is exactly `stop` when endpoint)."""
    num = _operator.index(num)  # NumPy's TypeError for a float count
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if num > _MAX_INTP:
        raise ValueError("Maximum allowed size exceeded")
    if axis != 0 or not _py_all(isinstance(v, (int, float, _np.integer, _np.floating)) for v in (start, stop)) or \
            (dtype is not None and dtype_name(dtype).startswith("complex")):
        r = _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
        if retstep:
            return _host_made(r[0], device), r[1]
        return _host_made(r, device)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else _np.nan
    name = dtype_name(dtype) if dtype is not None else "float64"
    exact = name in ("float16", "bfloat16", "float32", "float64")
    a = _tegula.array_iota(num, float(start), 0.0 if div <= 0 else float(step), name if exact else "float64",
                           _dev(device))
    if endpoint and num > 1:
        a[num - 1] = stop
    if not exact:  # NumPy computes in float64 and floors into an integer dtype
        a = a._unary("floor").astype(name)
    return (a, step) if retstep else a


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    return _from_host(_np.eye(N, M, k, dtype, order=_layout.parse_order(order, "CF")), None, "K", _dev(device))


def identity(n, dtype=None, *, device=None, like=None):
    return eye(n, dtype=dtype or float, device=device)


def tri(N, M=None, k=0, dtype=float, *, device=None, like=None):
    return _host_made(_np.tri(N, M, k, dtype), device)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    grids = _np.meshgrid(*[asnumpy(x) for x in xi], copy=True, sparse=sparse, indexing=indexing)
    dev = next((x._device_id for x in xi if isinstance(x, ndarray)), None)
    return [as_array(g, dev) for g in grids]


def copy(a, order="K", subok=False):
    """np.copy: order='K' (the default) keeps a's memory order; ndarray.copy's default is 'C'."""
    return array(a, copy=True, order=order)
