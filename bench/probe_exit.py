"""Does a process exit cleanly while kernels compile in the background? (session 24: the startup workload's child
exited with SIGSEGV on an H100 right after printing its result, compiles still running.) Runs the startup
workload's first-result program (tegula.numpy) in new processes with an empty cache, exiting at once, N times each
way, and prints the exit codes; where one dies on a signal, reruns it with scripts/segv_trace.c preloaded (the GPU
machine has no gdb) and prints the native backtrace.

    python3 bench/probe_exit.py [N]
"""
import os
import shutil
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from workloads.startup import FIRST_RESULT_CHILD  # noqa: E402 - the startup workload's program, the one that died

CHILD = FIRST_RESULT_CHILD.format(imports="import tegula.numpy as np", tail="")


def run(env_extra, preload=None):
    d = tempfile.mkdtemp(prefix="tegula-exit-")
    env = dict(os.environ, TEGULA_CACHE_DIR=d, **env_extra)
    if preload:
        env["LD_PRELOAD"] = preload
    cmd = [sys.executable, "-c", CHILD]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return p


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    bad = None
    for name, extra in [("background compiles on", {}), ("background compiles off", {"TEGULA_BACKGROUND_COMPILE": "0"})]:
        codes = []
        for _ in range(n):
            p = run(extra)
            codes.append(p.returncode)
            if p.returncode != 0 and bad is None:
                bad = (name, extra, p)
        print(f"{name:26s} exit codes {codes}", flush=True)
    if bad is None:
        print("every process exited cleanly")
        return
    name, extra, p = bad
    print(f"first failure ({name}): rc {p.returncode}\n--- stdout\n{p.stdout[-2000:]}\n--- stderr\n{p.stderr[-4000:]}")
    if p.returncode >= 0:
        return
    so = os.path.join(tempfile.gettempdir(), "tegula-segv.so")
    src = os.path.join(os.path.dirname(BENCH), "scripts", "segv_trace.c")
    if subprocess.run(["gcc", "-shared", "-fPIC", "-o", so, src]).returncode != 0:
        print("could not build scripts/segv_trace.c")
        return
    for _ in range(5):
        g = run(extra, preload=so)
        if g.returncode == 139:
            print("--- native backtrace\n" + g.stderr[-8000:])
            break
    else:
        print("no fault in 5 tries with the backtrace handler")


if __name__ == "__main__":
    main()
