"""The C++ launch fast path agrees with Python's specialization: same key classes, same packed bytes."""
import itertools
import struct

import numpy as np

from tegula import _tegula


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


def expected_key(args, constants):
    """What a specialization depends on: per array its dtype, rank, last-axis contiguity and 16-byte alignment; per
    scalar its dtype (int32 when it fits, else int64; float32; bool); per constant its value."""
    out = []
    for a, c in zip(args, constants):
        if c:
            out.append(("const", a))
        elif isinstance(a, Tensor):
            item = {"float32": 4, "int32": 4, "float16": 2}[a.dtype.name_]
            contiguous = a.shape[-1] == 1 or a._strides[-1] == 1
            aligned = a._ptr % 16 == 0 and all(s * item % 16 == 0 for s in a._strides[:-1])
            out.append((a.dtype.name_, len(a.shape), contiguous, aligned))
        else:
            out.append(("bool",) if isinstance(a, bool) else ("float32",) if isinstance(a, float) else
                       ("int32",) if -2**31 <= a < 2**31 else ("int64",))
    return tuple(out)


def expected_bytes(args, constants):
    """The kernel ABI (codegen/cuda.hpp): per array its pointer, extents and strides as int64; scalars by dtype."""
    out = []
    for a, c in zip(args, constants):
        if c:
            continue
        if isinstance(a, Tensor):
            out += [struct.pack("<q", v) for v in (a._ptr, *a.shape, *a._strides)]
        elif isinstance(a, bool):
            out.append(bytes([int(a)]))
        elif isinstance(a, float):
            out.append(struct.pack("<f", a))
        else:
            out.append(struct.pack("<i" if -2**31 <= a < 2**31 else "<q", a))
    return out


def test_keys_split_exactly_where_specializations_differ():
    launcher = _tegula.TileLauncher(CONSTANTS)
    cpp = [launcher.describe(a)[0] for a in ARGSETS]
    expected = [expected_key(a, CONSTANTS) for a in ARGSETS]
    for i, j in itertools.combinations(range(len(ARGSETS)), 2):
        assert (cpp[i] == cpp[j]) == (expected[i] == expected[j]), (i, j, cpp[i], cpp[j])
    assert cpp[0] == cpp[1]  # only pointers and extents differ: one compiled variant


def test_packed_parameters_follow_the_abi():
    for constants, sets in ((CONSTANTS, ARGSETS), ([False] * 4, SCALARS)):
        launcher = _tegula.TileLauncher(constants)
        for args in sets:
            key, packed = launcher.describe(args)
            assert packed == expected_bytes(args, constants), args
    keys = {_tegula.TileLauncher([False] * 4).describe(a)[0] for a in SCALARS}
    assert len(keys) == 2  # int32 vs int64 scalar; bool/float values do not matter


def test_arguments_python_shapes_take_the_same_keys():
    """A KernelArg (how tegula.tile._args hands over CuPy arrays and numpy scalars) keys and packs as the object
    the launcher reads itself."""
    t = ARGSETS[0][0]
    launcher = _tegula.TileLauncher([False, False])
    native = launcher.describe((t, 5))
    shaped = launcher.describe((_tegula.kernel_array("float32", t._ptr, t.shape, t._strides),
                                _tegula.kernel_scalar("int32", 5)))
    assert native == shaped
    assert launcher.describe((t, _tegula.kernel_scalar("int64", 5)))[0] != native[0]
    assert launcher.describe((t, _tegula.kernel_scalar("float16", 1.0)))[1][-1] == b"\x00\x3c"


def test_other_arguments_leave_the_call_to_python():
    launcher = _tegula.TileLauncher([False, False, True])
    assert launcher.describe((np.zeros(4), np.zeros(4), 3)) is None  # host arrays: Python raises
    assert launcher.describe((np.float32(1), ARGSETS[0][0], 3)) is None  # numpy scalars: Python path
    assert launcher.describe((ARGSETS[0][0],)) is None  # wrong arity: Python raises


def test_python_translates_once_per_specialization_and_compiled_is_a_view():
    """The C++ launcher asks Python only for the IR of an unseen signature (Kernel._translate); the rest of a launch
    (compile, argument packing, running) is C++. Kernel.compile returns a view of that same compiled kernel."""
    import tegula.tile as tt

    @tt.kernel
    def scale(x, out, a, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * a)

    calls = []
    translate = scale._translate
    scale._translate = lambda specs: calls.append(specs) or translate(specs)
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    for a in (2.0, 3.0):
        tt.launch(scale, grid=4, args=(x, out, a, 16), interpret=True)
        np.testing.assert_array_equal(out, x * a)
    assert calls == [[("array", "float32", 1), ("array", "float32", 1), ("scalar", "float32"), ("const", 16)]]
    tt.launch(scale, grid=2, args=(x, out, 2.0, 32), interpret=True)  # a new constant: a new specialization
    assert len(calls) == 2 and len(scale._launcher) == 2
    c = scale.compile((x, out, 2.0, 16), interpret=True)
    assert len(calls) == 2  # compiled already
    assert c.name == "scale" and c.source is None and c.block_threads == 0 and c.kernel is None
    assert [s for s, _ in c.stages] == list(_tegula.pipeline_stages()) and c.stages[-1][1] == c.ir.print()
    assert c.arrays == [(True, True), (True, True)]


class CudaArray:
    """Quacks like a CuPy array: __cuda_array_interface__ only."""

    def __init__(self, typestr, shape, strides, ptr):
        self.__cuda_array_interface__ = {"typestr": typestr, "shape": shape, "strides": strides, "data": (ptr, False),
                                         "version": 3}


def test_cuda_array_interface_objects_are_read_in_cpp():
    launcher = _tegula.TileLauncher(CONSTANTS)
    t = ARGSETS[0]
    cai = (CudaArray("<f4", (8, 4096), None, t[0]._ptr), CudaArray("<f4", (8, 4096), (4 * 4096, 4), t[1]._ptr), 4096)
    assert launcher.describe(cai) == launcher.describe(t)
    assert launcher.describe((CudaArray("<f4", (8, 4096), (4096, 2), 0), t[1], 4096)) is None  # strides: Python
    assert launcher.describe((CudaArray("<V2", (8, 4096), None, 0), t[1], 4096)) is None  # bfloat16: Python names it
    assert launcher.describe((CudaArray(">f4", (8, 4096), None, 0), t[1], 4096)) is None  # big-endian


def test_interpreted_numpy_launches_stay_in_cpp():
    """tt.launch(..., interpret=True) over numpy arrays and Python scalars runs from C++; a numpy scalar goes
    through Python's shaping (tile/_kernel.py:_launch_slow) first."""
    import tegula.tile as tt
    from tegula.tile import _kernel

    @tt.kernel
    def scale(x, out, a, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * a)

    calls = []
    _tegula.set_tile_launch_fallback(lambda *a: calls.append(a) or _kernel._launch_slow(*a))
    try:
        x = np.arange(64, dtype=np.float32)
        out = np.zeros_like(x)
        tt.launch(scale, grid=4, args=(x, out, 2.0, 16), interpret=True)
        tt.launch(scale, grid=4, args=(x[::2], out[:32], 3.0, 16), interpret=True)  # strided: read in C++ too
        assert calls == []
        np.testing.assert_array_equal(out[:32], x[::2] * 3)
        tt.launch(scale, grid=4, args=(x, out, np.float32(4), 16), interpret=True)
        assert len(calls) == 1
        np.testing.assert_array_equal(out, x * 4)
    finally:
        _tegula.set_tile_launch_fallback(_kernel._launch_slow)


def test_compiling_for_the_interpreter_describes_gpu_arrays_in_place():
    """Kernel.compile / Kernel.ir / tegula.explain only specialize: GPU arrays are not copied to the host for that
    (a tegula or Numba array could not be), and their own layouts are what the specialization records."""
    import tegula.tile as tt

    @tt.kernel
    def copy(x, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)))

    x = CudaArray("<f4", (64,), None, 1 << 20)
    out = CudaArray("<f4", (32,), (8,), (1 << 21) + 4)
    c = copy.compile((x, out, 16), interpret=True)
    assert c.arrays == [(True, True), (False, False)]
    assert "store" in copy.ir(x, out, 16)
