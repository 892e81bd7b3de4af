"""Kernel arguments: describing them for specialization, and passing them to the GPU or interpreter."""
from __future__ import annotations

from .. import _tegula
from . import _types


def grid_tuple(grid):
    g = (grid,) if isinstance(grid, int) else tuple(grid)
    if not 1 <= len(g) <= 3 or not all(isinstance(x, int) and x > 0 for x in g):
        raise ValueError(f"grid must be a positive int or a tuple of 1 to 3 positive ints, got {grid!r}")
    return g


def _scalar_dtype(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int32" if -2**31 <= v < 2**31 else "int64"
    if isinstance(v, float):
        return "float32"
    dt = getattr(v, "dtype", None)
    if dt is not None and getattr(v, "shape", None) == ():
        return _types.dtype_name(dt)
    return None


_ITEMSIZE = {"bool": 1, "int8": 1, "uint8": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "int16": 2, "uint16": 2, "float16": 2, "bfloat16": 2, "int32": 4,
             "uint32": 4, "float32": 4, "int64": 8, "uint64": 8, "float64": 8}
_DTYPE_NAMES = {}


def item_size(dtype):
    return _ITEMSIZE[dtype]
  # foreign dtype objects (torch.float32, numpy dtypes) -> tile dtype name


def _name_of(dt):
    name = _DTYPE_NAMES.get(dt)
    if name is None:
        name = _DTYPE_NAMES[dt] = _types.dtype_name(dt)
    return name


def _layout(dtype, shape, strides, ptr):
    item = _ITEMSIZE[dtype]
    contiguous = len(shape) == 0 or shape[-1] == 1 or strides[-1] == 1
    aligned = ptr % 16 == 0 and all((s * item) % 16 == 0 for s in strides[:-1])
    return contiguous, aligned


def _host_array(a, index, name):
    """A numpy array as ("array", dtype, ndim, contiguous, aligned, ptr, shape, strides, keep, writeback)."""
    item = a.dtype.itemsize
    if any(s % item for s in a.strides):
        raise ValueError(f"{name}() argument {index}: strides {a.strides} are not multiples of the item size")
    dtype = _types.dtype_name(a.dtype)
    ptr = a.__array_interface__["data"][0]
    strides = tuple(s // item for s in a.strides)
    return ("array", dtype, a.ndim, *_layout(dtype, a.shape, strides, ptr), ptr, tuple(a.shape), strides, a, None)


def _gpu_array(a, index, name):
    """A torch tensor or __cuda_array_interface__ object, or None when `a` is neither."""
    mod = type(a).__module__
    if mod.startswith("torch") and hasattr(a, "data_ptr"):
        if not a.is_cuda:
            raise TypeError(f"{name}() argument {index}: the torch tensor is on the CPU; move it to the GPU "
                            "(.cuda()) or launch with interpret=True")
        dtype = _name_of(a.dtype)
        ptr, shape, strides = a.data_ptr(), tuple(a.shape), a.stride()
        return ("array", dtype, len(shape), *_layout(dtype, shape, strides, ptr), ptr, shape, strides, a, "torch")
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is None:
        return None
    import numpy as np

    dt = np.dtype(cai["typestr"])
    dtype = _types.dtype_name(dt)
    shape = tuple(cai["shape"])
    if cai.get("strides") is None:
        strides, acc = [], 1
        for s in reversed(shape):
            strides.insert(0, acc)
            acc *= s
        strides = tuple(strides)
    else:
        strides = tuple(s // dt.itemsize for s in cai["strides"])
    ptr = cai["data"][0]
    return ("array", dtype, len(shape), *_layout(dtype, shape, strides, ptr), ptr, shape, strides, a,
            "cupy" if mod.startswith("cupy") else "cai")


def describe(a, index, constant, interpret, name):
    if constant:
        try:
            hash(a)
        except TypeError:
            raise TypeError(f"{name}() argument {index} is a tt.Constant and must be hashable, got {type(a).__name__}")
        return ("const", a)
    if type(a).__module__ == "numpy" and type(a).__name__ == "ndarray":
        if not interpret:
            raise TypeError(f"{name}() argument {index} is a host numpy array: pass a GPU array (tegula, torch, "
                            "cupy) or launch with interpret=True to run on the CPU")
        return _host_array(a, index, name)
    if interpret and type(a).__module__.startswith("torch") and getattr(a, "is_cuda", True) is False:
        return _host_array(a.detach().numpy(), index, name)  # a CPU tensor: its memory, seen through NumPy
    spec = _gpu_array(a, index, name)
    if spec is not None:
        return spec
    dtype = _scalar_dtype(a)
    if dtype is None:
        raise TypeError(f"{name}() argument {index} of type {type(a).__name__} is neither an array nor a scalar")
    return ("scalar", dtype, a)


_SCALAR_TYPES = {}


def _scalar_type(name):
    t = _SCALAR_TYPES.get(name)
    if t is None:
        import numpy as np

        t = _SCALAR_TYPES[name] = bool if name == "bool" else np.dtype(name).type
    return t


def flatten(specs):
    """Kernel parameters in the codegen ABI: arrays as (pointer, shape..., strides...), scalars by dtype."""
    out = []
    for s in specs:
        if s[0] == "array":
            out.append(s[5])
            out.extend(s[6])
            out.extend(s[7])
        elif s[0] == "scalar":
            out.append(_scalar_type(s[1])(s[2]))
    return out


def torch_stream(specs):
    """torch's current stream (a raw handle) on the device of the first torch tensor argument, when it is not the
    default stream: launches given torch tensors and no stream are ordered with torch's work there."""
    for s in specs:
        if s[0] == "array" and s[9] == "torch" and getattr(s[8], "is_cuda", False):
            import torch

            handle = torch.cuda.current_stream(s[8].device).cuda_stream
            return handle or None
    return None


def bytes_touched(specs):
    """Bytes of the array arguments (a broadcast, stride-0 axis counted once): what a launch reads and writes."""
    total = 0
    for s in specs:
        if s[0] == "array":
            n = 1
            for extent, stride in zip(s[6], s[7]):
                if stride:
                    n *= extent
            total += n * item_size(s[1])
    return total


def run_interpreted(ir, specs, grid):
    """Runs on the CPU interpreter; GPU arrays are copied to the host and back."""
    import numpy as np

    args, writeback = [], []
    for s in specs:
        if s[0] == "array":
            obj, kind = s[8], s[9]
            if kind is None:
                args.append(("array", s[5], s[1], list(s[6]), list(s[7])))
                continue
            host = obj.detach().cpu().numpy().copy() if kind == "torch" else \
                __import__("cupy").asnumpy(obj) if kind == "cupy" else None
            if host is None:
                raise TypeError("interpret=True cannot copy this GPU array to the host; pass numpy, torch or cupy arrays")
            host = np.ascontiguousarray(host)
            writeback.append((obj, kind, host))
            item = host.dtype.itemsize
            args.append(("array", host.__array_interface__["data"][0], s[1], list(host.shape),
                         [x // item for x in host.strides]))
        elif s[0] == "scalar":
            v = s[2]
            args.append(("scalar", v.item() if hasattr(v, "item") else v))
    _tegula.interpret(ir, args, list(grid))
    for obj, kind, host in writeback:
        if kind == "torch":
            import torch

            obj.copy_(torch.from_numpy(host))
        else:
            obj.set(host)
