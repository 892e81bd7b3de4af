"""@tt.kernel (the AST front end), views of its compiled specializations, and tt.launch's Python path (argument
shaping and errors); compiling, caching and launching are C++ (cpp/tegula/kernel, bindings/tile_launcher.cpp)."""
from __future__ import annotations

import ast
import inspect
import os
import textwrap

from .. import _tegula
from . import _args, _types


class PerformanceWarning(UserWarning):
    """Code that runs correctly but off its fast path (say an mma that cannot use the tensor cores)."""


class Compiled:
    """One specialization of a kernel: a view of the C++ compiled kernel (cpp/tegula/kernel): its IR after each
    pass and, on the GPU, its CUDA source, Kernel and launch configuration."""

    def __init__(self, native):
        self.native = native    # _tegula.CompiledKernel

    name = property(lambda self: self.native.name)
    ir = property(lambda self: self.native.ir)                    # the post-pass tile IR (a _tegula.Function)
    stages = property(lambda self: self.native.stages)            # [(stage, IR text)] after each pass
    source = property(lambda self: self.native.source)            # generated CUDA C++ (None on the CPU)
    kernel = property(lambda self: self.native.kernel)            # tegula.core.Kernel (None on the CPU)
    block_threads = property(lambda self: self.native.block_threads if self.native.on_gpu else 0)
    shared_bytes = property(lambda self: self.native.shared_bytes if self.native.on_gpu else 0)
    tensor_maps = property(lambda self: self.native.tensor_maps)  # [(array index, dtype, box rows, box cols)]
    persistent = property(lambda self: self.native.persistent)    # launched with min(blocks, SMs), given the grid
    pipeline_stages = property(lambda self: self.native.pipeline_stages)
    cluster = property(lambda self: self.native.cluster)          # blocks per cluster
    note = property(lambda self: self.native.note)                # why an mma stayed off the tensor cores
    arrays = property(lambda self: self.native.arrays)            # per array: (contiguous, aligned) specialised for


class Kernel:
    """A tile kernel: `@tt.kernel def f(x, out, n: tt.Constant[int]): ...`."""

    def __init__(self, fn, num_stages=0, cluster=1):
        self.fn = fn
        self.num_stages = int(num_stages)  # tensor-core kernels: pipeline stages (0: as many as fit)
        self.cluster = _cluster_arg(cluster)  # tensor-core kernels: blocks per cluster (1 or 2)
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.first_line = fn.__code__.co_firstlineno
        # The source is read and parsed at first use (a launch, compile or one of _PARSED read), not here: a module
        # of kernels (tegula.numpy's) imports without reading its own source.

    _PARSED = frozenset(("filename", "tree", "constants", "arg_names", "_launcher"))

    def __getattr__(self, name):
        """The parsed attributes, made once on first read and then kept in the instance (the C++ launcher reads
        _launcher from there with no Python frame)."""
        if name in Kernel._PARSED and "fn" in self.__dict__:
            self._parse()
            return self.__dict__[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute {name!r}")

    def _parse(self):
        fn = self.fn
        source = textwrap.dedent(inspect.getsource(fn))
        tree = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))
        tree.decorator_list = []
        constants = [_is_constant(a.annotation, self._names()) for a in tree.args.args]
        self.filename = _shown_path(inspect.getsourcefile(fn) or "<kernel>")
        self.tree = tree
        self.constants = constants
        self.arg_names = [a.arg for a in tree.args.args]
        self._launcher = _tegula.TileLauncher(constants, self.num_stages, self.cluster)  # specializations, launch

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"tile kernel '{self.__name__}' is launched with tt.launch({self.__name__}, grid, args)")

    def with_options(self, num_stages=None, cluster=None):
        """The same kernel compiled with other code generation options (a separate compile cache); an option
        left None keeps this kernel's."""
        num_stages = self.num_stages if num_stages is None else int(num_stages)
        cluster = self.cluster if cluster is None else _cluster_arg(cluster)
        if num_stages == self.num_stages and cluster == self.cluster:
            return self
        k = Kernel.__new__(Kernel)
        k.__dict__.update(self.__dict__)
        k.num_stages = int(num_stages)
        k.cluster = cluster
        k._launcher = _tegula.TileLauncher(k.constants, k.num_stages, k.cluster)
        return k

    def compile(self, args, interpret=False, stream=None):
        """The Compiled specialization for `args` (compiled once by the C++ launcher, then cached there)."""
        args = tuple(args)
        shaped, _ = _args.shape(self, args, interpret, copy=False)
        native = self._launcher.compile(self, shaped, interpret, stream)
        if native is None:
            raise TypeError(f"tile kernel '{self.__name__}': these arguments cannot be passed: {args!r}")
        return Compiled(native)

    def translation(self, args, arch):
        """What the specialization for `args` becomes for GPU architecture `arch` (90: sm_90), with no GPU: the
        kernel module's _tegula.KernelTranslation (IR after each pass, CUDA C++, its images). Nothing is kept."""
        args = tuple(args)
        shaped, _ = _args.shape(self, args, True, copy=False)
        native = self._launcher.translate(self, shaped, int(arch))
        if native is None:
            raise TypeError(f"tile kernel '{self.__name__}': these arguments cannot be passed: {args!r}")
        return native

    def _translate(self, specs):
        """The kernel's tile IR (before passes) for parameter specs ("array", dtype, ndim) | ("scalar", dtype) |
        ("const", value): the one step of a launch that runs in Python (the C++ launcher calls it once per
        specialization, then compiles and launches itself)."""
        from ._frontend import Translator  # the AST front end loads with the first kernel translated

        return Translator(self.fn, self.filename, self.first_line, self._names(), specs).translate(self.tree)

    def _names(self):
        """The globals the kernel sees, with the closure's variables on top (kernels defined in functions)."""
        names = dict(self.fn.__globals__)
        if self.fn.__closure__:
            for name, cell in zip(self.fn.__code__.co_freevars, self.fn.__closure__):
                try:
                    names[name] = cell.cell_contents
                except ValueError:  # an unassigned cell
                    pass
        return names

    def ir(self, *args, stage=None):
        """The tile IR text for these arguments: after all passes, or after `stage` (e.g. 'cse')."""
        c = self.compile(args, interpret=True)
        if stage is None:
            return c.ir.print()
        for name, text in c.stages:
            if name == stage:
                return text
        raise ValueError(f"no stage {stage!r}; stages: {[s for s, _ in c.stages]}")


_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _shown_path(filename):
    """The file a kernel's locations name (in messages and the generated CUDA's comments): tegula's own kernels by
    their path inside the package ("tegula/numpy/_sort.py"), so that their code, and the cache key hashing it, do
    not depend on where tegula lies: the package's prebuilt kernels are translated from the source tree at build
    time and looked up from site-packages (tegula/numpy/_prebuild.py). Other files keep their own path."""
    path = os.path.abspath(filename)
    if path.startswith(os.path.join(_PACKAGE_PARENT, "tegula") + os.sep):
        return os.path.relpath(path, _PACKAGE_PARENT)
    return filename


def _is_constant(annotation, globals_):
    if annotation is None:
        return False
    try:
        value = eval(compile(ast.Expression(annotation), "<annotation>", "eval"), globals_)  # noqa: S307
    except Exception:  # noqa: BLE001 - unresolvable annotations are not Constant
        return False
    return value is _types.Constant


def kernel(fn=None, *, num_stages=0, cluster=1):
    """Decorator: a Python function over tiles becomes a tile kernel (parsed from its source).
    `@tt.kernel(num_stages=3, cluster=2)` sets code generation options of tensor-core matrix products:
    the shared-memory pipeline depth (0 lets the compiler take as many stages as fit) and the blocks per
    cluster (2: neighbouring blocks, grid blocks 2j and 2j+1, run as a pair and copy an A or B tile they
    both need once, half each, into both blocks' shared memory)."""
    if fn is None:
        return lambda f: Kernel(f, num_stages, cluster)
    return Kernel(fn, num_stages, cluster)


def _cluster_arg(cluster):
    if isinstance(cluster, bool) or not isinstance(cluster, int) or cluster not in (1, 2):
        raise ValueError(f"cluster must be 1 or 2 blocks, got {cluster!r}")
    return cluster


def _launch_slow(kernel_, grid, args, stream, interpret):
    """tt.launch's Python path: arguments the C++ launcher does not read itself (numpy and CuPy arrays, numpy
    scalars, the interpreter's host copies) are shaped into kernel arguments here, and errors explained; the C++
    launcher then compiles and launches."""
    if interpret is None:
        interpret = _interpret_by_default()
    if not isinstance(kernel_, Kernel):
        if getattr(kernel_, "_tile_launchable", False):  # tt.autotune's Autotuned (it sits above this module)
            return kernel_.launch(grid, tuple(args), stream, interpret)
        raise TypeError(f"tt.launch needs a @tt.kernel function, got {type(kernel_).__name__}")
    grid = _args.grid_tuple(grid)
    args = tuple(args)
    shaped, writeback = _args.shape(kernel_, args, interpret)
    if interpret:
        if not kernel_._launcher.interpret(kernel_, grid, shaped):
            raise TypeError(f"tile kernel '{kernel_.__name__}': these arguments cannot be interpreted: {args!r}")
        _args.write_back(writeback)
        return
    if kernel_._launcher.launch(grid, shaped, stream, kernel_) is not None:
        raise TypeError(f"tile kernel '{kernel_.__name__}': these arguments cannot be launched: {args!r}")


_tegula.set_tile_launch_fallback(_launch_slow)
launch = _tegula.tile_launch


_INTERPRET = None


def _interpret_by_default():
    global _INTERPRET
    if _INTERPRET is None:
        _INTERPRET = bool(_tegula.config()["interpret"])  # TEGULA_INTERPRET, read once by the core
    return _INTERPRET
