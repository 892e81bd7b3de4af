"""First calls of tegula.numpy's library paths (#26's bar: np.unique, np.sort, np.cumsum on 1e7 elements within 50 ms of
their steady call), each in a new process with an empty TEGULA_CACHE_DIR, so only the package's prebuilt kernels
(tegula_prebuilt/) and the array VM can spare NVRTC; prints first and steady ms and what the profile says compiled:
    python3 bench/probe_library_first.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

CHILD = r'''
import json, sys, time
import numpy as np
import tegula, tegula.core as tc, tegula.numpy as tnp
dev = tc.Device(0)
rng = np.random.default_rng(1)
name = sys.argv[1]
host = {"unique": rng.integers(0, 1 << 20, 10_000_000), "sort": rng.standard_normal(10_000_000).astype(np.float32),
        "cumsum": rng.standard_normal(10_000_000), "argsort": rng.standard_normal(10_000_000)}[name]
x = tnp.asarray(host)
dev.sync()
f = {"unique": tnp.unique, "sort": tnp.sort, "cumsum": tnp.cumsum, "argsort": tnp.argsort}[name]
def call():
    t = time.perf_counter()
    r = f(x)
    (r[0] if isinstance(r, tuple) else r)._materialize()
    dev.sync()
    return time.perf_counter() - t
with tegula.profile() as p:
    first = call()
tnp.wait_for_compiles()
steady = min(call() for _ in range(3))
print(json.dumps({"first_ms": first * 1e3, "steady_ms": steady * 1e3,
                  "compiles": [(c.name, c.detail, round(c.host_us / 1e3, 1)) for c in p.compiles]}))
'''


def main():
    print(f"{'call':10s} {'first ms':>9} {'steady ms':>10} {'over':>8}  compiles (name, outcome, ms)")
    for name in ("unique", "sort", "argsort", "cumsum"):
        with tempfile.TemporaryDirectory(prefix="tegula-libfirst-") as cache:
            r = subprocess.run([sys.executable, "-c", CHILD, name], env=dict(os.environ, TEGULA_CACHE_DIR=cache),
                               capture_output=True, text=True, timeout=120)
        if r.returncode:
            print(f"{name:10s} FAILED: {(r.stderr.strip().splitlines() or ['?'])[-1][:150]}")
            continue
        d = json.loads(r.stdout.strip().splitlines()[-1])
        print(f"{name:10s} {d['first_ms']:9.1f} {d['steady_ms']:10.2f} {d['first_ms'] - d['steady_ms']:8.1f}  "
              f"{d['compiles']}", flush=True)


if __name__ == "__main__":
    main()
