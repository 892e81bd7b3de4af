"""Advanced indexing that tegula.numpy supports so far: boolean masks of the array's own shape
in assignments (x[mask] = v, as one fused where). Integer-array and boolean-mask reads need
compaction (nonzero), which comes with the library layer."""
from __future__ import annotations

from ._core import ndarray


def getitem_advanced(a, key):
    raise NotImplementedError(
        f"advanced indexing with {type(key).__name__} keys is not supported yet (only ints, slices, None and "
        "Ellipsis); boolean-mask assignment x[mask] = v works")


def setitem_advanced(a, key, value):
    if isinstance(key, ndarray) and key._dtype_name == "bool" and key.shape == a.shape:
        a._assign(key._where(value, a))
        return
    raise NotImplementedError(
        f"advanced assignment with {type(key).__name__} keys is not supported yet (only ints, slices, None, "
        "Ellipsis and a boolean mask of the array's shape)")
