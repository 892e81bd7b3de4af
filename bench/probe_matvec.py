"""Matrix-vector products on the GPU: the array engine's fused multiply-and-sum (_matmul._matrix_vector, called
directly: tegula.numpy runs it for A @ x only where A is pending) against cuBLASLt and CuPy, on NPBench's shapes
(gesummv, mvt, atax) and one float32 square. Best of 10 after warm-up, each forced and synchronised; GB/s of the
matrix read once. A diagnostic behind _matmul._rows_reduce's rule:
    python3 bench/probe_matvec.py
"""
from __future__ import annotations

import time
import warnings

warnings.simplefilter("ignore")

import numpy as np  # noqa: E402


def best_ms(fn, sync, reps=10):
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return min(ts) * 1e3


def main():
    import tegula.core as tc
    import tegula.numpy as tnp
    from tegula.numpy import _matmul as M

    dev = tc.Device(0)
    try:
        import cupy as cp
    except Exception:  # noqa: BLE001
        cp = None
    rng = np.random.default_rng(3)
    print(f"{'case':34s} {'engine ms':>10} {'cuBLASLt ms':>12} {'cupy ms':>9} {'engine GB/s':>12} {'vs cuBLASLt':>12} "
          f"{'vs cupy':>8}")
    for m, k, dt in ((4000, 4000, "float64"), (11000, 11000, "float64"), (5000, 4000, "float64"),
                     (16384, 16384, "float32"), (2000, 60000, "float32")):
        A = rng.standard_normal((m, k)).astype(dt)
        x = rng.standard_normal(k).astype(dt)
        tA, tx = tnp.asarray(A), tnp.asarray(x)
        ref = A.astype(np.float64) @ x.astype(np.float64)
        for label, eng, lib, cup in (
                ("A @ x", lambda: M._matrix_vector(tA, tx, dt),
                 lambda: M._blas(tA, tx.reshape(k, 1), (), m, 1, k, dt), "A @ x"),
                ("(2 * A) @ x", lambda: M._matrix_vector(2.0 * tA, tx, dt),
                 lambda: M._blas((2.0 * tA)._contiguous(), tx.reshape(k, 1), (), m, 1, k, dt), "(2 * A) @ x")):
            got = eng().get()
            err = np.abs(got * (0.5 if label.startswith("(2") else 1.0) - ref).max() / np.abs(ref).max()
            te = best_ms(lambda: eng()._materialize(), dev.sync)
            tl = best_ms(lambda: lib()._materialize(), dev.sync)
            tcp = None
            if cp is not None:
                cA, cx = cp.asarray(A), cp.asarray(x)
                f = (lambda: cA @ cx) if cup == "A @ x" else (lambda: (2.0 * cA) @ cx)
                tcp = best_ms(f, cp.cuda.Device().synchronize)
            gbs = A.nbytes / (te * 1e-3) / 1e9
            print(f"{label + f' {m}x{k} {dt}':34s} {te:10.3f} {tl:12.3f} {tcp or 0:9.3f} {gbs:12.0f} "
                  f"{tl / te:11.2f}x {(tcp / te if tcp else 0):7.2f}x  (max rel err {err:.1e})", flush=True)


if __name__ == "__main__":
    main()
