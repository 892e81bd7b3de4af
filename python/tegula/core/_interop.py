"""tegula arrays over other libraries' GPU memory (__cuda_array_interface__: torch, CuPy, Numba, ...), zero-copy.
tegula.core's calls that take arrays (Communicator) and tegula.numpy's asarray both read foreign arrays here."""
from __future__ import annotations

from .. import _tegula


def has_cai(obj):
    """Whether obj publishes __cuda_array_interface__; a TypeError naming the dtype when publishing it fails (torch
    raises KeyError for dtypes the interface cannot describe, such as float8)."""
    try:
        return hasattr(obj, "__cuda_array_interface__")
    except (KeyError, TypeError, ValueError) as e:
        dtype = str(getattr(obj, "dtype", "?")).replace("torch.", "")
        raise TypeError(f"tegula does not support dtype {dtype!r} (the array's __cuda_array_interface__ "
                        f"failed: {type(e).__name__}: {e})") from None


def from_cuda_array_interface(obj):
    """A zero-copy tegula array over obj's GPU memory (obj is kept alive); bfloat16 from torch's raw 2-byte items."""
    import numpy as _np  # here, not at import: `import tegula.core` stays free of NumPy

    cai = obj.__cuda_array_interface__
    typestr = cai["typestr"]
    name = _np.dtype(typestr).name
    item = _np.dtype(typestr).itemsize
    if name.startswith("void"):  # NumPy has no bfloat16: torch publishes it as raw 2-byte items ("<V2")
        torch_name = str(getattr(obj, "dtype", "")).replace("torch.", "")
        if torch_name != "bfloat16":
            raise TypeError(f"tegula does not support dtype {torch_name or name!r} (typestr {typestr!r})")
        name = "bfloat16"
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        st, acc = [], 1
        for d in reversed(shape):
            st.append(acc)
            acc *= d
        strides = tuple(reversed(st))
    else:
        if any(s % item for s in strides):
            raise ValueError("strides that are not a multiple of the item size are not supported")
        strides = tuple(s // item for s in strides)
    ptr = cai["data"][0]
    dev = getattr(getattr(obj, "device", None), "index", None) or 0  # torch's device.index; else device 0
    return _tegula.array_from_pointer(ptr, shape, strides, name, dev, obj)
