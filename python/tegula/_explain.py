"""The code analyzer: what one compiled kernel is (tile IR after each pass, CUDA C++, PTX, SASS) and what it costs
(registers, spills, shared and local memory, occupancy per block size). It covers tile kernels, fused tegula.numpy
expressions and raw Programs. Everything except SASS works without a GPU: NVRTC compiles for the GPU present, else
for sm_90. Tile and array kernels are translated and compiled by the kernel module (cpp/tegula/kernel: translate,
compile_image), the one compile driver, so the report shows the code launches run; a raw Program compiles its own
CUDA through tegula.core.Program. Resources come from ptxas's own report (NVRTC's --ptxas-options=-v); occupancy
uses the per-SM limits of the architecture, as CUDA's occupancy calculator does.

    report = tegula.explain(kernel, *args)       # a tile kernel for these arguments
    report = tegula.explain(x)                    # the kernel that computes the pending tegula.numpy array x
    report = tegula.explain(program, "axpy")      # a raw tegula.core.Program
    print(report)                                 # summary; report.ir("cse"), .source, .ptx, .sass, .resources
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

# Per-SM limits (CUDA occupancy calculator): warps, blocks, 32-bit registers and their allocation unit per warp,
# shared memory per SM and per block, its allocation unit, and what the system reserves per block.
_LIMITS = {
    80: dict(warps=64, blocks=32, regs=65536, reg_unit=256, smem=167936, smem_block=166912, smem_unit=128, reserved=1024),
    86: dict(warps=48, blocks=16, regs=65536, reg_unit=256, smem=102400, smem_block=101376, smem_unit=128, reserved=1024),
    89: dict(warps=48, blocks=24, regs=65536, reg_unit=256, smem=102400, smem_block=101376, smem_unit=128, reserved=1024),
    90: dict(warps=64, blocks=32, regs=65536, reg_unit=256, smem=233472, smem_block=232448, smem_unit=128, reserved=1024),
    100: dict(warps=64, blocks=32, regs=65536, reg_unit=256, smem=233472, smem_block=232448, smem_unit=128, reserved=1024),
}


def default_arch():
    """The current GPU's compute capability (90 for sm_90), or 90 without one."""
    from .core._program import Program, _DEFAULT_ARCH_WITHOUT_GPU

    if Program._has_device():
        from . import _tegula

        return int(_tegula.Device().arch)
    return _DEFAULT_ARCH_WITHOUT_GPU


def occupancy(arch, registers, shared_bytes, block_threads):
    """Resident blocks per SM and what limits them, for a kernel using `registers` per thread and `shared_bytes`
    (static + dynamic) per block, launched with `block_threads`."""
    lim = _LIMITS.get(arch) or _LIMITS[max(a for a in _LIMITS if a <= max(arch, 80))]
    warps = -(-block_threads // 32)
    if block_threads < 1 or block_threads > 1024:
        raise ValueError(f"block_threads must be 1..1024, got {block_threads}")
    per_warp = -(-max(registers, 1) * 32 // lim["reg_unit"]) * lim["reg_unit"]
    smem = -(-(shared_bytes + lim["reserved"]) // lim["smem_unit"]) * lim["smem_unit"]
    limits = {
        "blocks": lim["blocks"],
        "warps": lim["warps"] // warps,
        "registers": (lim["regs"] // per_warp) // warps if registers <= 255 else 0,
        "shared memory": lim["smem"] // smem if shared_bytes <= lim["smem_block"] else 0,
    }
    blocks = min(limits.values())
    limited_by = min(limits, key=lambda k: (limits[k], list(limits).index(k)))
    return {"block_threads": block_threads, "blocks_per_sm": blocks, "warps_per_sm": blocks * warps,
            "occupancy": blocks * warps / lim["warps"], "limited_by": limited_by}


def _parse_ptxas(log):
    """{entry name: resources} from ptxas's -v report."""
    out = {}
    for block in log.split("Compiling entry function '")[1:]:
        name = block.split("'", 1)[0]
        r = {"registers": 0, "spill_stores": 0, "spill_loads": 0, "stack_frame": 0, "static_shared": 0, "barriers": 0,
             "constant": 0}
        for key, pattern in (("registers", r"Used (\d+) registers"), ("spill_stores", r"(\d+) bytes spill stores"),
                             ("spill_loads", r"(\d+) bytes spill loads"), ("stack_frame", r"(\d+) bytes stack frame"),
                             ("static_shared", r"(\d+) bytes smem"), ("barriers", r"used (\d+) barriers"),
                             ("constant", r"(\d+) bytes cmem\[0\]")):
            m = re.search(pattern, block)
            if m:
                r[key] = int(m.group(1))
        out[name] = r
    return out


def _tool(name):
    from . import _tegula

    found = shutil.which(name)
    if found:
        return found
    for home in _tegula.config().get("cuda_homes", []) or []:
        p = os.path.join(home, "bin", name)
        if os.path.isfile(p):
            return p
    return None


class _ProgramImages:
    """A raw tegula.core.Program's images: its own CUDA through Program, with its options."""

    def __init__(self, source, name, options, name_expressions, arch, arch_specific):
        self._source, self._name, self._options = source, name, options
        self._names = tuple(name_expressions)
        self._arch = f"sm_{arch}{'a' if arch_specific else ''}"

    def image(self, kind):
        """(code, compile log, {name expression: mangled name}) of kind 'ptx' or 'cubin_with_resources'."""
        from .core import Program, ProgramOptions

        base = self._options or ProgramOptions()
        opts = ProgramOptions(**{f: getattr(base, f) for f in base.__dataclass_fields__})
        opts.arch = self._arch
        extra = ["--ptxas-options=-v"] if kind == "cubin_with_resources" else []
        opts.extra_options = list(base.extra_options) + extra
        p = Program(self._source, name=f"{self._name}.cu", options=opts)
        obj = p.compile("ptx" if kind == "ptx" else "cubin", self._names)
        return obj.code, p.last_compile["log"], dict(obj.name_expressions) if self._names else {}


class _KernelImages:
    """A tile or array kernel's images through the kernel module (kernel::compile_image): the NVRTC request its
    launches use, for the translation's arch."""

    def __init__(self, translation):
        self._translation = translation

    def image(self, kind):
        info = self._translation.compile_image(kind)
        return info["code"], info["log"], {}


class KernelReport:
    """One compiled kernel, explained. `ir(stage)`, `stages`, `source`, `ptx`, `sass`, `resources`,
    `occupancy(block_threads)` and `occupancy_table()`; str() gives a summary."""

    def __init__(self, name, source, entry, images, *, arch, arch_specific=False, block_threads=0, dynamic_shared=0,
                 stages=None, notes=()):
        self.name = name
        self.source = source                # CUDA C++
        self.entry = entry                  # extern "C" name or name expression
        self.arch = int(arch)
        self.arch_specific = arch_specific  # sm_90a (wgmma) rather than sm_90
        self.block_threads = block_threads  # fixed by the kernel (tile kernels, array kernels); 0 for Programs
        self.dynamic_shared = dynamic_shared
        self.notes = list(notes)
        self._stages = stages               # [(stage, IR text)] or None (raw CUDA)
        self._images = images               # _KernelImages (tile and array kernels) or _ProgramImages
        self._ptx = self._log = self._cubin = None
        self._mangled = None

    # ---- IR --------------------------------------------------------------------------------------------------
    @property
    def stages(self):
        """The pass pipeline's stages whose IR `ir(stage)` returns (empty for raw CUDA)."""
        return [s for s, _ in self._stages or ()]

    def ir(self, stage=None):
        """The tile IR after all passes, or after `stage` (one of `stages`)."""
        if not self._stages:
            raise ValueError(f"'{self.name}' is raw CUDA C++ (a Program): it has no tile IR")
        if stage is None:
            return self._stages[-1][1]
        for s, text in self._stages:
            if s == stage:
                return text
        raise ValueError(f"no stage {stage!r}; stages: {self.stages}")

    # ---- compiled forms ---------------------------------------------------------------------------------------
    @property
    def ptx(self):
        """The PTX NVRTC makes of the source (compiled on first access, then cached)."""
        if self._ptx is None:
            code, _, _ = self._images.image("ptx")
            self._ptx = code.decode() if isinstance(code, bytes) else code
        return self._ptx

    def _verbose(self):
        if self._log is None:
            self._cubin, self._log, self._mangled = self._images.image("cubin_with_resources")
        return self._log

    @property
    def resources(self):
        """ptxas's report for the entry: registers, spill_stores/spill_loads (bytes), stack_frame (local memory
        per thread, bytes), static_shared and dynamic_shared (bytes per block), barriers, constant (bytes)."""
        table = _parse_ptxas(self._verbose())
        name = (self._mangled or {}).get(self.entry, self.entry)
        r = table.get(name)
        if r is None:
            if len(table) == 1:
                r = next(iter(table.values()))
            else:
                raise KeyError(f"no entry '{self.entry}' in the compiled code; entries: {sorted(table)}")
        return dict(r, dynamic_shared=self.dynamic_shared, local_memory=r["stack_frame"])

    @property
    def sass(self):
        """The SASS of the compiled cubin, from nvdisasm (or cuobjdump) of the CUDA toolkit."""
        self._verbose()
        tool = _tool("nvdisasm") or _tool("cuobjdump")
        if tool is None:
            raise FileNotFoundError("SASS needs nvdisasm or cuobjdump from the CUDA toolkit; neither is on PATH or "
                                    "in CUDA_HOME/bin")
        with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
            f.write(self._cubin)
        try:
            args = [tool, "-c", f.name] if tool.endswith("nvdisasm") else [tool, "-sass", f.name]
            return subprocess.run(args, check=True, capture_output=True, text=True).stdout
        finally:
            os.unlink(f.name)

    # ---- occupancy ----------------------------------------------------------------------------------------------
    def occupancy(self, block_threads=None):
        """Blocks and warps resident per SM at `block_threads` (default: the kernel's own block size)."""
        bt = block_threads or self.block_threads
        if not bt:
            raise ValueError(f"'{self.name}' has no fixed block size: pass block_threads")
        r = self.resources
        return occupancy(self.arch, r["registers"], r["static_shared"] + r["dynamic_shared"], bt)

    def occupancy_table(self, sizes=(32, 64, 128, 256, 512, 1024)):
        """occupancy() for each block size (the kernel's own first when fixed)."""
        sizes = ([self.block_threads] if self.block_threads else []) + [s for s in sizes if s != self.block_threads]
        return [self.occupancy(s) for s in sizes]

    def __str__(self):
        lines = [f"kernel {self.name} (sm_{self.arch}{'a' if self.arch_specific else ''})"]
        if self.block_threads:
            lines.append(f"  block: {self.block_threads} threads, dynamic shared memory {self.dynamic_shared} bytes")
        try:
            r = self.resources
            lines.append(f"  registers {r['registers']}, spills {r['spill_stores']}/{r['spill_loads']} bytes "
                         f"(stores/loads), local memory {r['local_memory']} bytes/thread, static shared "
                         f"{r['static_shared']} bytes, barriers {r['barriers']}")
            if self.block_threads:
                o = self.occupancy()
                lines.append(f"  occupancy: {o['blocks_per_sm']} blocks, {o['warps_per_sm']} warps per SM "
                             f"({o['occupancy']:.0%}), limited by {o['limited_by']}")
        except Exception as e:  # noqa: BLE001 - the summary says what it could not find out
            lines.append(f"  resources unavailable: {e}")
        if self._stages:
            lines.append(f"  IR stages: {', '.join(self.stages)}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    __repr__ = __str__


def _report(name, t, notes, stages=None):
    """The report of translation `t` (a _tegula.KernelTranslation) named `name`."""
    return KernelReport(name, t.source, t.kernel_name, _KernelImages(t), arch=t.arch, arch_specific=t.arch_specific,
                        block_threads=t.block_threads, dynamic_shared=t.shared_bytes,
                        stages=list(t.stages) if stages is None else stages, notes=notes)


def for_tile_kernel(kernel, args, arch=None):
    """The report of tile kernel `kernel` specialised for `args` (arrays of any kind, scalars, constants)."""
    t = kernel.translation(tuple(args), int(arch or default_arch()))
    notes = [f"mma on CUDA cores: {t.note}"] if t.note else []
    if t.tensor_maps:
        notes.append(f"{len(t.tensor_maps)} TMA tensor maps passed after the arguments")
    if t.cluster > 1:
        notes.append(f"launched in clusters of {t.cluster} blocks: neighbouring blocks copy an A or B tile they "
                     "both need once, half each, into both (TMA multicast)")
    return _report(kernel.__name__, t, notes)


def for_array(x, arch=None):
    """The report of the kernel that computes the pending tegula.numpy array x (it runs x to find out)."""
    from . import _tegula

    if not getattr(x, "_pending", False):
        raise ValueError("explain(x) needs a pending (not yet computed) tegula.numpy array: x is already in memory, "
                         "so no kernel is left to explain; explain the expression before using its value")
    if _tegula.array_library(x) is not None:
        return _for_library(x)
    vm_text, vm_why = _tegula.array_vm_program(x)  # what a first run on the array VM executes (issue #26)
    mode = _tegula.array_vm_mode()
    _tegula.set_array_vm_mode("never")  # the report is of the fused kernel: build it now
    try:
        x._materialize()
    finally:
        _tegula.set_array_vm_mode(mode)
    t = _tegula.array_last_translation(int(arch or default_arch()))
    if t is None:
        raise RuntimeError("no array kernel ran for x")
    notes = []
    first = "first run" if x._device_id >= 0 else "first run on a GPU"
    if mode == "never":
        notes.append(f"{first}: waits for this kernel's compile (background compilation is off)")
    elif vm_text is not None:
        n = vm_text.count("\n")
        notes.append(f"{first}: the array VM ({n} instructions: report.vm_program) while this kernel compiles in the "
                     "background" + (" (TEGULA_ARRAY_VM=always: every run)" if mode == "always" else ""))
    else:
        notes.append(f"{first}: waits for this kernel's compile (the array VM does not run it: {vm_why})")
    if not _tegula.array_last_kernel()[1]:  # it ran on the interpreter: no GPU code was made
        notes.append("x lives on the CPU interpreter: the CUDA shown is what a GPU runs for operands laid out as "
                     "x's are")
    report = _report(t.kernel_name, t, notes, stages=[("final", t.ir.print())])
    report.vm_program = vm_text  # the array VM's program of the same plan (None where it has none)
    return report


def _for_library(x):
    """The report of a pending array a library call computes (library_node.hpp): it runs x, then reports the kernel
    that ran (the matrix pass's: libs/matrix_pass.hpp) and what the call computed with it."""
    from . import _tegula
    from .core import Program

    what = _tegula.array_library(x)
    x._materialize()
    _, joined = _tegula.library_last()
    kernel, dtype, ny, nz = _tegula.matrix_pass_last()
    notes = [f"library call: {what}; {joined} product(s) over the matrix in one pass ({ny} M @ u, {nz} v @ M)"]
    if kernel == "cuBLASLt":
        notes.append("ran: cuBLASLt alone (no other held product over the matrix joined it, and lone products take "
                     "the library: set_lone_matrix_pass); the CUDA shown is the pass a joined product runs")
    elif x._device_id < 0:
        notes.append("x lives on the CPU interpreter: the host reference ran; the CUDA shown is the kernel a GPU "
                     f"runs for {ny} M @ u and {nz} v @ M")
    if kernel in ("cuBLASLt", "host reference"):
        kernel = f"tg_pass_{ny}_{next(v for v in (0, 1, 2, 4, 8) if v >= nz)}"
    report = for_program(Program(_tegula.matrix_pass_source(dtype), name="matrix_pass.cu"), kernel)
    report.notes.extend(notes)
    return report


def for_program(program, kernel_name=None):
    """The report of kernel `kernel_name` (an extern "C" name or a name expression) of a tegula.core.Program."""
    names = [kernel_name] if kernel_name and "<" in kernel_name else []
    if kernel_name is None:
        found = re.findall(r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)', program.code)
        if len(found) != 1:
            raise ValueError(f"the Program has {len(found)} extern \"C\" kernels ({found}): name the one to explain")
        kernel_name = found[0]
    arch, arch_specific = default_arch(), False
    if program.options.arch is not None:
        from .core._program import _parse_arch

        arch, arch_specific = _parse_arch(program.options.arch)
    images = _ProgramImages(program.code, kernel_name, program.options, names, arch, arch_specific)
    return KernelReport(kernel_name, program.code, kernel_name, images, arch=arch, arch_specific=arch_specific)


def for_ir(text, filename="<ir>", arch=None):
    """The report of a tile IR function given as text (a .tir file): every pass stage and the CUDA it becomes,
    assuming contiguous, 16-byte aligned array arguments."""
    from . import _tegula

    fn = _tegula.parse_ir(text, filename)
    t = _tegula.translate(fn, int(arch or default_arch()))  # every array contiguous and aligned
    has_arrays = any(kind == "array" for _, kind, _, _ in fn.params)
    return _report(t.kernel_name, t, ["array arguments assumed contiguous and 16-byte aligned"] if has_arrays else [])


_SHORT = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16", "i8": "int8", "i16": "int16",
          "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
          "b1": "bool"}


def parse_args_spec(spec):
    """Launch arguments from text: 'float32[64,1024]' (or f32[64,1024]) is an array of that dtype and shape,
    anything else a Python literal (a scalar or a constant)."""
    import ast

    import numpy as np

    out = []
    for token in re.findall(r"[A-Za-z_0-9]+\[[0-9, ]*\]|[^\s]+", spec or ""):
        m = re.fullmatch(r"([A-Za-z_0-9]+)\[([0-9, ]*)\]", token)
        if m:
            dtype = _SHORT.get(m.group(1), m.group(1))
            shape = tuple(int(d) for d in m.group(2).replace(" ", "").split(",") if d)
            if dtype == "bfloat16":
                from . import numpy as tnp

                out.append(tnp.empty(shape, "bfloat16", device="cpu"))
            else:
                out.append(np.zeros(shape, np.dtype(dtype)))
        else:
            try:
                out.append(ast.literal_eval(token))
            except (ValueError, SyntaxError) as e:
                raise ValueError(f"cannot read launch argument {token!r}: write arrays as dtype[shape] "
                                 "(float32[64,1024]) and scalars as Python literals") from e
    return out


def explain(obj, *args, arch=None):
    """A KernelReport for a tile kernel (with its launch arguments), a pending tegula.numpy array, or a
    tegula.core.Program (with the kernel's name when it has several)."""
    from .core import Program
    from .tile._kernel import Kernel

    if isinstance(obj, Kernel):
        return for_tile_kernel(obj, args, arch)
    if isinstance(obj, Program):
        if len(args) > 1:
            raise TypeError("explain(program, kernel_name): one kernel name")
        return for_program(obj, args[0] if args else None)
    if type(obj).__name__ == "ndarray" and hasattr(obj, "_pending"):
        if args:
            raise TypeError("explain(array) takes no further arguments")
        return for_array(obj, arch)
    from .tile._autotune import Autotuned

    if isinstance(obj, Autotuned):
        raise TypeError("explain an autotuned kernel through its kernel and one configuration's constants: "
                        "explain(tuned.kernel, *args)")
    raise TypeError(f"explain() takes a @tt.kernel function, a pending tegula.numpy array or a tegula.core.Program, "
                    f"not {type(obj).__name__}")
