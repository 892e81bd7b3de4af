"""A few rows times a large matrix on the GPU: libs/narrow_product.hpp (what tegula.numpy's matmul takes for m <= 16
and a row-major B of 4 MiB or more) against cuBLASLt (the same product with the rule off), CuPy and torch, on
NPBench's shapes (mlp's layers, bicg's and mvt's x @ A, atax's second product). Best of 10 after warm-up, forced and
synchronised; GB/s of B read once. A diagnostic behind _matmul._narrow's rule:
    python3 bench/probe_narrow.py
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
    try:
        import torch
    except Exception:  # noqa: BLE001
        torch = None
    rng = np.random.default_rng(3)
    cases = [("mlp x @ w2 (8,30000)@(30000,10000) f32", 8, 30000, 10000, np.float32),
             ("mlp x @ w3 (8,10000)@(10000,1000) f32", 8, 10000, 1000, np.float32),
             ("bicg r @ A (18000)@(18000,22000) f64", 1, 18000, 22000, np.float64),
             ("mvt y @ A (16000)@(16000,16000) f64", 1, 16000, 16000, np.float64),
             ("4 rows (4,16384)@(16384,16384) f32", 4, 16384, 16384, np.float32),
             ("16 rows (16,8192)@(8192,8192) f64", 16, 8192, 8192, np.float64)]
    print(f"{'case':42s} {'narrow':>8} {'cuBLASLt':>9} {'cupy':>8} {'torch':>8} {'GB/s':>7} {'x cuBLASLt':>10} "
          f"{'x cupy':>7} {'x torch':>7}  max rel err")
    for name, m, k, n, dt in cases:
        a = rng.standard_normal((m, k)).astype(dt)
        b = rng.standard_normal((k, n)).astype(dt)
        ta, tb = tnp.asarray(a), tnp.asarray(b)
        a1 = ta[0] if m == 1 else ta

        def ours():
            (a1 @ tb)._materialize()

        t_n = best_ms(ours, dev.sync)
        keep = M._NARROW_MIN_BYTES
        M._NARROW_MIN_BYTES = 1 << 62
        t_l = best_ms(ours, dev.sync)
        M._NARROW_MIN_BYTES = keep
        got = (a1 @ tb).get()
        ref = (a[0] if m == 1 else a).astype(np.float64) @ b.astype(np.float64)
        err = float(np.abs(got - ref).max() / np.abs(ref).max())
        t_c = t_t = float("nan")
        if cp is not None:
            ca, cb = cp.asarray(a[0] if m == 1 else a), cp.asarray(b)
            t_c = best_ms(lambda: ca @ cb, cp.cuda.Device().synchronize)
            del ca, cb
        if torch is not None:
            qa, qb = torch.as_tensor(a[0] if m == 1 else a, device="cuda"), torch.as_tensor(b, device="cuda")
            t_t = best_ms(lambda: qa @ qb, torch.cuda.synchronize)
            del qa, qb
        gbs = b.nbytes / t_n / 1e6
        print(f"{name:42s} {t_n:8.3f} {t_l:9.3f} {t_c:8.3f} {t_t:8.3f} {gbs:7.0f} {t_l / t_n:10.2f} {t_c / t_n:7.2f} "
              f"{t_t / t_n:7.2f}  {err:.1e}")


if __name__ == "__main__":
    main()
