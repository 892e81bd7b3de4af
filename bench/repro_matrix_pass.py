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
sys.exit(0)
