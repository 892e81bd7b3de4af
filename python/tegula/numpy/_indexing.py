"""Advanced indexing: boolean masks (compaction through a cumsum and a scatter kernel), integer
arrays along the first indexed axis (a row gather/scatter kernel), nonzero/argwhere/take/compress.
Data-dependent result shapes need the count on the host: these synchronise once, as CuPy does."""
from __future__ import annotations

import numpy as _np

import tegula.tile as _tt

from . import _core
from ._core import ndarray


def _launch(kernel, grid, args, device_id):
    for x in args:
        if isinstance(x, ndarray) and x._device_id != device_id:
            raise ValueError(f"arrays on different devices ({_core.device_of(x)} and "
                             f"{_core.Device('cpu') if device_id < 0 else _core.Device('cuda', device_id)}) cannot be "
                             "combined; move one with .to_device()")
    if device_id < 0:
        _tt.launch(kernel, grid=grid, args=tuple(host_view(a) if isinstance(a, ndarray) else a for a in args),
                   interpret=True)
    else:
        _tt.launch(kernel, grid=grid, args=args)


class _HostInterface:
    def __init__(self, a):
        self.a = a  # keeps the storage alive while the NumPy view exists
        item = a.itemsize
        self.__array_interface__ = {"shape": a.shape, "typestr": _core.np_dtype(a._dtype_name).str,
                                    "data": (a._data_ptr, False), "strides": tuple(s * item for s in a._strides),
                                    "version": 3}


def host_view(a):
    """A zero-copy NumPy view of a CPU-device array (writes go through)."""
    if a._device_id >= 0:
        raise ValueError("host_view of a GPU array: copy it with .get()")
    a._prepare_write()  # the kernel may write through the view: pending readers take their values now
    return _np.asarray(_HostInterface(a))


def _tiles(n, t):
    return max(1, -(-n // t))


def _flat(a):
    return a.reshape(-1)._contiguous()


def compress_flat(x, keep):
    """x[keep] for flat x and bool keep of the same size: a 1-D array of the kept elements."""
    from . import _functions as F

    x, keep = _flat(x), _flat(keep.astype("bool"))
    n = x.size
    if n == 0:
        return F.empty((0,), x._dtype_name, device=_core.device_of(x))
    pos = keep.astype("int64")._scan("cumsum", 0) - 1
    pos._materialize()
    count = int(pos[n - 1].item()) + 1
    out = F.empty((count,), x._dtype_name, device=_core.device_of(x))
    if count:
        _launch(_kernels().compress, _tiles(n, _kernels().TILE), (x, keep, pos._contiguous(), out, _kernels().TILE),
                x._device_id)
    return out


def _kernels():
    from . import _index_kernels

    return _index_kernels


def _checked_index(idx, n, axis=0, device_id=None):
    from . import _functions as F

    idx = idx if isinstance(idx, ndarray) else _core.as_array(_np.asarray(idx), device_id)
    if not idx._dtype_name.startswith(("int", "uint")):
        if idx._dtype_name == "bool":
            raise IndexError("boolean index arrays are only supported as the whole key")
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    idx = idx.astype("int64")
    if idx.size:
        lo, hi = int(F.min(idx).item()), int(F.max(idx).item())
        bad = lo if lo < -n else hi if hi >= n else None
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    return (idx < 0)._where(idx + n, idx)


def _rows_2d(a):
    n = a.shape[0]
    rest = 1
    for d in a.shape[1:]:
        rest *= d
    return a._contiguous().reshape((n, rest)), rest


def take_rows(a, idx):
    """a[idx] for an integer array idx indexing a's first axis."""
    from . import _functions as F

    if a.ndim == 0:
        raise IndexError("too many indices for array: array is 0-dimensional, but 1 were indexed")
    n = a.shape[0]
    idx = _checked_index(idx, n, 0, a._device_id)
    shape = idx.shape + a.shape[1:]
    flat_idx = _flat(idx)
    a2, rest = _rows_2d(a)
    out = F.empty((flat_idx.size, rest), a._dtype_name, device=_core.device_of(a))
    if flat_idx.size and rest:
        TR, TC = (8, 128) if rest >= 128 else (256, 4)
        _launch(_kernels().take_rows, (_tiles(flat_idx.size, TR), _tiles(rest, TC)), (a2, flat_idx, out, TR, TC),
                a._device_id)
    return out.reshape(shape)


def put_rows(a, idx, value):
    from . import _functions as F

    n = a.shape[0]
    idx = _checked_index(idx, n, 0, a._device_id)
    flat_idx = _flat(idx)
    rest_shape = a.shape[1:]
    v = value if isinstance(value, ndarray) else _core.as_array(value, a._device_id)
    v = F.broadcast_to(v.astype(a._dtype_name), idx.shape + rest_shape)._contiguous()
    rest = 1
    for d in rest_shape:
        rest *= d
    if not flat_idx.size or not rest:
        return
    target = a if a._c_contiguous else a.copy()  # the kernel writes rows of a dense 2-D view
    t2 = target.reshape((n, rest))
    TR, TC = (8, 128) if rest >= 128 else (256, 4)
    _launch(_kernels().put_rows, (_tiles(flat_idx.size, TR), _tiles(rest, TC)),
            (t2, flat_idx, v.reshape((flat_idx.size, rest)), TR, TC), a._device_id)
    if target is not a:
        a._assign(target)


def _is_int_array(k):
    return (isinstance(k, ndarray) and k._dtype_name != "bool") or (
        isinstance(k, (list, _np.ndarray)) and _np.asarray(k).dtype.kind in "iu")


def _is_bool_array(k):
    return (isinstance(k, ndarray) and k._dtype_name == "bool") or (
        isinstance(k, (list, _np.ndarray)) and _np.asarray(k).dtype == bool)


_VALID_INDICES = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                  "arrays are valid indices")


def basic_key(key):
    """key with NumPy integer scalars as Python ints (what the C++ basic indexer takes), or None when it holds
    arrays. Keys of other types (floats, strings) raise NumPy's IndexError."""
    out = []
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, _np.integer):
            out.append(int(k))
        elif k is None or k is Ellipsis or isinstance(k, (int, slice)):
            out.append(k)
        elif isinstance(k, (float, complex, str, bytes, _np.floating)):
            raise IndexError(_VALID_INDICES)
        else:
            return None
    return tuple(out)


def getitem_advanced(a, key):
    k = basic_key(key)
    if k is not None:
        r = a._getitem_basic(k)
        if r is not None:
            return r
    if _is_bool_array(key):
        mask = key if isinstance(key, ndarray) else _core.as_array(_np.asarray(key), a._device_id)
        if mask.shape != a.shape[:mask.ndim]:
            raise IndexError(f"boolean index did not match indexed array along axis 0; size of axis is "
                             f"{a.shape[0] if a.ndim else 0} but size of corresponding boolean axis is "
                             f"{mask.shape[0] if mask.ndim else 0}")
        if mask.ndim == a.ndim:
            return compress_flat(a, mask)
        rows = nonzero_flat(mask)
        return take_rows(a.reshape((-1,) + a.shape[mask.ndim:]), rows)
    if _is_int_array(key):
        return take_rows(a, key)
    if isinstance(key, tuple) and len(key) == 1:
        return getitem_advanced(a, key[0])
    raise NotImplementedError(
        f"advanced indexing with a {type(key).__name__} key mixing arrays with other indices is not supported yet; "
        "supported: ints, slices, None, Ellipsis, one boolean mask, one integer array for the first axis")


def setitem_advanced(a, key, value):
    k = basic_key(key)
    if k is not None and a._setitem_basic(k, value):
        return
    if _is_bool_array(key):
        mask = key if isinstance(key, ndarray) else _core.as_array(_np.asarray(key), a._device_id)
        if mask.shape == a.shape:
            v = value if isinstance(value, ndarray) else a._scalar_like(value)
            if v.ndim == 0 or v.size == 1:
                a._assign(mask._where(v.reshape(()) if v.ndim else v, a))
                return
            rows = nonzero_flat(mask)
            put_rows(a.reshape(-1), rows, v.reshape(-1))
            return
    if _is_int_array(key):
        put_rows(a, key, value)
        return
    if isinstance(key, tuple) and len(key) == 1:
        return setitem_advanced(a, key[0], value)
    raise NotImplementedError(
        f"advanced assignment with a {type(key).__name__} key is not supported yet; supported: ints, slices, None, "
        "Ellipsis, a boolean mask, one integer array for the first axis")


def nonzero_flat(a):
    """Flat indices (int64) of the nonzero elements of a."""
    from . import _functions as F

    flat = _flat(a)
    idx = F.arange(flat.size, dtype="int64", device=_core.device_of(a))
    return compress_flat(idx, flat != 0)


def nonzero(a):
    a = a if isinstance(a, ndarray) else _core.as_array(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    flat = nonzero_flat(a)
    out = []
    rem = flat
    for d in reversed(a.shape[1:]):
        out.append(rem % d)
        rem = rem // d
    out.append(rem)
    return tuple(reversed(out))
