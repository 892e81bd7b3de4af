"""ndarray.flat: NumPy's flat iterator over a tegula array, in C order whatever the memory order. Reads index the
flattened array (a 0-d tegula array for one element, as tegula's indexing gives); writes go back into the array,
repeating the values cyclically when fewer are given than elements selected, as NumPy's flat assignment does."""
from __future__ import annotations

import numpy as _np
from ._creation import asarray
from ._manipulation import tile


def _values(values, a):
    """The values a flat assignment into `a` writes: flat, in a's dtype, on a's device."""
    return asarray(values, dtype="bfloat16" if a._dtype_name == "bfloat16" else a.dtype, device=a.device).reshape(-1)


def _cycled(v, count):
    """Flat values `v` (more than one) as `count` elements, repeated cyclically (NumPy's flat assignment)."""
    return v if v.size == count else tile(v, -(-count // v.size))[:count]


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
            value = _values(value, a)
            if value.size == 0:  # NumPy writes nothing
                return
            if value.size > 1:  # the selection's size decides the cycling
                value = _cycled(value, int(_np.prod(flat[key].shape)))
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
    if _np.isscalar(value):
        a[...] = value
        return
    v = _values(value, a)
    if v.size == 1:
        a[...] = v.reshape(())
    elif v.size:  # none: NumPy writes nothing
        a[...] = _cycled(v, a.size).reshape(a.shape)
