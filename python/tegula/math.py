"""tegula.math: library calls with fused epilogues (the NVMath-Python part).

    import tegula.math as tm
    d = tm.matmul(a, b, bias=bias, epilog="relu_bias")      # relu(a @ b + bias) in one cuBLASLt call
    d, aux = tm.matmul(a, b, bias=bias, epilog="gelu_aux_bias")   # the pre-activation for the backward pass

Operands are tegula.numpy arrays or anything tegula.numpy.asarray takes (NumPy, torch, CuPy). On the GPU the
product is one cuBLASLt call (float16, bfloat16, float32 -- TF32 with allow_tf32 --, float64; operands used where
they lie when their rows or columns are contiguous); arrays on the CPU interpreter are computed by the C++ host
reference of the same call, with the same epilogue formulas (gelu: the tanh form cuBLASLt uses). The call is made
in C++ over the arrays (cpp/tegula/libs/matmul_epilogue_arrays.hpp): no device pointer passes through Python.

Results lie where the operands came from: NumPy operands are copied to the GPU (when there is one), multiplied
there, and the result is copied back as NumPy arrays; tegula, torch and CuPy operands give tegula arrays on their
device (zero-copy views for torch and CuPy through tegula.numpy.asarray).

float8 (e4m3fn, e5m2): torch float8 tensors (read in C++: tegula.numpy has no float8 dtype), `a` row-major (m, k) and `b` a (k, n) view of a row-major
(n, k) array (`bt.T`), as cuBLASLt requires; the result is `out_dtype` (bfloat16 by default, float16 or float32)
and alpha carries the dequantisation scales (alpha = scale_a * scale_b).
"""
from __future__ import annotations

import operator as _operator

import numpy as _np

EPILOGS = ("none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "relu_aux", "relu_aux_bias", "gelu_aux",
           "gelu_aux_bias")


def _gelu(x):
    """cuBLASLt's gelu (the tanh form) over NumPy arrays: what tests compare results with (the host reference's own
    is libs/host_gemm.hpp: gelu_tanh)."""
    return 0.5 * x * (1.0 + _np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


class Matmul:
    """A planned product D = alpha * a @ b + beta * c with an epilogue, for repeated execution on new data of the
    same shapes: plan() checks the problem, execute() runs it (cuBLASLt caches the algorithm per shape).

    The product is one C++ plan (cpp/tegula/libs/matmul_epilogue_arrays.hpp, `_tegula.FusedGemmPlan`) over the
    operands' arrays: it checks shapes, dtypes, devices, the bias and c, materialises the inputs and hands them to
    cuBLASLt where they lie (the CPU: a host reference with the same formulas). No device pointer is handled here."""

    def __init__(self, a, b, c=None, *, alpha=1.0, beta=0.0, epilog=None, bias=None, allow_tf32=False,
                 out_dtype=None, sm_count=None):
        from . import numpy as tnp

        self.sm_count = 0 if sm_count is None else _sm_count_arg(sm_count)
        self.epilog = epilog or ("bias" if bias is not None else "none")
        if not isinstance(self.epilog, str):
            raise ValueError(f"unknown epilog {epilog!r}: use one of {', '.join(EPILOGS)}")
        self.fp8 = _float8_name(a) or _float8_name(b)
        if self.fp8:  # torch float8 tensors (tegula.numpy has no float8): read in C++ as they are
            if _float8_name(a) != _float8_name(b):
                raise TypeError(f"matmul: a and b must have one dtype, got {getattr(a, 'dtype', type(a))} and "
                                f"{getattr(b, 'dtype', type(b))}")
            self.a, self.b = a, b
            self.host_result = False
        else:
            self.host_result = isinstance(a, _np.ndarray) and isinstance(b, _np.ndarray)
            self.a, self.b = tnp.asarray(a), tnp.asarray(b)
        self.c = None if c is None else tnp.asarray(c)
        self.bias = None if bias is None else tnp.asarray(bias)
        self.alpha, self.beta, self.allow_tf32 = float(alpha), float(beta), bool(allow_tf32)
        self.out_dtype = None if out_dtype is None else _dtype_name(out_dtype)
        self._plan = None
        self._planned = False
        self._fast = None

    def plan(self):
        from . import numpy as tnp

        self._plan = tnp._core._tegula.FusedGemmPlan(
            self.a, self.b, self.c, self.bias, self.alpha, self.beta, self.epilog, self.allow_tf32, self.sm_count,
            self.out_dtype)
        self.batch, self.shape = tuple(self._plan.batch), tuple(self._plan.shape)
        self._planned = True
        self._fast = None
        return self

    def autotune(self, candidates=8, repeats=5, search="heuristic", max_configs=1000):
        """Times candidate algorithms on these operands (the output is overwritten) and keeps the fastest for this
        problem shape, so execute() and every later product of the same shape use it; the heuristic's own choice
        stays unless another is at least 3% faster.

        search="heuristic": the first `candidates` algorithms cuBLASLt's heuristic proposes, `repeats` rounds in
        which each runs once on its own. search="wide": every configuration cuBLASLt accepts of the heuristic's
        algorithms (each tile, stage count, cluster shape, CTA swizzling and custom option; at most `max_configs`),
        each timed once, then the fastest `candidates` of them (with the heuristic's first) in the rounds; seconds
        for a large product.

        Sets `self.timings` [(rank, median ms)] for the candidates of the rounds (rank 0: the heuristic's first;
        -1 ms: it refused), `self.configs` {rank: cuBLASLt's algorithm and config attributes}, `self.kept` (rank,
        config), `self.screened` (configurations tried) and `self.screen` [(rank, ms, ratio, config)], fastest first
        by ratio to the heuristic's first timed alongside (the rounds' medians for their candidates, the screen's
        best of two runs for the others). Host arrays have nothing to tune. Returns self."""
        if not self._planned:
            self.plan()
        self._keep_tuning(self._plan.autotune(int(candidates), int(repeats), search, int(max_configs)))
        return self

    def _keep_tuning(self, found):
        """The attributes autotune() sets, from the plan's rows (rank, ms, ratio, config, kept, round_robin)."""
        self.timings = [(rank, ms) for rank, ms, _, _, _, final in found if final]
        self.configs = {rank: config for rank, _, _, config, _, final in found if final}
        self.kept = next(((rank, config) for rank, _, _, config, kept, _ in found if kept), None)
        self.screened = len(found)
        self.screen = sorted(((rank, ms, ratio, config) for rank, ms, ratio, config, _, _ in found if ratio > 0),
                             key=lambda x: x[2])

    def execute(self):
        """Runs the product; NumPy operands get NumPy results (copied back), others tegula arrays."""
        fast = self._fast
        if fast is not None:  # the common case: one C++ call that allocates the result and calls cuBLASLt
            return fast()
        if not self._planned:
            self.plan()
        r = self._plan.run()
        if not self.host_result:
            self._fast = self._plan.run
            return r
        return tuple(x.get() for x in r) if isinstance(r, tuple) else r.get()


def matmul(a, b, c=None, *, alpha=1.0, beta=0.0, epilog=None, bias=None, allow_tf32=False, out_dtype=None,
           sm_count=None):
    """alpha * a @ b + beta * c, then the epilogue (bias added, relu/gelu applied; *_aux forms also return the
    pre-activation), in one library call on the GPU. out_dtype: the result of float8 products. sm_count: plan for
    that many multiprocessors (cuBLASLt's SM count target, leaving the others to concurrent work); None: all."""
    return Matmul(a, b, c, alpha=alpha, beta=beta, epilog=epilog, bias=bias, allow_tf32=allow_tf32,
                  out_dtype=out_dtype, sm_count=sm_count).execute()


def _sm_count_arg(sm_count):
    try:
        v = _operator.index(sm_count)
    except TypeError:
        v = 0
    if v < 1 or isinstance(sm_count, bool):
        raise ValueError(f"sm_count must be a positive int (multiprocessors for cuBLASLt to plan for), got "
                         f"{sm_count!r}")
    return v


def _dtype_name(dt):
    """A dtype's name ('bfloat16', 'float32', ...) from a string, a torch dtype or anything NumPy names."""
    if isinstance(dt, str):
        return dt
    if type(dt).__module__.startswith("torch"):
        return str(dt).replace("torch.", "")
    from . import numpy as tnp

    return tnp.dtype(dt).name


def _float8_name(x):
    """'float8_e4m3fn' / 'float8_e5m2' for a torch float8 tensor, else None."""
    if not type(x).__module__.startswith("torch"):
        return None
    name = str(getattr(x, "dtype", "")).replace("torch.", "")
    return name if name in ("float8_e4m3fn", "float8_e5m2") else None
