"""Kernel arguments: shaping Python objects into the kernel ABI's terms (the C++ launcher reads the rest itself)."""
from __future__ import annotations

from .. import _tegula
from . import _types


def grid_tuple(grid):
    g = (grid,) if isinstance(grid, int) else tuple(grid)
    if not 1 <= len(g) <= 3 or not all(isinstance(x, int) and x > 0 for x in g):
        raise ValueError(f"grid must be a positive int or a tuple of 1 to 3 positive ints, got {grid!r}")
    return g


def _scalar(v):
    """A Python or numpy scalar as (dtype name, value), or None when `v` is neither."""
    if isinstance(v, bool):
        return "bool", v
    if isinstance(v, int):
        if not -2**63 <= v < 2**63:
            raise OverflowError(f"integer argument {v} does not fit int64")
        return ("int32" if -2**31 <= v < 2**31 else "int64"), v
    if isinstance(v, float):
        return "float32", v
    dt = getattr(v, "dtype", None)
    if dt is not None and getattr(v, "shape", None) == ():
        return _types.dtype_name(dt), v.item()
    return None


def _host_array(a, index, name):
    """A numpy array as a KernelArg over its memory."""
    item = a.dtype.itemsize
    if any(s % item for s in a.strides):
        raise ValueError(f"{name}() argument {index}: strides {a.strides} are not multiples of the item size")
    return _tegula.kernel_array(_types.dtype_name(a.dtype), a.__array_interface__["data"][0], a.shape,
                                tuple(s // item for s in a.strides), a)


def host_array_as(a, dtype_name):
    """A numpy array's memory as a KernelArg of tile dtype `dtype_name` with the same item size (the interpreter's
    view of a dtype NumPy has not: tegula.numpy's bfloat16 arrays, seen by NumPy as uint16)."""
    item = a.dtype.itemsize
    bits = {"bool": 8, "float8_e4m3fn": 8, "float8_e5m2": 8}.get(dtype_name) or int("".join(filter(str.isdigit,
                                                                                                   dtype_name)))
    if bits != 8 * item:
        raise ValueError(f"a {a.dtype} array cannot be seen as {dtype_name}: their item sizes differ")
    return _tegula.kernel_array(dtype_name, a.__array_interface__["data"][0], a.shape,
                                tuple(s // item for s in a.strides), a)


def _cai_array(a, cai):
    """An object with __cuda_array_interface__ as a KernelArg."""
    import numpy as np

    dt = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = None if cai.get("strides") is None else tuple(s // dt.itemsize for s in cai["strides"])
    return _tegula.kernel_array(_types.dtype_name(dt), cai["data"][0], shape, strides or (), a)


def _host_copy(a, kind):
    """A GPU array's contents in a new contiguous numpy array (the interpreter reads host memory)."""
    import numpy as np

    host = a.detach().cpu().numpy().copy() if kind == "torch" else \
        __import__("cupy").asnumpy(a) if kind == "cupy" else None
    if host is None:
        raise TypeError("interpret=True cannot copy this GPU array to the host; pass numpy, torch or cupy arrays")
    return np.ascontiguousarray(host)


def _shape_one(a, index, interpret, name, writeback, copy=True):
    if isinstance(a, _tegula.KernelArg):
        return a  # already shaped (tegula.numpy's bfloat16 host arrays: _indexing.host_arg)
    mod = type(a).__module__
    if mod == "numpy" and type(a).__name__ == "ndarray":
        if not interpret:
            raise TypeError(f"{name}() argument {index} is a host numpy array: pass a GPU array (tegula, torch, "
                            "cupy) or launch with interpret=True to run on the CPU")
        return _host_array(a, index, name)
    if mod.startswith("torch") and hasattr(a, "data_ptr"):
        if not a.is_cuda:
            if interpret:
                return _host_array(a.detach().numpy(), index, name)  # a CPU tensor: its memory, seen through NumPy
            raise TypeError(f"{name}() argument {index}: the torch tensor is on the CPU; move it to the GPU "
                            "(.cuda()) or launch with interpret=True")
        if not interpret:
            return a  # the launcher reads it (and orders the launch on torch's current stream)
        if copy:
            host = _host_copy(a, "torch")
            writeback.append((a, "torch", host))
            return _host_array(host, index, name)
        return _tegula.kernel_array(_types.dtype_name(a.dtype), a.data_ptr(), tuple(a.shape), a.stride(), a)
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        if interpret and copy:
            kind = "cupy" if mod.startswith("cupy") else "cai"
            host = _host_copy(a, kind)
            writeback.append((a, kind, host))
            return _host_array(host, index, name)
        return _cai_array(a, cai)
    scalar = _scalar(a)
    if scalar is None:
        raise TypeError(f"{name}() argument {index} of type {type(a).__name__} is neither an array nor a scalar")
    if type(a) in (bool, int, float):
        return a  # the launcher reads Python scalars itself
    return _tegula.kernel_scalar(*scalar)


def shape(kernel, args, interpret, copy=True):
    """(arguments as the C++ launcher takes them, host copies to write back after an interpreted run). Torch
    tensors, tegula arrays (on the GPU) and Python scalars pass as they are; constants are checked hashable.
    copy=False: a specialization is only compiled, not run, so GPU arrays are described in place, not copied."""
    name = kernel.__name__
    if len(args) != len(kernel.constants):
        raise TypeError(f"tile kernel '{name}' takes {len(kernel.constants)} arguments but {len(args)} were given")
    out, writeback = [], []
    for i, (a, constant) in enumerate(zip(args, kernel.constants)):
        if constant:
            try:
                hash(a)
            except TypeError:
                raise TypeError(f"{name}() argument {i} is a tt.Constant and must be hashable, "
                                f"got {type(a).__name__}") from None
            out.append(a)
        else:
            out.append(_shape_one(a, i, interpret, name, writeback, copy))
    return tuple(out), writeback


def write_back(writeback):
    """Copies the interpreter's results on host copies back into their GPU arrays."""
    for obj, kind, host in writeback:
        if kind == "torch":
            import torch

            obj.copy_(torch.from_numpy(host))
        else:
            obj.set(host)


def array_facts(a):
    """(dtype name, shape) of an array argument of any kind, or None for scalars and other objects."""
    if type(a).__module__ == "numpy" and type(a).__name__ == "ndarray":
        return _types.dtype_name(a.dtype), tuple(a.shape)
    if type(a).__module__.startswith("torch") and hasattr(a, "data_ptr"):
        return _types.dtype_name(a.dtype), tuple(a.shape)
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        import numpy as np

        return _types.dtype_name(np.dtype(cai["typestr"])), tuple(cai["shape"])
    return None
