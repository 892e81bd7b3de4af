"""tegula.math: library calls with fused epilogues (the NVMath-Python part).

    import tegula.math as tm
    d = tm.matmul(a, b, bias=bias, epilog="relu_bias")      # relu(a @ b + bias) in one cuBLASLt call
    d, aux = tm.matmul(a, b, bias=bias, epilog="gelu_aux_bias")   # the pre-activation for the backward pass

Operands are tegula.numpy arrays or anything tegula.numpy.asarray takes (NumPy, torch, CuPy). On the GPU the
product is one cuBLASLt call (float16, bfloat16, float32 -- TF32 with allow_tf32 --, float64; operands used where
they lie when their rows or columns are contiguous); arrays on the CPU interpreter are computed by NumPy on the
host with the same epilogue formulas (gelu: the tanh form cuBLASLt uses).

Results lie where the operands came from: NumPy operands are copied to the GPU (when there is one), multiplied
there, and the result is copied back as NumPy arrays; tegula, torch and CuPy operands give tegula arrays on their
device (zero-copy views for torch and CuPy through tegula.numpy.asarray).

float8 (e4m3fn, e5m2): torch float8 tensors on the GPU, `a` row-major (m, k) and `b` a (k, n) view of a row-major
(n, k) array (`bt.T`), as cuBLASLt requires; the result is `out_dtype` (bfloat16 by default, float16 or float32)
and alpha carries the dequantisation scales (alpha = scale_a * scale_b).
"""
from __future__ import annotations

import functools as _functools
import math as _m
import operator as _operator

import numpy as _np

EPILOGS = ("none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "relu_aux", "relu_aux_bias", "gelu_aux",
           "gelu_aux_bias")


def _gelu(x):
    return 0.5 * x * (1.0 + _np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


class Matmul:
    """A planned product D = alpha * a @ b + beta * c with an epilogue, for repeated execution on new data of the
    same shapes: plan() checks the problem, execute() runs it (cuBLASLt caches the algorithm per shape)."""

    def __init__(self, a, b, c=None, *, alpha=1.0, beta=0.0, epilog=None, bias=None, allow_tf32=False,
                 out_dtype=None, sm_count=None):
        from . import numpy as tnp

        self.sm_count = 0 if sm_count is None else _sm_count_arg(sm_count)

        self.epilog = epilog or ("bias" if bias is not None else "none")
        self.fp8 = _float8_name(a) or _float8_name(b)
        if self.fp8:
            self._init_fp8(a, b, c, alpha, bias, out_dtype)
            return
        if out_dtype is not None and tnp.dtype(out_dtype) != tnp.asarray(a).dtype:
            raise TypeError("out_dtype is for float8 products; other products return their operands' dtype")
        if self.epilog not in EPILOGS:
            raise ValueError(f"unknown epilog {epilog!r}: use one of {', '.join(EPILOGS)}")
        if ("bias" in self.epilog) != (bias is not None):
            raise ValueError(f"epilog {self.epilog!r} {'needs' if 'bias' in self.epilog else 'takes no'} bias")
        self.host_result = isinstance(a, _np.ndarray) and isinstance(b, _np.ndarray)
        self.a, self.b = tnp.asarray(a), tnp.asarray(b)
        self.c = None if c is None else tnp.asarray(c)
        self.bias = None if bias is None else tnp.asarray(bias)
        self.alpha, self.beta, self.allow_tf32 = float(alpha), float(beta), bool(allow_tf32)
        self._planned = False
        self._fast = None

    def _init_fp8(self, a, b, c, alpha, bias, out_dtype):
        from . import numpy as tnp

        if _float8_name(a) != _float8_name(b):
            raise TypeError(f"matmul: a and b must have one dtype, got {getattr(a, 'dtype', type(a))} and "
                            f"{getattr(b, 'dtype', type(b))}")
        if c is not None:
            raise ValueError("float8 products take no c (beta * c); add it to the result")
        self.out_dtype = str(out_dtype or "bfloat16")
        if self.out_dtype not in ("bfloat16", "float16", "float32"):
            raise TypeError(f"float8 products give bfloat16, float16 or float32, not {self.out_dtype}")
        if self.epilog not in ("none", "bias", "relu", "relu_bias", "gelu", "gelu_bias"):
            raise ValueError(f"float8 products take the epilogues none, bias, relu, relu_bias, gelu and gelu_bias, "
                             f"not {self.epilog!r}")
        if ("bias" in self.epilog) != (bias is not None):
            raise ValueError(f"epilog {self.epilog!r} {'needs' if 'bias' in self.epilog else 'takes no'} bias")
        self.a, self.b = a, b
        self.c = None
        self.bias = None if bias is None else tnp.asarray(bias).astype(self.out_dtype)
        self.alpha, self.beta, self.allow_tf32 = float(alpha), 0.0, False
        self.host_result = False
        self._planned = False
        self._fast = None

    def _plan_fp8(self):
        a, b = self.a, self.b
        if a.dim() != 2 or b.dim() != 2:
            raise ValueError("float8 products take 2-D operands")
        (m, k), (k2, n) = tuple(a.shape), tuple(b.shape)
        if k != k2:
            raise ValueError(f"matmul: a {(m, k)} and b {(k2, n)} differ in the contracted dimension ({k} vs {k2})")
        if a.stride() != (k, 1) or b.stride() != (1, k):
            raise ValueError("cuBLASLt float8 products need a row-major (m, k) `a` and `b` given as the transpose of "
                             f"a row-major (n, k) array (bt.T); got strides {a.stride()} and {b.stride()}")
        if a.is_cuda != b.is_cuda or (a.is_cuda and a.device != b.device):
            raise ValueError("a and b lie on different devices")
        if a.is_cuda and self.fp8 == "float8_e5m2":
            raise TypeError("cuBLASLt has no float8_e5m2 x float8_e5m2 product (one operand must be float8_e4m3fn); "
                            "use float8_e4m3fn operands")
        if self.bias is not None and tuple(self.bias.shape) != (n,):
            raise ValueError(f"bias must have shape ({n},), got {tuple(self.bias.shape)}")
        self.batch, self.shape = (), (m, n)
        self._planned = True
        return self

    def _execute_fp8(self, autotune=0, **tune):
        from . import numpy as tnp

        a, b = self.a, self.b
        m, n, k = a.shape[0], b.shape[1], a.shape[1]
        if not a.is_cuda:  # the host: float32 products of the float8 values
            r = self.alpha * (a.float().numpy() @ b.float().numpy())
            if self.bias is not None:
                r = r + self.bias.astype("float32").get()
            r = _np.maximum(r, 0) if self.epilog.startswith("relu") else _gelu(r) if self.epilog.startswith("gelu") \
                else r
            return tnp.asarray(r.astype(_np.float32), device="cpu").astype(self.out_dtype)
        dev = a.device.index or 0
        item = tnp.dtype(self.out_dtype).itemsize if self.out_dtype != "bfloat16" else 2
        ldd = -(-n * item // 16) * 16 // item
        d = tnp.empty((m, ldd), self.out_dtype, device=tnp.Device("cuda", dev))
        d._prepare_write()
        bias = tnp.ascontiguousarray(self.bias) if self.bias is not None else None
        timings = tnp._core._tegula.cublaslt_matmul(
            device=dev, in_dtype=self.fp8, out_dtype=self.out_dtype, m=m, n=n, k=k, batch=1, trans_a=False,
            trans_b=True, a=a.data_ptr(), lda=k, stride_a=0, b=b.data_ptr(), ldb=k, stride_b=0, d=d._data_ptr,
            ldd=ldd, stride_d=m * ldd, c=0, ldc=ldd, stride_c=0, alpha=self.alpha, beta=0.0, epilog=self.epilog,
            bias=bias._data_ptr if bias is not None else 0, aux=0, tf32=False,
            sm_count=self.sm_count, **({"autotune": autotune, **tune} if autotune else {}))
        if autotune:
            return list(timings)
        return d if ldd == n else d[:, :n]

    def plan(self):
        if self.fp8:
            return self._plan_fp8()
        a, b = self.a, self.b
        if a.ndim < 2 or b.ndim < 2:
            raise ValueError("tegula.math.matmul takes matrices (or batches of them); use tegula.numpy.matmul for "
                             "vectors")
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(f"matmul: a {tuple(a.shape)} and b {tuple(b.shape)} differ in the contracted dimension "
                             f"({a.shape[-1]} vs {b.shape[-2]})")
        if a.dtype != b.dtype:
            raise TypeError(f"matmul: a and b must have one dtype, got {a.dtype} and {b.dtype}")
        if a._dtype_name not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(f"tegula.math.matmul takes float16, bfloat16, float32 or float64, got {a.dtype}")
        if self.bias is not None and tuple(self.bias.shape) != (b.shape[-1],):
            raise ValueError(f"bias must have shape ({b.shape[-1]},), got {tuple(self.bias.shape)}")
        self.batch = tuple(_np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        self.shape = self.batch + (a.shape[-2], b.shape[-1])
        if self.c is not None and tuple(_np.broadcast_shapes(self.c.shape, self.shape)) != self.shape:
            raise ValueError(f"c of shape {tuple(self.c.shape)} does not broadcast to the result {self.shape}")
        self._planned = True
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
        if search not in ("heuristic", "wide"):
            raise ValueError(f"autotune search must be 'heuristic' or 'wide', got {search!r}")
        if int(candidates) < 1 or int(repeats) < 1 or int(max_configs) < 1:
            raise ValueError("autotune needs candidates, repeats and max_configs >= 1")
        if not self._planned:
            self.plan()
        tune = dict(autotune=int(candidates), repeats=int(repeats), search=search, max_configs=int(max_configs))
        if self.fp8:
            found = self._execute_fp8(**tune) if self.a.is_cuda else []
        elif self.a._device_id < 0:
            found = []
        else:
            found = self._device(**tune)
        self.timings = [(rank, ms) for rank, ms, _, _, _, final in found if final]
        self.configs = {rank: config for rank, _, _, config, _, final in found if final}
        self.kept = next(((rank, config) for rank, _, _, config, kept, _ in found if kept), None)
        self.screened = len(found)
        self.screen = sorted(((rank, ms, ratio, config) for rank, ms, ratio, config, _, _ in found if ratio > 0),
                             key=lambda x: x[2])
        return self

    def execute(self):
        """Runs the product; NumPy operands get NumPy results (copied back), others tegula arrays."""
        fast = self._fast
        if fast is not None:  # the common case, prepared by the first call: one allocation and the library call
            call, before, after, empty, shape, dtype, dev = fast
            d = empty(shape, dtype, dev)  # new memory: nothing pending reads it
            call(*before, d._data_ptr, *after)
            return d
        if not self._planned:
            self.plan()
        if self.fp8:
            return self._execute_fp8()
        r = self._host() if self.a._device_id < 0 else self._device()
        if not self.host_result:
            return r
        return tuple(x.get() for x in r) if isinstance(r, tuple) else r.get()

    def _host(self):
        from . import numpy as tnp

        f = _np.float32 if self.a._dtype_name == "bfloat16" else None
        get = (lambda x: x.astype("float32").get()) if f else (lambda x: x.get())
        r = self.alpha * _np.matmul(get(self.a), get(self.b))
        if self.c is not None and self.beta:
            r = r + self.beta * get(self.c)
        if self.bias is not None:
            r = r + get(self.bias)
        aux = r if "aux" in self.epilog else None
        if self.epilog.startswith("relu"):
            r = _np.maximum(r, 0)
        elif self.epilog.startswith("gelu"):
            r = _gelu(r)
        name = self.a._dtype_name
        out = tnp.asarray(r.astype(_np.float32 if f else name), device="cpu")
        out = out.astype(name) if f else out
        if aux is not None:
            ax = tnp.asarray(aux.astype(_np.float32 if f else name), device="cpu")
            return out, (ax.astype(name) if f else ax)
        return out

    def _device(self, autotune=0, **tune):
        from . import numpy as tnp

        a, b, rt = self.a, self.b, self.a._dtype_name
        m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
        count = _m.prod(self.batch) if self.batch else 1
        lib = tnp._core._tegula
        xa, ta, lda, sa, copied_a = lib.gemm_operand(a, list(self.batch), m, k)  # cpp/tegula/libs/matmul_arrays.hpp
        xb, tb, ldb, sb, copied_b = lib.gemm_operand(b, list(self.batch), k, n)
        pa, pb = xa._data_ptr, xb._data_ptr
        as_they_lie = not (copied_a or copied_b) and xa.shape == a.shape and xb.shape == b.shape
        item = a.itemsize
        ldd = -(-n * item // 16) * 16 // item
        d = tnp.empty(self.batch + (m, ldd), rt, device=tnp.Device("cuda", a._device_id))
        d._prepare_write()
        c_ptr, ldc, sc = 0, ldd, m * ldd
        if self.c is not None and self.beta:
            cc = tnp.empty(self.batch + (m, ldd), rt, device=tnp.Device("cuda", a._device_id))
            cc[..., :n] = self.c
            c_ptr = cc._data_ptr
        aux = None
        if "aux" in self.epilog:
            aux = tnp.empty(self.batch + (m, ldd), rt, device=tnp.Device("cuda", a._device_id))
            aux._prepare_write()
        bias = tnp.ascontiguousarray(self.bias) if self.bias is not None else None
        timings = tnp._core._tegula.cublaslt_matmul(
            device=a._device_id, in_dtype=rt, out_dtype=rt, m=m, n=n, k=k, batch=count, trans_a=ta, trans_b=tb,
            a=pa, lda=lda, stride_a=sa, b=pb, ldb=ldb, stride_b=sb, d=d._data_ptr, ldd=ldd, stride_d=m * ldd,
            c=c_ptr, ldc=ldc, stride_c=sc, alpha=self.alpha, beta=self.beta if c_ptr else 0.0, epilog=self.epilog,
            bias=bias._data_ptr if bias is not None else 0, aux=aux._data_ptr if aux is not None else 0,
            tf32=self.allow_tf32, sm_count=self.sm_count, **({"autotune": autotune, **tune} if autotune else {}))
        if autotune:
            return list(timings)
        if as_they_lie and ldd == n and not c_ptr and aux is None \
                and (bias is None or bias._data_ptr == self.bias._data_ptr) \
                and not self.host_result:
            # Nothing was copied: later calls pass the same pointers, so they skip this preparation (tens of
            # microseconds of Python, which a product timed from an idle GPU pays in full).
            args = (a._device_id, rt, rt, m, n, k, count, ta, tb, pa, lda, sa, pb, ldb, sb)
            rest = (ldd, m * ldd, 0, ldc, sc, self.alpha, 0.0, self.epilog, bias._data_ptr if bias is not None else 0,
                    0, self.allow_tf32)
            lib = tnp._core._tegula
            call = _functools.partial(lib.cublaslt_matmul, sm_count=self.sm_count) if self.sm_count \
                else lib.cublaslt_matmul
            self._fast = (call, args, rest, lib.array_empty, self.shape, rt, a._device_id)
        del xa, xb
        out = d if ldd == n else d[..., :n]
        if aux is not None:
            return out, (aux if ldd == n else aux[..., :n])
        return out


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


def _float8_name(x):
    """'float8_e4m3fn' / 'float8_e5m2' for a torch float8 tensor, else None."""
    if not type(x).__module__.startswith("torch"):
        return None
    name = str(getattr(x, "dtype", "")).replace("torch.", "")
    return name if name in ("float8_e4m3fn", "float8_e5m2") else None
