"""Bench timing helpers: CUDA-event timing (tegula, torch, cupy), host wall-clock loops, subprocess wall time."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time


def median(xs):
    return statistics.median(xs)


def _event_loop(fn, record_start, record_end, elapsed_ms, sync, warmup, repeat, rest_s=0.0):
    for _ in range(warmup):
        fn()
    sync()
    if rest_s:  # the GPU idle before the timed runs
        time.sleep(rest_s)
    times = []
    for _ in range(repeat):
        record_start()
        fn()
        record_end()
        times.append(elapsed_ms())  # waits for the end event
    return median(times)


def tegula_event_ms(fn, dev, stream, warmup=3, repeat=20):
    """Median ms of fn() (which enqueues work on `stream`) between two tegula events on that stream."""
    start, end = dev.create_event(timing=True), dev.create_event(timing=True)

    def elapsed():
        end.sync()
        return end - start

    return _event_loop(fn, lambda: start.record(stream), lambda: end.record(stream), elapsed, stream.sync,
                       warmup, repeat)


def torch_event_ms(fn, warmup=3, repeat=20, rest_s=0.0):
    """Median ms of fn() between torch.cuda events on torch's current stream (after rest_s seconds idle)."""
    import torch

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def elapsed():
        end.synchronize()
        return start.elapsed_time(end)

    return _event_loop(fn, start.record, end.record, elapsed, torch.cuda.synchronize, warmup, repeat, rest_s)


def rested_rounds(variants, flops, rounds=5, reps=20, rest_s=1.0, log=print):
    """TFLOP/s of GPU products timed in rounds: every round times each variant of `variants` ({name: fn}), `reps`
    runs after `rest_s` seconds idle (torch_event_ms), so a power-limited GPU's clock state weighs on all alike.
    `flops`: {name: flop count} or one count for all. Logs each round; returns {name: [TFLOP/s per round]}."""
    out = {name: [] for name in variants}
    for r in range(rounds):
        for name, fn in variants.items():
            f = flops[name] if isinstance(flops, dict) else flops
            out[name].append(f / (torch_event_ms(fn, repeat=reps, rest_s=rest_s) * 1e-3) / 1e12)
        if log:
            log(f"round {r}: " + ", ".join(f"{k}: {v[-1]:.0f}" for k, v in out.items()))
    return out


def print_medians(results, width=36):
    """The median of each variant's rounds (and their range), from rested_rounds."""
    print("\nmedian TFLOP/s over the rounds (min-max):")
    for k, v in results.items():
        print(f"  {k:{width}s} {median(v):6.0f}  ({min(v):.0f}-{max(v):.0f})")


def cupy_event_ms(fn, warmup=3, repeat=20):
    """Median ms of fn() between cupy.cuda events on cupy's current stream."""
    import cupy

    start, end = cupy.cuda.Event(), cupy.cuda.Event()

    def elapsed():
        end.synchronize()
        return cupy.cuda.get_elapsed_time(start, end)

    return _event_loop(fn, start.record, end.record, elapsed, cupy.cuda.Device().synchronize, warmup, repeat)


def host_idle_us(fn, sync, repeat=20):
    """Median host microseconds of one fn() call started on an idle GPU (sync() waits for it): the part of a call
    before its work can start, which the event timing of a call from an idle GPU includes."""
    times = []
    for _ in range(repeat):
        sync()
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e6)
    sync()
    return median(times)


def host_loop_us(loop, n, rounds, sync, warmup=None):
    """Host time per call of `loop(n)` (which makes n calls in its own tight loop), median of `rounds`.

    Returns {'call_us': loop time / n, 'total_us': (loop + final sync) / n, 'rounds_us': [...]}.
    """
    loop(warmup if warmup is not None else max(1, min(n, 1000)))
    sync()
    calls, totals = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        loop(n)
        t1 = time.perf_counter()
        sync()
        t2 = time.perf_counter()
        calls.append((t1 - t0) * 1e6 / n)
        totals.append((t2 - t0) * 1e6 / n)
    return {"call_us": median(calls), "total_us": median(totals), "rounds_us": totals}


def wall_s(fn, sync, warmup=1, repeat=5):
    """Median wall seconds of fn(); sync() (for blocking host copies and the like)."""
    for _ in range(warmup):
        fn()
        sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return median(times)


def process_wall_s(code, args=(), env=None, repeat=3, timeout=120, cwd=None):
    """Wall seconds of `python -c code args...` in a new process, each of `repeat` runs.

    `env` entries are added to (None values removed from) this process's environment. Returns
    (list of seconds, stdout of the last run). Raises RuntimeError with the stderr tail on failure.
    """
    full_env = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    argv = [sys.executable, "-c", code, *args]
    times, out = [], ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run(argv, env=full_env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise RuntimeError(f"child exited {proc.returncode}: " + " | ".join(tail))
        out = proc.stdout
    return times, out
