"""@tt.kernel, specialization and the compile cache, and tt.launch (GPU or CPU interpreter)."""
from __future__ import annotations

import ast
import inspect
import textwrap

from .. import _tegula
from . import _args, _types
from ._frontend import Translator


class PerformanceWarning(UserWarning):
    """Code that runs correctly but off its fast path (say an mma that cannot use the tensor cores)."""


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
        self.tensor_maps = ()   # [(array index, dtype, box rows, box cols)]: CUtensorMaps passed after the arguments
        self.persistent = False  # launched with min(blocks, SMs) blocks, given the grid as three ints
        self.pipeline_stages = 0
        self.cluster = 1        # blocks per cluster (2: pairs sharing operand tiles by multicast copies)
        self.note = ""          # why an mma stayed off the tensor cores
        self._max_blocks = 0    # a persistent kernel's grid: the SMs, or the clusters that fit at once
        self._maps = {}         # (array index, address, shape, strides) -> encoded tensor map
        self._warned = set()    # array indices already reported as repacked

    def build_gpu(self, specs, pipeline_stages=0, cluster=1):
        from .. import core

        arrays = [(s[3], s[4]) for s in specs if s[0] == "array"]
        dev = core.Device()
        k = _tegula.generate_kernel(self.ir, int(dev.arch), arrays, pipeline_stages, cluster)
        self.source, self.block_threads, self.shared_bytes = k["source"], k["block_threads"], k["shared_bytes"]
        self.tensor_maps, self.persistent, self.note = tuple(k["tensor_maps"]), k["persistent"], k["note"]
        self.pipeline_stages, self.cluster = k["stages"], k["cluster"]
        if self.note:
            import warnings

            warnings.warn(f"tile kernel '{self.name}': mma runs on CUDA cores, not tensor cores: {self.note}",
                          PerformanceWarning, stacklevel=4)
        options = core.ProgramOptions(arch=f"sm_{int(dev.arch)}a") if k["arch_specific"] else None
        self.kernel = core.Program(self.source, name=f"{self.name}.cu", options=options).compile().get_kernel(k["name"])
        if self.shared_bytes > 48 * 1024:
            self.kernel.set_max_dynamic_shared_memory(self.shared_bytes)
        self._max_blocks = dev.multiprocessor_count
        if self.cluster > 1:
            # A persistent grid of clusters must all run at once (each walks its share of the tiles to the end):
            # not every SM can join a cluster, so the grid is the clusters that fit, not the SMs.
            fit = self.kernel.max_active_clusters(self.cluster, self.block_threads, self.shared_bytes)
            if fit < 1:
                raise RuntimeError(f"tile kernel '{self.name}': no cluster of {self.cluster} blocks of "
                                   f"{self.block_threads} threads and {self.shared_bytes} bytes of shared memory fits")
            self._max_blocks = min(self._max_blocks, fit * self.cluster)

    def launch_arguments(self, specs, grid, stream=None):
        """(launch grid, extra parameters, keep-alive) beyond the arrays and scalars: tensor maps and the
        user's grid. An array whose rows the copy engine cannot address (not 16-byte aligned) is copied
        into an aligned buffer first, on `stream`; the buffer is returned to outlive the launch call."""
        if not self.tensor_maps and not self.persistent:
            return grid, (), ()
        arrays = [s for s in specs if s[0] == "array"]
        extra, keep = [], []
        for index, dtype, box_rows, box_cols in self.tensor_maps:
            a = arrays[index]
            ptr, (rows, cols), stride = a[5], a[6], a[7][0]
            item = _args.item_size(dtype)
            if ptr % 16 or (stride * item) % 16:
                extra.append(self._repacked(index, dtype, ptr, rows, cols, stride, item, box_rows, box_cols,
                                            stream, keep))
                continue
            key = (index, ptr, a[6], a[7])
            m = self._maps.get(key)
            if m is None:
                if len(self._maps) > 64:
                    self._maps.clear()
                m = self._maps[key] = _tegula.encode_tensor_map_2d(dtype, ptr, rows, cols, stride, box_rows, box_cols)
            extra.append(m)
        if self.persistent:
            g = tuple(grid) + (1,) * (3 - len(grid))
            extra.extend(g)
            n, c = g[0] * g[1] * g[2], self.cluster
            grid = (max(c, min(-(-n // c) * c, self._max_blocks // c * c)),)  # whole clusters, one block an SM at most
        return grid, tuple(extra), keep

    def _repacked(self, index, dtype, ptr, rows, cols, stride, item, box_rows, box_cols, stream, keep):
        from .. import core

        if index not in self._warned:
            self._warned.add(index)
            import warnings

            warnings.warn(f"tile kernel '{self.name}': array argument {index} has rows the copy engine cannot "
                          f"address ({stride * item}-byte stride, address {ptr:#x}): it is copied into 16-byte "
                          "aligned rows before each launch (one extra pass over it)", PerformanceWarning, stacklevel=5)
        pitch = -(-cols * item // 16) * 16
        buf = core.Buffer.allocate(max(1, pitch * rows), stream=stream)
        _tegula.copy_rows(stream, buf.handle, pitch, ptr, stride * item, cols * item, rows)
        keep.append(buf)
        return _tegula.encode_tensor_map_2d(dtype, buf.handle, rows, cols, pitch // item, box_rows, box_cols)


class Kernel:
    """A tile kernel: `@tt.kernel def f(x, out, n: tt.Constant[int]): ...`."""

    def __init__(self, fn, num_stages=0, cluster=1):
        self.fn = fn
        self.num_stages = int(num_stages)  # tensor-core kernels: pipeline stages (0: as many as fit)
        self.cluster = _cluster_arg(cluster)  # tensor-core kernels: blocks per cluster (1 or 2)
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        source = textwrap.dedent(inspect.getsource(fn))
        self.filename = inspect.getsourcefile(fn) or "<kernel>"
        self.first_line = fn.__code__.co_firstlineno
        tree = ast.parse(source)
        self.tree = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        self.tree.decorator_list = []
        self.constants = [_is_constant(a.annotation, self._names()) for a in self.tree.args.args]
        self.arg_names = [a.arg for a in self.tree.args.args]
        self._cache = {}
        self._launcher = _tegula.TileLauncher(self.constants)  # the C++ fast path of launch()

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
        k._cache = {}
        k._launcher = _tegula.TileLauncher(self.constants)
        return k

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
                c.build_gpu(specs, self.num_stages, self.cluster)
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


def _launch_slow(kernel_, grid, args, stream, interpret, fast_key):
    """tt.launch's Python path: what the C++ fast path (_tegula.tile_launch) declined or has not seen."""
    if interpret is None:
        interpret = _interpret_by_default()
    if not isinstance(kernel_, Kernel):
        if getattr(kernel_, "_tile_launchable", False):  # tt.autotune's Autotuned (it sits above this module)
            return kernel_.launch(grid, tuple(args), stream, interpret)
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
    if stream is None:
        stream = _args.torch_stream(specs)
    launch_grid, extra, keep = c.launch_arguments(specs, grid, stream)
    if isinstance(fast_key, bytes) and not extra:
        kernel_._launcher.add(fast_key, c.kernel, c.block_threads, c.shared_bytes)
    cfg = c.configs.get(launch_grid)
    if cfg is None:
        from .. import core

        cfg = c.configs[launch_grid] = core.LaunchConfig(grid=launch_grid, block=c.block_threads,
                                                         shmem_size=c.shared_bytes,
                                                         cluster=(c.cluster, 1, 1) if c.cluster != 1 else None)
    if _tegula.profiler_active():
        _tegula.profiler_note_bytes(_args.bytes_touched(specs))
    _tegula.launch(stream, cfg, c.kernel, *_args.flatten(specs), *extra)


_tegula.set_tile_launch_fallback(_launch_slow)
launch = _tegula.tile_launch


_INTERPRET = None


def _interpret_by_default():
    global _INTERPRET
    if _INTERPRET is None:
        _INTERPRET = bool(_tegula.config()["interpret"])  # TEGULA_INTERPRET, read once by the core
    return _INTERPRET
