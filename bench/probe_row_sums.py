"""Where the engine's row and column sums of a large matrix lose bandwidth: A.sum(1) and A.sum(0) of float64 and
float32 matrices around 2^31 bytes and with several row lengths, against CuPy; best of 10, forced and synchronised
(session 25's first call: A.sum(1) at 16000^2 float64 ran at 2699 GB/s, at 22000 x 18000 at 1238):
    python3 bench/probe_row_sums.py
"""
from __future__ import annotations

import os
import sys
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from probe_matvec import best_ms  # noqa: E402

SHAPES = ((16000, 16000, "float64"), (16000, 18000, "float64"), (22000, 16000, "float64"),
          (20000, 20000, "float64"), (22000, 18000, "float64"), (8000, 64000, "float64"), (64000, 8000, "float64"),
          (22000, 18000, "float32"), (32000, 32000, "float32"))


def main():
    import cupy as cp

    import tegula.core as tc
    import tegula.numpy as tnp

    dev = tc.Device(0)
    tnp.background_compile(False)  # every timed run is the fused kernel, never the array VM's first runs
    csync = cp.cuda.Device().synchronize
    print(f"{'shape':>22s} {'GB':>5s}  {'sum(1) ms':>9s} {'GB/s':>6s} {'vs cupy':>7s}   {'sum(0) ms':>9s} {'GB/s':>6s} "
          f"{'vs cupy':>7s}")
    for n, m, d in SHAPES:
        cA = cp.random.random((n, m), dtype=d) - 0.5  # fresh random data made on the GPU (host generation is slow)
        gb = cA.nbytes / 1e9
        tA = tnp.asarray(cA)
        row = []
        for axis in (1, 0):
            t = best_ms(lambda: tA.sum(axis)._materialize(), dev.sync)
            c = best_ms(lambda: cA.sum(axis), csync)
            # against the float64 sum, within a few float32 (float64) units of the sum of magnitudes
            ref, bound = cA.astype("float64").sum(axis), cp.abs(cA).astype("float64").sum(axis)
            eps = 1e-6 if d == "float32" else 1e-14
            same = bool((cp.abs(cp.asarray(tA.sum(axis)).astype("float64") - ref) <= 8 * eps * bound).all())
            row.append(f"{t:9.3f} {gb / t * 1e3:6.0f} {c / t:6.2f}x{'' if same else ' WRONG'}")
        print(f"{str((n, m)) + ' ' + d:>22s} {gb:5.2f}  {row[0]}   {row[1]}", flush=True)
        del tA, cA
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
