"""How an H200's bf16 matrix-product speed follows its temperature. A diagnostic, not a benchmark:
    python bench/probe_thermal.py
runs torch.matmul 8192^3 bf16 on fresh random data back to back for about 12 s (each product timed between
CUDA events, waiting for the one before it, as the bench times them), printing the median of each block of
products beside the GPU's temperature, SM clock and power; then, after that heating, how much rest (the GPU
idle) brings the speed back."""
from __future__ import annotations

import statistics
import subprocess
import time

import torch

N = 8192


def state():
    q = "temperature.gpu,clocks.sm,power.draw"
    try:
        r = subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader,nounits"], capture_output=True,
                           text=True, timeout=10)
        t, c, p = (x.strip() for x in r.stdout.strip().split(","))
        return f"{t} C, {c} MHz, {float(p):.0f} W"
    except Exception as e:  # noqa: BLE001 - a diagnostic line, never fatal
        return f"(nvidia-smi: {e})"


def timed(fn, n):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    out = []
    for _ in range(n):
        start.record()
        fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end))
    return out


def tflops(ms):
    return 2.0 * N ** 3 / (ms * 1e-3) / 1e12


def main():
    gen = torch.Generator(device="cuda").manual_seed(3)
    a = torch.randn((N, N), device="cuda", generator=gen).bfloat16()
    b = torch.randn((N, N), device="cuda", generator=gen).bfloat16()
    c = torch.empty_like(a)

    def product():
        torch.matmul(a, b, out=c)

    timed(product, 3)
    print(f"idle: {state()}", flush=True)
    print(f"rested, median of 20: {tflops(statistics.median(timed(product, 20))):.0f} TFLOP/s  {state()}", flush=True)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 12:
        ms = statistics.median(timed(product, 400))
        print(f"  t={time.perf_counter() - t0:5.1f} s  block of 400: {tflops(ms):.0f} TFLOP/s  {state()}", flush=True)
    for rest in (0.5, 1, 2, 4, 8):
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 6:  # heat again
            timed(product, 100)
        time.sleep(rest)
        before = state()
        ms = statistics.median(timed(product, 20))
        print(f"after 6 s of products and {rest} s of rest ({before}): median of 20 {tflops(ms):.0f} TFLOP/s",
              flush=True)


if __name__ == "__main__":
    main()
