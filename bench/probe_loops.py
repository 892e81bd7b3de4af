"""Where the time of NPBench's Python-loop programs goes (#24: "measure where each operation's time goes"). Per
program, after a first call (compiles): one call under tegula.profile (launches sampled: timing every launch would
slow a launch-bound loop) with the engine's phase counters around it, and one plain call, which give
  wall ms        the plain call, outputs forced
  launches       kernels (array engine, tile kernels, copies) and library calls
  reads          device-to-host copies (each one a synchronisation the host waits for)
  kernel ms      the profiled kernels' GPU time (sampled: mean of timed launches x calls); on the CPU the
                 interpreter's runs of them
  host us/op     (wall - kernel) / launches: what the host spends per operation beyond the kernels' work, split
                 into the engine's plan / lookup / launch phases (tegula.numpy.kernel_stats) and the rest
                 (Python, recording the graph, allocation, waits)
and CuPy's wall ms for the same program (NPBench's own version, same inputs) beside it. A diagnostic, not a
benchmark (on the CPU interpreter too, where host costs are the same code's):
    python3 bench/probe_loops.py [PRESET] [names,...]
With TEGULA_PROBE_TABLE=N, each program's profile table follows its line (its N largest rows).
"""
from __future__ import annotations

import os
import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import npbench_suite as suite  # noqa: E402

LOOPS = ("lu,ludcmp,cholesky,seidel_2d,nussinov,crc16,symm,syr2k,syrk,trmm,spmv,scattering_self_energies,"
         "durbin,trisolv,gramschmidt,correlation,covariance,adi,channel_flow")


def _wall(program, fw, data, copy, force):
    fn = program.implementation(fw)
    args = program.arguments(data, copy)
    force(args)
    t = time.perf_counter()
    out = program.outputs(fn(*args), args)
    force(out)
    return time.perf_counter() - t


def main():
    import tegula
    import tegula.core as tc
    import tegula.numpy as tnp

    preset = sys.argv[1] if len(sys.argv) > 1 else "S"
    names = (sys.argv[2] if len(sys.argv) > 2 else LOOPS).split(",")
    try:
        dev = tc.Device(0)
    except Exception:  # noqa: BLE001 - no GPU: the CPU interpreter (a check of this script, not a measurement)
        dev = None

    def force_t(outs):
        for o in outs:
            if isinstance(o, tnp.ndarray):
                o._materialize()
        if dev is not None:
            dev.sync()

    try:
        import cupy as cp

        force_c = lambda outs: cp.cuda.Device().synchronize()  # noqa: E731
    except Exception:  # noqa: BLE001
        cp = None
    print(f"preset {preset}; {'GPU' if dev is not None else 'CPU interpreter'}")
    print(f"{'program':26s} {'wall ms':>9} {'launches':>9} {'reads':>6} {'kernel ms':>9} {'host us/op':>10} "
          f"{'plan':>6} {'lookup':>6} {'launch':>6} {'rest':>6} {'cupy ms':>9} {'tegula adv':>10}")
    for name in names:
        program = suite.Program(name)
        try:
            data = program.data(preset)
            _wall(program, "tegula", data, tnp.asarray, force_t)  # compiles
            before = tnp.kernel_stats()
            with tegula.profile(time_every=16) as p:
                profiled = _wall(program, "tegula", data, tnp.asarray, force_t)
            after = tnp.kernel_stats()
            wall = _wall(program, "tegula", data, tnp.asarray, force_t)
            rows = p.summary()
            launches = sum(r["calls"] for r in rows if r["kind"] in ("launch", "library", "interpret"))
            kernel = sum(r["total_us"] for r in rows if r["kind"] in ("launch", "library", "interpret")
                         and (r["gpu_timed"] or r["kind"] == "interpret")) / 1e3
            reads = sum(1 for r in p.copies if r.name == "d2h")
            n = max(launches, 1)
            host = (wall * 1e3 - kernel) * 1e3 / n
            phase = {k: (after[k] - before[k]) / 1e3 / n for k in ("plan_ns", "lookup_ns", "launch_ns")}
            rest = (profiled * 1e3 - kernel) * 1e3 / n - sum(phase.values())
            cupy = None
            if cp is not None:
                _wall(program, "cupy", data, cp.asarray, force_c)
                cupy = _wall(program, "cupy", data, cp.asarray, force_c)
            adv = f"{cupy / wall:9.2f}x" if cupy else ""
            print(f"{name:26s} {wall * 1e3:9.2f} {launches:9d} {reads:6d} {kernel:9.2f} {host:10.2f} "
                  f"{phase['plan_ns']:6.2f} {phase['lookup_ns']:6.2f} {phase['launch_ns']:6.2f} {rest:6.2f} "
                  f"{(cupy or 0) * 1e3:9.2f} {adv:>10}", flush=True)
            if int(os.environ.get("TEGULA_PROBE_TABLE", "0")):
                print("    " + p.table(limit=int(os.environ["TEGULA_PROBE_TABLE"])).replace("\n", "\n    "), flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"{name:26s} FAILED {type(e).__name__}: {str(e)[:120]}", flush=True)


if __name__ == "__main__":
    main()
