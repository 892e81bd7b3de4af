"""@tt.kernel, specialization and the compile cache, and tt.launch (GPU or CPU interpreter)."""
from __future__ import annotations

import ast
import inspect
import textwrap

from .. import _tegula
from . import _args, _types
from ._frontend import Translator


class Compiled:
    """One specialization of a kernel: its IR after each pass, and (on the GPU) CUDA source and Kernel."""

    def __init__(self, name, ir, stages):
        self.name = name
        self.ir = ir            # the post-pass tile IR (a _tegula.Function)
        self.stages = stages    # [(stage, IR text)] after each pass
        self.source = None      # generated CUDA C++
        self.kernel = None      # tegula.core.Kernel
        self.block_threads = 0
        self.shared_bytes = 0
        self.configs = {}       # grid -> LaunchConfig

    def build_gpu(self, specs):
        from .. import core

        arrays = [(s[3], s[4]) for s in specs if s[0] == "array"]
        dev = core.Device()
        name, source, threads, shared = _tegula.generate_cuda(self.ir, int(dev.arch), arrays)
        self.source, self.block_threads, self.shared_bytes = source, threads, shared
        self.kernel = core.Program(source, name=f"{self.name}.cu").compile().get_kernel(name)
        if shared > 48 * 1024:
            self.kernel.set_max_dynamic_shared_memory(shared)


class Kernel:
    """A tile kernel: `@tt.kernel def f(x, out, n: tt.Constant[int]): ...`."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        source = textwrap.dedent(inspect.getsource(fn))
        self.filename = inspect.getsourcefile(fn) or "<kernel>"
        self.first_line = fn.__code__.co_firstlineno
        tree = ast.parse(source)
        self.tree = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        self.tree.decorator_list = []
        self.constants = [_is_constant(a.annotation, self._names()) for a in self.tree.args.args]
        self._cache = {}
        self._launcher = _tegula.TileLauncher(self.constants)  # the C++ fast path of launch()

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"tile kernel '{self.__name__}' is launched with tt.launch({self.__name__}, grid, args)")

    def specialize(self, args, interpret):
        """(specs, key) for these arguments: dtypes, ranks, layout facts and constant values."""
        if len(args) != len(self.constants):
            raise TypeError(f"tile kernel '{self.__name__}' takes {len(self.constants)} arguments but "
                            f"{len(args)} were given")
        specs = tuple(_args.describe(a, i, const, interpret, self.__name__)
                      for i, (a, const) in enumerate(zip(args, self.constants)))
        return specs, tuple(s[:5] if s[0] == "array" else s[:2] if s[0] == "scalar" else s for s in specs)

    def compile(self, args, interpret=False):
        """The Compiled specialization for `args` (built once, then cached by specialization)."""
        specs, key = self.specialize(args, interpret)
        return self._compiled(specs, key, interpret)

    def _compiled(self, specs, key, interpret):
        c = self._cache.get((key, interpret))
        if c is None:
            ir_specs = [(s[0], s[1], s[2]) if s[0] == "array" else (s[0], s[1]) if s[0] == "scalar" else s
                        for s in specs]
            fn = Translator(self.fn, self.filename, self.first_line, self._names(), ir_specs).translate(self.tree)
            ir, stages = _tegula.run_pipeline(fn, dump=True)
            c = Compiled(self.__name__, ir, stages)
            if not interpret:
                c.build_gpu(specs)
            self._cache[(key, interpret)] = c
        return c

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


def _is_constant(annotation, globals_):
    if annotation is None:
        return False
    try:
        value = eval(compile(ast.Expression(annotation), "<annotation>", "eval"), globals_)  # noqa: S307
    except Exception:  # noqa: BLE001 - unresolvable annotations are not Constant
        return False
    return value is _types.Constant


def kernel(fn):
    """Decorator: a Python function over tiles becomes a tile kernel (parsed from its source)."""
    return Kernel(fn)


def _launch_slow(kernel_, grid, args, stream, interpret, fast_key):
    """tt.launch's Python path: what the C++ fast path (_tegula.tile_launch) declined or has not seen."""
    if interpret is None:
        interpret = _interpret_by_default()
    if not isinstance(kernel_, Kernel):
        raise TypeError(f"tt.launch needs a @tt.kernel function, got {type(kernel_).__name__}")
    grid = _args.grid_tuple(grid)
    if fast_key is False and not interpret and not isinstance(args, tuple):
        args = tuple(args)
        fast_key = kernel_._launcher.launch(grid, args, stream)
        if fast_key is None:
            return
    args = tuple(args)
    specs, key = kernel_.specialize(args, interpret)
    c = kernel_._compiled(specs, key, interpret)
    if interpret:
        _args.run_interpreted(c.ir, specs, grid)
        return
    if isinstance(fast_key, bytes):
        kernel_._launcher.add(fast_key, c.kernel, c.block_threads, c.shared_bytes)
    cfg = c.configs.get(grid)
    if cfg is None:
        from .. import core

        cfg = c.configs[grid] = core.LaunchConfig(grid=grid, block=c.block_threads, shmem_size=c.shared_bytes)
    _tegula.launch(stream, cfg, c.kernel, *_args.flatten(specs))


_tegula.set_tile_launch_fallback(_launch_slow)
launch = _tegula.tile_launch


_INTERPRET = None


def _interpret_by_default():
    global _INTERPRET
    if _INTERPRET is None:
        _INTERPRET = bool(_tegula.config()["interpret"])  # TEGULA_INTERPRET, read once by the core
    return _INTERPRET
