"""Devices, dtypes and conversions shared by the tegula.numpy modules."""
from __future__ import annotations

import warnings

import numpy as _np

from .. import _libs, _tegula
from ..core._interop import from_cuda_array_interface, has_cai  # noqa: F401  (tegula.numpy's names for them)
from . import _host_copies

_libs.register(_tegula)
ndarray = _tegula.ndarray

# dtypes: NumPy's objects; bfloat16 (no NumPy equivalent) is a name.
bool_, int8, int16, int32, int64 = _np.bool_, _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
bfloat16 = "bfloat16"
_NAMES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"}
_NP_DTYPES = {}
_NAME_OF = {}  # dtype-like -> name, for the dtype-likes seen (np.dtype(...).name costs microseconds a call)


def dtype_name(dtype, default="float64"):
    """A tegula dtype name for anything NumPy accepts as a dtype (and 'bfloat16')."""
    if dtype is None:
        return default
    try:
        name = _NAME_OF.get(dtype)
    except TypeError:  # unhashable: NumPy decides below
        name = None
    if name is not None:
        return name
    if isinstance(dtype, str) and dtype == "bfloat16":
        return dtype
    name = _np.dtype(dtype).name
    if name not in _NAMES:
        raise TypeError(f"tegula.numpy does not support dtype {name!r}")
    try:
        _NAME_OF[dtype] = name
    except TypeError:
        pass
    return name


def np_dtype(name):
    d = _NP_DTYPES.get(name)
    if d is None:
        d = _NP_DTYPES[name] = name if name == "bfloat16" else _np.dtype(name)
    return d


# NumPy scalar types the C++ operators take as strong scalars (bool, integers, float16/32/64, complex64/128).
_STRONG_SCALAR_CHARS = frozenset("?bBhHiIlLqQefdFD")


def is_strong_scalar(x):
    """A NumPy scalar the C++ operators take as it is (its dtype takes part, NEP 50): never uploaded as a 0-d
    array first."""
    return isinstance(x, _np.generic) and x.dtype.char in _STRONG_SCALAR_CHARS


# ---- devices --------------------------------------------------------------------------------
class Device:
    """Where an array lives: Device('cuda', 0) or Device('cpu') (the CPU interpreter)."""

    __slots__ = ("kind", "id")

    def __init__(self, kind="cuda", id=0):
        self.kind, self.id = kind, (id if kind == "cuda" else -1)

    def __repr__(self):
        return f"Device('cuda', {self.id})" if self.kind == "cuda" else "Device('cpu')"

    def __eq__(self, other):
        return isinstance(other, Device) and (self.kind, self.id) == (other.kind, other.id)

    def __hash__(self):
        return hash((self.kind, self.id))


_DEFAULT = None


def default_device_id():
    """-1 (CPU interpreter) or a CUDA ordinal. Says once when there is no GPU (no silent fallback)."""
    global _DEFAULT
    if _DEFAULT is None:
        reason = None
        if _tegula.config()["interpret"]:
            reason = "TEGULA_INTERPRET=1 is set"
        else:
            info = _tegula.driver_info()
            if not info.get("available"):
                reason = (info.get("error") or "no CUDA driver").splitlines()[0].split("; tried")[0]
            elif not info.get("device_count"):
                reason = "the CUDA driver reports no devices"
        if reason:
            warnings.warn(f"tegula.numpy: arrays run on the CPU interpreter ({reason})", RuntimeWarning, stacklevel=3)
            _DEFAULT = -1
        else:
            _DEFAULT = 0
    return _DEFAULT


def cuda_device_count():
    """The CUDA devices this process can use (0 without a driver)."""
    return _tegula.device_count() if _tegula.driver_info().get("available") else 0


def device_id(device):
    if device is None:
        return default_device_id()
    if isinstance(device, Device):
        return device.id
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        if device == "cpu":
            return -1
        if device == "cuda":
            return 0
        if device.startswith("cuda:"):
            return int(device[5:])
    raise ValueError(f"unknown device {device!r}: use 'cuda', 'cuda:N', 'cpu' or a Device")


def device_of(a):
    i = a._device_id
    return Device("cpu") if i < 0 else Device("cuda", i)


# ---- conversion -----------------------------------------------------------------------------
def from_numpy(x, dev):
    x = _np.asarray(x, order="C")  # not ascontiguousarray: that makes 0-d arrays 1-d
    if not x.dtype.isnative:  # big-endian data: the device holds native bytes
        x = x.astype(x.dtype.newbyteorder("="))
    name = dtype_name(x.dtype)
    a = _tegula.array_from_host(x.ctypes.data, list(x.shape), name, None if dev < 0 else dev)
    _host_copies.uploaded(a, x)
    return a


def to_numpy(a):
    name = a._dtype_name
    if name == "bfloat16":
        raise TypeError("bfloat16 arrays have no NumPy dtype: call .astype('float32') first")
    dtype = np_dtype(name)
    known = _host_copies.read(a, dtype)  # memory unwritten since its upload: no read back
    if known is not None:
        return known
    out = _np.empty(a.shape, dtype=dtype)
    a._to_host(out.ctypes.data)
    return out


def settled(*arrays):
    """Computes each pending array now and returns them. For the state a loop carries from round to round: every
    round then plans the same small graph and reuses one cached kernel, where a pending chain would grow by a round
    each time and compile a new, longer kernel for every round (quadratic NVRTC time on the GPU)."""
    for a in arrays:
        if a._pending:
            a._materialize()
    return arrays[0] if len(arrays) == 1 else arrays


def as_array(x, dev=None, dtype=None):
    """x as a tegula ndarray (tegula arrays pass through; host data is copied to `dev`)."""
    if isinstance(x, ndarray):
        if dtype is not None and x._dtype_name != dtype_name(dtype):
            return x.astype(dtype_name(dtype))
        return x
    if not isinstance(x, _np.ndarray) and has_cai(x):
        a = from_cuda_array_interface(x)
    else:
        arr = _np.asarray(x) if dtype is None else _np.asarray(x, dtype=None if dtype == "bfloat16" else dtype)
        a = from_numpy(arr, default_device_id() if dev is None else dev)
    if dtype is not None and a._dtype_name != dtype_name(dtype):
        a = a.astype(dtype_name(dtype))
    return a


