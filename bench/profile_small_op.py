"""Where the time of one small tegula.numpy operation goes (y = x + 1.0 on 1024 fp32, materialised):
each step timed alone in a tight loop, beside the bare C++ launch floor. A diagnostic, not a benchmark:
    python bench/profile_small_op.py
"""
from __future__ import annotations

import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, __file__.rsplit("/", 1)[0])

import numpy as onp  # noqa: E402

import tegula.numpy as tnp  # noqa: E402
from tegula import _tegula  # noqa: E402


def per_call_us(fn, n=20000, rounds=5, sync=None):
    fn(1000)
    if sync:
        sync()
    best = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(n)
        if sync:
            sync()
        best.append((time.perf_counter() - t0) * 1e6 / n)
    best.sort()
    return best[len(best) // 2]


def main():
    gpu = tnp.asarray(onp.ones(1)).device.kind == "cuda"
    x = tnp.asarray(onp.random.default_rng(0).standard_normal(1024).astype("float32"))
    sync = (lambda: _tegula.array_synchronize(0)) if gpu else None
    rows = []

    def build(k):
        for _ in range(k):
            x + 1.0

    def full(k):
        for _ in range(k):
            y = x + 1.0
            y._materialize()

    def empty(k):
        for _ in range(k):
            tnp.empty(1024, dtype="float32")

    def loop(k):
        for _ in range(k):
            pass

    rows.append(("python loop", per_call_us(loop)))
    rows.append(("x + 1.0 (graph only, dropped)", per_call_us(build)))
    rows.append(("tnp.empty(1024)", per_call_us(empty)))
    rows.append(("x + 1.0 materialised", per_call_us(full, sync=sync)))
    stats = tnp.kernel_stats() if hasattr(tnp, "kernel_stats") else {}
    print(f"device: {'cuda' if gpu else 'cpu interpreter'}; kernel stats {stats}")
    for name, us in rows:
        print(f"  {name:34s} {us:7.3f} us")


if __name__ == "__main__":
    main()
