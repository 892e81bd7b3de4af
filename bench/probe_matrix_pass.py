"""The matrix pass (libs/matrix_pass.hpp) against cuBLASLt (the route tegula.numpy took before) and CuPy at NPBench's
paper sizes: bicg's pair r @ A, A @ p (18000 x 22000 float64), each product alone, mvt's A @ y1 and y2 @ A (16000^2),
mlp's (8, 30000) @ (30000, 10000) float32; best of 10, outputs forced and synchronised; GB/s counts the matrix read
once per call. A diagnostic for the route's threshold and for whether a lone product should take the pass:
    python3 bench/probe_matrix_pass.py
"""
from __future__ import annotations

import os
import sys
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from probe_matvec import best_ms  # noqa: E402


def main():
    import cupy as cp

    import tegula.core as tc
    import tegula.numpy as tnp
    from tegula import _tegula
    from tegula.numpy import _matmul

    dev = tc.Device(0)
    tnp.background_compile(False)
    csync = cp.cuda.Device().synchronize
    rng = np.random.default_rng(5)
    on = 64 << 20  # the route's size (TEGULA_MATRIX_PASS=1 turns it on by default)
    lone = _tegula.set_lone_matrix_pass(True)
    _tegula.set_lone_matrix_pass(lone)

    def force(*xs):
        for x in xs:
            x._materialize()

    def row(label, fn, cfn, gb):
        _matmul._PASS_MIN_BYTES = on
        _tegula.set_lone_matrix_pass(True)  # a lone product takes the pass too (the pair always does)
        tp_ = best_ms(fn, dev.sync)
        kernel = _tegula.matrix_pass_last()[0]
        _matmul._PASS_MIN_BYTES = 1 << 62  # cuBLASLt, as before the pass
        tl = best_ms(fn, dev.sync)
        _matmul._PASS_MIN_BYTES = on
        _tegula.set_lone_matrix_pass(False)  # the library node's lone route: cuBLASLt from C++ (a pair: the pass)
        tn = best_ms(fn, dev.sync)
        _tegula.set_lone_matrix_pass(lone)
        tcu = best_ms(cfn, csync)
        print(f"  {label:34s} pass {tp_:8.3f} ms {gb / tp_ * 1e3:6.0f} GB/s ({kernel})  cuBLASLt {tl:8.3f} ms "
              f"{gb / tl * 1e3:6.0f} GB/s  node lone-off {tn:8.3f} ms  cupy {tcu:8.3f} ms   pass x cuBLASLt "
              f"{tl / tp_:5.2f}  x cupy {tcu / tp_:5.2f}",
              flush=True)

    for n, m, dt in ((18000, 22000, np.float64), (16000, 16000, np.float64), (16000, 32000, np.float32)):
        A = rng.standard_normal((n, m)).astype(dt)
        p, r = rng.standard_normal(m).astype(dt), rng.standard_normal(n).astype(dt)
        tA, tp, tr = tnp.asarray(A), tnp.asarray(p), tnp.asarray(r)
        cA, cp_, cr = cp.asarray(A), cp.asarray(p), cp.asarray(r)
        gb = A.nbytes / 1e9
        got = (tr @ tA).get()
        err = np.abs(got - r.astype(np.float64) @ A.astype(np.float64)).max()
        print(f"A {n}x{m} {np.dtype(dt).name} ({gb:.2f} GB), max |r @ A - NumPy| {err:.2e}")
        row("A @ p", lambda: force(tA @ tp), lambda: cA @ cp_, gb)
        row("r @ A", lambda: force(tr @ tA), lambda: cr @ cA, gb)
        row("pair (r @ A, A @ p)", lambda: force(tr @ tA, tA @ tp), lambda: (cr @ cA, cA @ cp_), gb)
        del tA, cA
    W = rng.standard_normal((30000, 10000)).astype(np.float32)
    X = rng.standard_normal((8, 30000)).astype(np.float32)
    tW, tX, cW, cX = tnp.asarray(W), tnp.asarray(X), cp.asarray(W), cp.asarray(X)
    err = np.abs((tX @ tW).get() - X.astype(np.float64) @ W.astype(np.float64)).max()
    print(f"mlp (8, 30000) @ (30000, 10000) float32 ({W.nbytes / 1e9:.2f} GB), max error {err:.2e}")
    row("X @ W", lambda: force(tX @ tW), lambda: cX @ cW, W.nbytes / 1e9)
    _matmul._NARROW_PASS = False
    row("X @ W (narrow pass off: both cuBLASLt)", lambda: force(tX @ tW), lambda: cX @ cW, W.nbytes / 1e9)
    _matmul._NARROW_PASS = True


if __name__ == "__main__":
    main()
