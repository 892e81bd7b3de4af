"""Host cost of vector-matrix products whose shape changes every call (correlation's and covariance's loops:
`data[:, i] @ data[:, i + 1:M]`, a new n each iteration). Per call, in microseconds of wall time with the GPU kept
busy only by these calls (synchronised once per pass): tegula.numpy's x @ B (cuBLASLt, one plan per shape), the
same with one fixed shape, cuBLASLt called directly (both), the array engine's fused (x[:, None] * B).sum(0), and
CuPy's x @ B. A diagnostic:
    python3 bench/probe_gemv_host.py [K] [M]
"""
from __future__ import annotations

import sys
import time

import numpy as np


def main():
    k = int(sys.argv[1]) if len(sys.argv) > 1 else 1400
    m = int(sys.argv[2]) if len(sys.argv) > 2 else 1200
    import tegula.core as tc
    import tegula.numpy as tnp

    tnp.background_compile(False)
    dev = tc.Device(0)
    host = np.random.default_rng(1).random((k, m))
    libs = {"tegula": (tnp, dev.sync)}
    try:
        import cupy as cp

        libs["cupy"] = (cp, cp.cuda.Device().synchronize)
    except Exception as e:  # noqa: BLE001
        print("cupy not available:", e)
    for name, (xp, sync) in libs.items():
        data = xp.asarray(host)
        cases = {"x @ B, n changes": lambda i: data[:, i] @ data[:, i + 1:m],
                 "x @ B, n fixed": lambda i: data[:, i] @ data[:, m // 2:m]}
        if name == "tegula":
            from tegula.numpy import _matmul

            def lt(i, fixed=False):
                j = m // 2 if fixed else i + 1
                return _matmul._blas(data[:, i].reshape(1, k), data[:, j:m], (), 1, m - j, k, "float64").reshape(m - j)

            cases["cuBLASLt x @ B, n changes"] = lt
            cases["cuBLASLt x @ B, n fixed"] = lambda i: lt(i, True)
            cases["(x[:,None]*B).sum(0), n changes"] = lambda i: (data[:, i, None] * data[:, i + 1:m]).sum(0)
        for label, f in cases.items():
            for _ in range(2):
                outs = []
                sync()
                t = time.perf_counter()
                for i in range(m - 1):
                    r = f(i)
                    if name == "tegula":
                        r._materialize()
                    outs.append(r)
                sync()
                dt = time.perf_counter() - t
            ref = host[:, 5] @ host[:, (m // 2 if "fixed" in label else 6):m]
            got = np.asarray(outs[5].get() if name == "cupy" else outs[5])
            err = float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))
            print(f"{name:7s} {label:34s} {dt / (m - 1) * 1e6:8.2f} us/call  (rel err {err:.1e})", flush=True)


if __name__ == "__main__":
    main()
