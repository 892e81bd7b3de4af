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
"""
from __future__ import annotations

import math as _m

import numpy as _np

EPILOGS = ("none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "relu_aux", "relu_aux_bias", "gelu_aux",
           "gelu_aux_bias")


def _gelu(x):
    return 0.5 * x * (1.0 + _np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


class Matmul:
    """A planned product D = alpha * a @ b + beta * c with an epilogue, for repeated execution on new data of the
    same shapes: plan() checks the problem, execute() runs it (cuBLASLt caches the algorithm per shape)."""

    def __init__(self, a, b, c=None, *, alpha=1.0, beta=0.0, epilog=None, bias=None, allow_tf32=False):
        from . import numpy as tnp

        self.epilog = epilog or ("bias" if bias is not None else "none")
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

    def plan(self):
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

    def autotune(self, candidates=8, repeats=5):
        """Times up to `candidates` of cuBLASLt's proposed algorithms on these operands (`repeats` runs each; the
        output is overwritten) and keeps the fastest for this problem shape, so execute() and every later product
        of the same shape use it. `self.timings` holds [(heuristic rank, ms per run)], -1 for an algorithm that
        refused. Host arrays have nothing to tune. Returns self."""
        if not self._planned:
            self.plan()
        if self.a._device_id < 0:
            self.timings = []
            return self
        self.timings = self._device(autotune=int(candidates), repeats=int(repeats))
        return self

    def execute(self):
        """Runs the product; NumPy operands get NumPy results (copied back), others tegula arrays."""
        if not self._planned:
            self.plan()
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

    def _device(self, autotune=0, repeats=5):
        from . import numpy as tnp
        from .numpy import _matmul as M

        a, b, rt = self.a, self.b, self.a._dtype_name
        m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
        count = _m.prod(self.batch) if self.batch else 1
        xa, pa, ta, lda, sa = M._operand(a, self.batch, m, k)
        xb, pb, tb, ldb, sb = M._operand(b, self.batch, k, n)
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
            tf32=self.allow_tf32, **({"autotune": autotune, "repeats": repeats} if autotune else {}))
        if autotune:
            return list(timings)
        del xa, xb
        out = d if ldd == n else d[..., :n]
        if aux is not None:
            return out, (aux if ldd == n else aux[..., :n])
        return out


def matmul(a, b, c=None, *, alpha=1.0, beta=0.0, epilog=None, bias=None, allow_tf32=False):
    """alpha * a @ b + beta * c, then the epilogue (bias added, relu/gelu applied; *_aux forms also return the
    pre-activation), in one library call on the GPU."""
    return Matmul(a, b, c, alpha=alpha, beta=beta, epilog=epilog, bias=bias, allow_tf32=allow_tf32).execute()
