"""A small run of the matrix pass on the GPU, step by step (lone products, a pair, a narrow product), printing each
step before it runs: a first look when the pass misbehaves (run it under cuda-gdb for a host backtrace)."""
import sys

import numpy as np

import tegula.numpy as tnp
from tegula import _tegula
from tegula.numpy import _matmul

_matmul._PASS_MIN_BYTES = 0
rng = np.random.default_rng(1)
A = rng.standard_normal((512, 1024))
p, r = rng.standard_normal(1024), rng.standard_normal(512)
tA, tp, tr = tnp.asarray(A), tnp.asarray(p), tnp.asarray(r)
for lone in (True, False):
    _tegula.set_lone_matrix_pass(lone)
    print("lone pass", lone, "A @ p", flush=True)
    y = (tA @ tp).get()
    print("  ", _tegula.matrix_pass_last(), np.abs(y - A @ p).max(), flush=True)
    print("lone pass", lone, "r @ A", flush=True)
    z = (tr @ tA).get()
    print("  ", _tegula.matrix_pass_last(), np.abs(z - r @ A).max(), flush=True)
print("pair", flush=True)
y, z = tr @ tA, tA @ tp
yv = y.get()
print("  ", _tegula.matrix_pass_last(), np.abs(yv - r @ A).max(), np.abs(z.get() - A @ p).max(), flush=True)
# session 26's graphs in parts (tests/gpu/test_gpu_vm.py): 30 arrays read, more than a VM program takes
_tegula.set_array_vm_mode("always")
xs = [rng.standard_normal(3000) for _ in range(30)]
before = tnp.kernel_stats()["vm_launches"]
acc = None
for i, x in enumerate(xs):
    term = tnp.asarray(x) * (i + 1.0)
    acc = term if acc is None else acc + tnp.sin(term)
acc.get()
print("30 arrays, VM always:", tnp.kernel_stats()["vm_launches"] - before, "VM launches;", _tegula.array_last_run(),
      flush=True)
sys.exit(0)
