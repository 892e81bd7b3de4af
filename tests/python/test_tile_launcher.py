"""The C++ launch fast path agrees with Python's specialization: same key classes, same packed bytes."""
import itertools
import struct

import numpy as np

from tegula import _tegula
from tegula.tile import _args


class FakeDtype:
    def __init__(self, name):
        self.name_ = name

    def __str__(self):
        return f"torch.{self.name_}"


FLOAT32, INT32, FLOAT16 = FakeDtype("float32"), FakeDtype("int32"), FakeDtype("float16")


class Tensor:
    """Quacks like a CUDA torch.Tensor (the fast path reads is_cuda, dtype, data_ptr, shape, stride)."""

    __module__ = "torch_fake"

    def __init__(self, dtype, shape, strides, ptr):
        self.dtype, self.shape, self._strides, self._ptr, self.is_cuda = dtype, tuple(shape), tuple(strides), ptr, True

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides


ARGSETS = [
    (Tensor(FLOAT32, (8, 4096), (4096, 1), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
    (Tensor(FLOAT32, (8, 4096), (4096, 1), 5 << 20), Tensor(FLOAT32, (3, 4096), (4096, 1), 9 << 20), 4096),
    (Tensor(FLOAT32, (8, 4096), (4096, 1), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 1024),
    (Tensor(FLOAT32, (8, 4096), (1, 8), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
    (Tensor(FLOAT32, (8, 4095), (4095, 1), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
    (Tensor(FLOAT32, (8, 4096), (4096, 1), (1 << 20) + 4), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
    (Tensor(FLOAT16, (8, 4096), (4096, 1), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
    (Tensor(INT32, (4096,), (1,), 1 << 20), Tensor(FLOAT32, (8, 4096), (4096, 1), 2 << 20), 4096),
]
CONSTANTS = [False, False, True]

SCALARS = [(Tensor(FLOAT32, (10,), (1,), 1 << 20), 5, 1.5, True),
           (Tensor(FLOAT32, (10,), (1,), 1 << 20), 2 ** 40, 1.5, False),
           (Tensor(FLOAT32, (10,), (1,), 1 << 20), -7, 2.5, False)]


def python_key(args, constants):
    specs = tuple(_args.describe(a, i, c, False, "k") for i, (a, c) in enumerate(zip(args, constants)))
    return tuple(s[:5] if s[0] == "array" else s[:2] if s[0] == "scalar" else s for s in specs), specs


def python_bytes(specs):
    out = []
    for value, s in zip(_args.flatten(specs), [s for s in specs for _ in range(1 + 2 * s[2] if s[0] == "array" else
                                                                                   1 if s[0] == "scalar" else 0)]):
        if isinstance(value, (bool, np.bool_)):
            out.append(bytes([int(value)]))
        elif isinstance(value, np.generic):
            out.append(value.tobytes())
        else:
            out.append(struct.pack("<q", value))
    return out


def test_keys_split_exactly_where_python_specializations_differ():
    launcher = _tegula.TileLauncher(CONSTANTS)
    cpp = [launcher.describe(a)[0] for a in ARGSETS]
    py = [python_key(a, CONSTANTS)[0] for a in ARGSETS]
    for i, j in itertools.combinations(range(len(ARGSETS)), 2):
        assert (cpp[i] == cpp[j]) == (py[i] == py[j]), (i, j, cpp[i], cpp[j])
    assert cpp[0] == cpp[1]  # only pointers and extents differ: one compiled variant


def test_packed_parameters_match_the_python_path():
    for constants, sets in ((CONSTANTS, ARGSETS), ([False] * 4, SCALARS)):
        launcher = _tegula.TileLauncher(constants)
        for args in sets:
            key, packed = launcher.describe(args)
            _, specs = python_key(args, constants)
            assert packed == python_bytes(specs), args
    keys = {_tegula.TileLauncher([False] * 4).describe(a)[0] for a in SCALARS}
    assert len(keys) == 2  # int32 vs int64 scalar; bool/float values do not matter


def test_other_arguments_leave_the_call_to_python():
    launcher = _tegula.TileLauncher([False, False, True])
    assert launcher.describe((np.zeros(4), np.zeros(4), 3)) is None  # host arrays: Python raises
    assert launcher.describe((np.float32(1), ARGSETS[0][0], 3)) is None  # numpy scalars: Python path
    assert launcher.describe((ARGSETS[0][0],)) is None  # wrong arity: Python raises
