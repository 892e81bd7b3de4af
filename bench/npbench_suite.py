"""NPBench's programs (github.com/spcl/npbench: 54 NumPy programs with their CuPy twins) run as NPBench runs them, with
only `import numpy as np` changed to `import tegula.numpy as np`: the inputs made by the program's own initialize(),
copied to the device, the call, its outputs (the return value, then the arguments it writes) validated against plain
NumPy as NPBench validates (np.allclose, or a relative error under the program's norm_error).

Shared by bench/workloads/npbench.py (timings against CuPy on the GPU) and tests/python/test_npbench.py (every
program at preset S on the CPU interpreter, in CI). Where NPBench is: $TEGULA_NPBENCH, else `.npbench` in the
checkout (the copy carried to the GPU machine), else `../shared/npbench` beside it."""
from __future__ import annotations

import importlib.util
import json
import os
import sys
import types

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMPY_IMPORT = "import numpy as np"


def root():
    """NPBench's folder (with bench_info/ and npbench/), or None where it is absent."""
    for cand in (os.environ.get("TEGULA_NPBENCH"), os.path.join(REPO, ".npbench"),
                 os.path.join(REPO, "..", "shared", "npbench")):
        if cand and os.path.isdir(os.path.join(cand, "bench_info")):
            return os.path.abspath(cand)
    return None


def names(where=None):
    where = where or root()
    return sorted(f[:-5] for f in os.listdir(os.path.join(where, "bench_info")) if f.endswith(".json"))


class Program:
    """One NPBench program: its bench_info, inputs and implementations."""

    def __init__(self, name, where=None):
        self.name = name
        self.root = where or root()
        with open(os.path.join(self.root, "bench_info", name + ".json")) as f:
            self.info = json.load(f)["benchmark"]
        self.folder = os.path.join(self.root, "npbench", "benchmarks", self.info["relative_path"])
        self.module = self.info["module_name"]

    def data(self, preset):
        """The parameters of `preset` and the arrays the program's initialize() makes from them (NumPy)."""
        params = self.info["parameters"].get(preset)
        if params is None:
            raise KeyError(f"{self.name} has no preset {preset!r}")
        data = dict(params)
        init = self.info.get("init")
        if init:
            mod = self._load(os.path.join(self.folder, self.module + ".py"), f"npb_{self.name}_init")
            out = getattr(mod, init["func_name"])(*[data[a] for a in init["input_args"]])
            outs = init["output_args"]
            if len(outs) == 1:
                out = (out,)
            data.update(zip(outs, out))
        return data

    def implementation(self, framework):
        """The program's function: 'numpy' (as written), 'tegula' (the NumPy file with its import changed) or 'cupy'
        (NPBench's CuPy version)."""
        suffix = "cupy" if framework == "cupy" else "numpy"
        path = os.path.join(self.folder, f"{self.module}_{suffix}.py")
        replace = (NUMPY_IMPORT, "import tegula.numpy as np") if framework == "tegula" else None
        mod = self._load(path, f"npb_{self.name}_{framework}", replace)
        return getattr(mod, self.info["func_name"])

    def arguments(self, data, copy):
        """The call's arguments: the array arguments through `copy` (fresh each call: programs write them)."""
        arrays = set(self.info["array_args"])
        return [copy(data[a]) if a in arrays else data[a] for a in self.info["input_args"]]

    def outputs(self, result, args):
        """NPBench's outputs: the returned value(s), then the arguments listed as output_args (written in place)."""
        out = [] if result is None else list(result) if isinstance(result, (tuple, list)) else [result]
        return out + [args[self.info["input_args"].index(a)] for a in self.info.get("output_args", [])]

    def tolerances(self):
        i = self.info
        return i.get("rtol", 1e-5), i.get("atol", 1e-8), i.get("norm_error", 1e-5)

    def _load(self, path, modname, replace=None):
        """The module at `path`, with its text changed by `replace` (old, new); NPBench's own package importable."""
        if self.root not in sys.path:
            sys.path.insert(0, self.root)
        with open(path) as f:
            source = f.read()
        if replace is not None:
            if replace[0] not in source:
                raise ValueError(f"{path}: no {replace[0]!r} to change")
            source = source.replace(replace[0], replace[1])
        mod = types.ModuleType(modname)
        mod.__file__ = path
        exec(compile(source, path, "exec"), mod.__dict__)
        return mod


def to_host(x):
    """An output as a NumPy value (tegula and CuPy arrays are copied back)."""
    if type(x).__module__.startswith("tegula"):
        import tegula.numpy as tnp

        return tnp.asnumpy(x)
    if type(x).__module__.startswith("cupy"):
        return x.get()
    return np.asarray(x) if not np.isscalar(x) else x


def relative_error(ref, val):
    return float(np.linalg.norm(ref - val) / np.linalg.norm(ref))


def validate(program, ref, got):
    """None when `got` matches NumPy's `ref` as NPBench's validation says (np.allclose, or a relative error under the
    program's norm_error); else a one-line reason."""
    rtol, atol, norm_error = program.tolerances()
    if len(ref) != len(got):
        return f"{len(got)} outputs, NumPy's {len(ref)}"
    for k, (r, g) in enumerate(zip(ref, got)):
        r, g = np.asarray(r), np.asarray(to_host(g))
        if r.shape != g.shape:
            return f"output {k}: shape {g.shape}, NumPy's {r.shape}"
        with np.errstate(all="ignore"):
            if np.allclose(r, g, rtol=rtol, atol=atol):
                continue
            err = relative_error(r.astype(np.complex128 if r.dtype.kind == "c" else np.float64),
                                 g.astype(np.complex128 if g.dtype.kind == "c" else np.float64))
        if not err < norm_error:
            return f"output {k}: relative error {err:.3g} (norm_error {norm_error:g})"
    return None


def run(program, framework, data, copy, sync=None):
    """One call of the program's `framework` implementation on fresh copies of `data`: (outputs, seconds). `sync`
    waits for the device (so the time covers the work)."""
    import time

    fn = program.implementation(framework)
    args = program.arguments(data, copy)
    if sync:
        sync()
    t = time.perf_counter()
    result = fn(*args)
    out = program.outputs(result, args)
    if sync:
        sync()
    return out, time.perf_counter() - t
