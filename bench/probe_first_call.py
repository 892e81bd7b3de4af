"""Where an NPBench program's first call goes (#26): each program in a new process with an empty TEGULA_CACHE_DIR,
its first call under tegula.profile (JIT compiles with their host time, library calls, launches; runs on the array
VM and compiles left to the background), then, after waiting for those compiles, a second call; prints wall of
both, the compiles' count and total, the five slowest, the rest of the first call and the wait.
    python3 bench/probe_first_call.py PRESET name[,name...]
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile

CHILD = r'''
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, os.path.join(sys.argv[3], "bench"))
t0 = time.perf_counter()
import tegula, tegula.core as tc, tegula.numpy as tnp
import npbench_suite as suite
t_import = time.perf_counter() - t0
prog = suite.Program(sys.argv[2]); data = prog.data(sys.argv[1]); fn = prog.implementation("tegula")
dev = tc.Device(0)
def call():
    args = prog.arguments(data, tnp.asarray)
    for a in args:
        if isinstance(a, tnp.ndarray): a._materialize()
    dev.sync()
    t = time.perf_counter()
    out = prog.outputs(fn(*args), args)
    for o in out:
        if isinstance(o, tnp.ndarray): o._materialize()
    dev.sync()
    return time.perf_counter() - t
s0 = tnp.kernel_stats()
with tegula.profile() as p:
    first = call()
s1 = tnp.kernel_stats()
t = time.perf_counter()
tnp.wait_for_compiles()
waited = time.perf_counter() - t
second = call()
comp = sorted(((r.host_us, r.name, r.detail) for r in p.compiles), reverse=True)
lib = sum(r.host_us for r in p.records if r.kind == "library")
print(json.dumps({"import": t_import, "first": first, "second": second, "compiles": len(comp),
                  "compile_s": sum(c[0] for c in comp) / 1e6, "library_s": lib / 1e6,
                  "slowest": [(round(c[0] / 1e3, 1), c[1], c[2]) for c in comp[:5]],
                  "launches": len(p.launches), "waited": waited,
                  "vm": s1["vm_launches"] - s0["vm_launches"], "background": s1["background_starts"] - s0["background_starts"]}))
'''


def main():
    preset, names = sys.argv[1], sys.argv[2].split(",")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print(f"{'program':22s} {'first s':>8} {'second s':>9} {'compiles':>8} {'compile s':>9} {'library s':>9} "
          f"{'rest s':>7} {'vm runs':>7} {'bg':>4} {'waited s':>8}  slowest compiles (ms)")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="tegula-first-") as cache:
            env = dict(os.environ, TEGULA_CACHE_DIR=cache)
            if glob.glob(os.path.join(repo, "python", "tegula", "_tegula*.so")):  # a developer build in the tree
                env["PYTHONPATH"] = os.path.join(repo, "python") + os.pathsep + os.environ.get("PYTHONPATH", "")
            r = subprocess.run([sys.executable, "-c", CHILD, preset, name, repo], env=env, capture_output=True,
                               text=True, timeout=float(os.environ.get("TEGULA_FIRST_TIMEOUT", "60")))
        if r.returncode != 0:
            print(f"{name:22s} FAILED: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
            continue
        d = json.loads(r.stdout.strip().splitlines()[-1])
        rest = d["first"] - d["second"] - d["compile_s"] - d["library_s"]
        slow = ", ".join(f"{ms}" for ms, _, _ in d["slowest"])
        print(f"{name:22s} {d['first']:8.2f} {d['second']:9.3f} {d['compiles']:8d} {d['compile_s']:9.2f} "
              f"{d['library_s']:9.2f} {rest:7.2f} {d['vm']:7d} {d['background']:4d} {d['waited']:8.2f}  {slow}",
              flush=True)


if __name__ == "__main__":
    main()
