"""Two products over one matrix, as NPBench's bicg (r @ A and A @ p, A (22000, 18000) float64) and mvt (A @ y1 and
y2 @ A, A 16000^2) write them: each product alone and the pair, through tegula.numpy's matmul (cuBLASLt), through
the array engine's reductions ((A * p).sum(1), (r[:, None] * A).sum(0)) and through CuPy; best of 10, forced and
synchronised; GB/s counts A read once. A diagnostic for reading A once for both:
    python3 bench/probe_matvec_pairs.py
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
    import tegula.core as tc
    import tegula.numpy as tnp

    dev = tc.Device(0)
    tnp.background_compile(False)  # every timed run is the fused kernel, never the array VM's first runs
    import cupy as cp

    csync = cp.cuda.Device().synchronize
    rng = np.random.default_rng(5)
    for n, m in ((22000, 18000), (16000, 16000)):
        A = rng.standard_normal((n, m))
        p, r = rng.standard_normal(m), rng.standard_normal(n)
        tA, tp, tr = tnp.asarray(A), tnp.asarray(p), tnp.asarray(r)
        cA, cp_, cr = cp.asarray(A), cp.asarray(p), cp.asarray(r)
        gb = A.nbytes / 1e9

        def force(*xs):
            for x in xs:
                x._materialize()

        cases = {
            "A @ p": (lambda: force(tA @ tp), lambda: cA @ cp_),
            "r @ A": (lambda: force(tr @ tA), lambda: cr @ cA),
            "pair (r @ A, A @ p)": (lambda: force(tr @ tA, tA @ tp), lambda: (cr @ cA, cA @ cp_)),
            "engine (A * p).sum(1)": (lambda: force((tA * tp).sum(1)), None),
            "engine (r[:, None] * A).sum(0)": (lambda: force((tr[:, None] * tA).sum(0)), None),
            "engine A.sum(0)": (lambda: force(tA.sum(0)), lambda: cA.sum(0)),
            "engine A.sum(1)": (lambda: force(tA.sum(1)), lambda: cA.sum(1)),
            "copy A": (lambda: force(tA.copy()), lambda: cA.copy()),
        }
        print(f"A {n}x{m} float64 ({gb:.2f} GB)")
        for label, (t, c) in cases.items():
            tt_ = best_ms(t, dev.sync)
            tc_ = best_ms(c, csync) if c else 0.0
            ratio = f"{tc_ / tt_:6.2f}x" if c else ""
            print(f"  {label:32s} tegula {tt_:8.3f} ms {gb / tt_ * 1e3:7.0f} GB/s   cupy {tc_:8.3f} ms  {ratio}",
                  flush=True)
        del tA, cA


if __name__ == "__main__":
    main()
