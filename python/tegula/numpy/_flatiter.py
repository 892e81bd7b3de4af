"""ndarray.flat: NumPy's flat iterator over a tegula array, in C order whatever the memory order. Reads index the
flattened array (a 0-d tegula array for one element, as tegula's indexing gives); writes go back into the array,
repeating the values cyclically when fewer are given than elements selected, as NumPy's flat assignment does."""
from __future__ import annotations

import numpy as _np

from ._core import ndarray


def _cycled(values, count, dtype, device):
    """`values` as `count` elements, repeated cyclically (NumPy's flat assignment); None for no values (NumPy then
    writes nothing)."""
    from ._creation import asarray
    from ._manipulation import tile

    v = asarray(values, dtype=dtype, device=device).reshape(-1)
    if v.size == 0:
        return None
    if v.size == count or v.size == 1:
        return v
    return tile(v, -(-count // v.size))[:count]


class FlatIter:
    def __init__(self, a):
        self.base = a

    def __len__(self):
        return self.base.size

    def __getitem__(self, key):
        return self.base.reshape(-1)[key]

    def __setitem__(self, key, value):
        a = self.base
        flat = a.reshape(-1)  # a view when a is C-contiguous, else a copy
        if not _np.isscalar(value):
            value = _cycled(value, int(_np.prod(flat[key].shape)), _dtype(a), a.device)
            if value is None:
                return
        flat[key] = value
        if flat._base_id != a._base_id:  # a copy: write it back in a's shape
            a[...] = flat.reshape(a.shape)

    def __iter__(self):
        return iter(self.base.reshape(-1))

    def __array__(self, dtype=None, copy=None):
        h = self.base.reshape(-1).get()
        return h if dtype is None else h.astype(dtype)

    def copy(self):
        return self.base.flatten()

    def __repr__(self):
        return f"<tegula.numpy flat iterator over an array of shape {self.base.shape}>"


def get_flat(a):
    return FlatIter(a)


def set_flat(a, value):
    """a.flat = value: every element, the values repeated cyclically."""
    if _np.isscalar(value) or (isinstance(value, ndarray) and value.size == 1):
        a[...] = value
        return
    v = _cycled(value, a.size, _dtype(a), a.device)
    if v is not None:
        a[...] = v.reshape(a.shape)


def _dtype(a):
    return "bfloat16" if a._dtype_name == "bfloat16" else a.dtype
