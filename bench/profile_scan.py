"""Where a 2^28 float32 cumsum's time goes on the GPU machine. A diagnostic, not a benchmark:
    python bench/profile_scan.py          host microseconds of each step of tnp.cumsum (each call started on an idle
                                          GPU, as the bench's event timing starts them), beside torch.cumsum
    python bench/profile_scan.py --ncu    one call of each scan kernel and a copy, for Nsight Compute:
        ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \\
            -k regex:"tg_scan$|tg_chained_scan|copy" python bench/profile_scan.py --ncu
"""
from __future__ import annotations

import sys

import torch

import tegula.numpy as tnp
from tegula import _tegula
from tegula.numpy import _core
from timing import host_idle_us, torch_event_ms

N = 1 << 28
CHAINED = [dict(threads=128, items=64, load=1, store=1, blocks_per_sm=-2, lookback_warps=1),
           dict(threads=128, items=64, load=1, store=1, blocks_per_sm=-2, lookback_warps=1, delay=700)]


def host_us(fn):
    """Median host microseconds of fn() called on an idle GPU."""
    return host_idle_us(fn, torch.cuda.synchronize, repeat=30)


def event_us(fn):
    """Median microseconds between CUDA events around fn() called on an idle GPU (the bench's timing)."""
    return torch_event_ms(fn, repeat=30) * 1e3


def main():
    xt = torch.rand(N, device="cuda")
    out = torch.empty_like(xt)
    x = tnp.asarray(xt)

    def whole():
        tnp.cumsum(x)._materialize()

    def cub():
        _tegula.cub_inclusive_scan(0, "float32", "float32", False, xt.data_ptr(), out.data_ptr(), N)

    def chained(kw):
        return lambda: _tegula.chained_inclusive_scan(0, False, xt.data_ptr(), out.data_ptr(), N, **kw)

    steps = [("tnp.cumsum (whole call)", whole), ("cub_inclusive_scan binding (out given)", cub)]
    steps += [(f"chained binding {kw['threads']}x{kw['items']} d{kw.get('delay', 0)}", chained(kw)) for kw in CHAINED]
    steps += [("array_empty 1 GiB", lambda: _core._tegula.array_empty((N,), "float32", 0)),
              ("tnp.asarray(torch tensor)", lambda: tnp.asarray(xt)),
              ("torch.cumsum", lambda: torch.cumsum(xt, 0)), ("torch.empty_like 1 GiB", lambda: torch.empty_like(xt)),
              ("torch copy_ 1 GiB", lambda: out.copy_(xt))]
    if "--ncu" in sys.argv:
        for _, fn in steps[1:4] + steps[-1:]:
            fn()
        torch.cuda.synchronize()
        return
    for _, fn in steps:  # compile and warm everything first
        fn()
        fn()
    from tegula.numpy import _scan

    def empty_then_cub():
        r = _core._tegula.array_empty((N,), "float32", 0)
        _tegula.cub_inclusive_scan(0, "float32", "float32", False, x._data_ptr, r._data_ptr, N)
        return r

    steps += [("single_pass_scan('cumsum', x, 0)", lambda: _scan.single_pass_scan("cumsum", x, 0)),
              ("array_empty + cub binding", empty_then_cub), ("tnp.cumsum without _materialize", lambda: tnp.cumsum(x)),
              ("x._data_ptr", lambda: x._data_ptr), ("x._device_id, _dtype_name, shape, size",
                                                      lambda: (x._device_id, x._dtype_name, x.shape, x.size))]
    print(f"{'step':42s} {'host us':>8s} {'event us':>9s}")
    for name, fn in steps:
        print(f"{name:42s} {host_us(fn):8.1f} {event_us(fn):9.1f}", flush=True)

    import cProfile
    import pstats

    prof = cProfile.Profile()
    for _ in range(200):
        torch.cuda.synchronize()
        prof.enable()
        whole()
        prof.disable()
    torch.cuda.synchronize()
    print("\ncProfile of 200 whole calls, each on an idle GPU (tottime per call = tottime / 200):")
    pstats.Stats(prof).sort_stats("tottime").print_stats(14)

    # Smaller sizes: CUB against the chained scan with and without the look-back delay (event us per call).
    print(f"{'n':>10s} {'cub':>8s} {'chained d0':>11s} {'chained d1000':>14s}")
    for k in (16, 20, 22, 24, 26):
        m = 1 << k
        a, o = xt[:m], out[:m]
        cub_m = lambda: _tegula.cub_inclusive_scan(0, "float32", "float32", False, a.data_ptr(), o.data_ptr(), m)
        row = []
        for fn in (cub_m,) + tuple(
                (lambda d: lambda: _tegula.chained_inclusive_scan(0, False, a.data_ptr(), o.data_ptr(), m,
                                                                  **{**CHAINED[0], "delay": d}))(d) for d in (0, 1000)):
            fn()
            row.append(event_us(fn))
        print(f"{m:10d} {row[0]:8.1f} {row[1]:11.1f} {row[2]:14.1f}", flush=True)


if __name__ == "__main__":
    main()
