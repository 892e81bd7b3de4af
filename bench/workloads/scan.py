"""tegula's own single-pass chained scan (cpp/tegula/libs/chained_scan.hpp) on 2^28 float32: its tiles, grids and
look-back variants swept (kernel alone), then the whole tnp.cumsum with the best of them against the cumsum bar
(3500 GB/s; the CUB path and the torch and CuPy anchors are in the libs workload). Its own workload, run after the
others, so an experimental variant that hangs the GPU costs only this one (each variant prints as it ends)."""
from __future__ import annotations

from common import guarded, row, torch_cuda as _torch
from timing import torch_event_ms
from workloads.libs import _breakdown, _host_us

W = "scan"


def run(ctx):
    ctx.require_gpu()
    torch = _torch()
    import tegula.numpy as tnp

    n = 1 << (28 if not ctx.quick else 22)
    xt = torch.rand(n, device="cuda")
    x = tnp.asarray(xt)
    gbs = lambda ms: 8.0 * n / (ms * 1e-3) / 1e9  # noqa: E731
    return guarded(W, "tegula chained scan", lambda: _chained_scan(ctx, x, xt, gbs, ctx.pick(10, 3)))


def _chained_scan(ctx, x, xt, gbs, reps):
    """tegula's own chained scan (libs/chained_scan.hpp) on the same data: the kernel's tiles and variants swept,
    then the whole tnp.cumsum call with SCAN_ENGINE = "chained" and the best of them against the bar."""
    torch = _torch()
    import tegula.numpy as tnp
    from tegula import _tegula
    from tegula.numpy import _scan

    ref = torch.cumsum(xt.double(), 0)

    def check(got, what):
        err = ((got.double() - ref).abs().max() / ref[-1]).item()
        if not err < 1e-4:
            raise RuntimeError(f"{what} is wrong: relative error {err}")

    def tegula():
        r = tnp.cumsum(x)
        r._materialize()
        return r

    out = torch.empty_like(xt)
    found, failed = [], []
    # (threads, items, load: 0 plain / 1 nc / 2 cs, store: 0 plain / 1 cs, blocks per SM: 0 as many as fit,
    #  -1 one tile per block by ticket, -2 by block index, -3 static tiles with a bulk-copy pipeline; look-back poll
    #  delay in ns; look-back warps, 0: all; pipeline stages for -3)
    for threads, items, load, store, per_sm, delay, lbw, stages in (
            (256, 16, 0, 0, 0, 0, 1, 0), (256, 16, 1, 1, 0, 700, 1, 0), (128, 32, 1, 1, -1, 0, 1, 0),
            (128, 32, 1, 1, -2, 0, 1, 0), (128, 32, 1, 1, -2, 0, 0, 0), (128, 32, 1, 1, -2, 350, 1, 0),
            (128, 32, 1, 1, -2, 700, 1, 0), (128, 64, 1, 1, -2, 350, 1, 0), (128, 64, 1, 1, -2, 700, 1, 0),
            (128, 64, 1, 1, -2, 1000, 1, 0), (128, 64, 0, 1, -2, 1000, 1, 0), (128, 64, 1, 1, -2, 1300, 1, 0),
            (128, 64, 1, 1, -2, 1600, 1, 0), (128, 64, 1, 1, -2, 2000, 1, 0), (128, 48, 1, 1, -2, 1000, 1, 0),
            (128, 48, 1, 1, -2, 1500, 1, 0), (64, 64, 1, 1, -2, 1000, 1, 0), (256, 32, 1, 1, -2, 1000, 1, 0),
            (192, 64, 1, 1, -2, 1000, 1, 0), (256, 64, 1, 1, -2, 1000, 1, 0),
            (128, 32, 0, 0, -2, 0, 1, 0), (128, 32, 2, 1, -2, 0, 1, 0), (128, 16, 1, 1, -2, 0, 1, 0),
            (256, 16, 1, 1, -2, 0, 1, 0), (512, 16, 1, 1, -2, 0, 1, 0), (64, 32, 1, 1, -2, 0, 1, 0),
            (192, 32, 1, 1, -2, 0, 1, 0), (256, 32, 1, 1, -2, 0, 1, 0), (128, 48, 1, 1, -2, 0, 1, 0),
            (128, 64, 1, 1, -2, 0, 1, 0),
            (256, 16, 0, 1, -3, 0, 0, 3), (256, 32, 0, 1, -3, 0, 0, 3), (256, 16, 0, 1, -3, 700, 0, 3)):
        kw = dict(threads=threads, items=items, load=load, store=store, blocks_per_sm=per_sm, delay=delay,
                  lookback_warps=lbw, stages=stages)

        def go():
            _tegula.chained_inclusive_scan(0, False, xt.data_ptr(), out.data_ptr(), xt.numel(), **kw)
        grid = f"b{per_sm}" if per_sm > 0 else {-1: "o", -2: "i", -3: f"p{stages}"}.get(per_sm, "")
        label = ((f"l{load}" if load else "") + (f"s{store}" if store else "") + grid
                 + (f"d{delay}" if delay else "") + (f"w{lbw}" if lbw else ""))
        try:  # one variant's failure is reported in the note and the sweep goes on
            out.fill_(float("nan"))
            go()
            torch.cuda.synchronize()
            check(out, f"chained scan {threads}x{items}{label}")
            found.append((gbs(torch_event_ms(go, repeat=reps)), threads, items, label, kw))
            print(f"   chained scan {threads}x{items}{label}: {found[-1][0]:.0f} GB/s", flush=True)
        except Exception as e:  # noqa: BLE001
            failed.append(f"{threads}x{items}{label}: {type(e).__name__}: {str(e)[:120]}")
            print(f"   chained scan {failed[-1]}", flush=True)
    best = max(found, key=lambda f: f[0])
    rows = [row(W, "tegula (best chained scan tile)", "cumsum_GBps", best[0], "GB/s", better="higher",
                note=f"{best[1]}x{best[2]}{best[3]} of "
                     + ", ".join(f"{t}x{i}{v}: {g:.0f}" for g, t, i, v, _ in found)
                     + " (kernel alone; l1/l2: nc / streaming loads, s1: streaming stores, bN: N blocks per "
                       "SM, o / i: one tile per block by ticket / by block index, pN: static tiles, N-stage bulk-copy "
                       "pipeline, dN: N ns between look-back "
                       "polls, w1: one warp looks back)" + (f"; FAILED: {'; '.join(failed)}" if failed else ""))]
    # The whole tnp.cumsum call with SCAN_ENGINE = "chained" and the best tile, against the bar.
    engine, tile = _scan.SCAN_ENGINE, _scan.CHAINED_TILE
    _scan.SCAN_ENGINE, _scan.CHAINED_TILE = "chained", best[4]
    try:
        check(torch.as_tensor(tegula(), device="cuda"), "the chained scan")
        rows.append(row(W, "tegula (chained scan, best tile)", "cumsum_GBps", gbs(torch_event_ms(tegula, repeat=reps)), "GB/s",
                        better="higher", bar=3500,
                        note=f"tnp.cumsum with tegula's own single-pass scan, tile {best[1]}x{best[2]}{best[3]}; "
                             f"GPU: {_breakdown(tegula)}; host {_host_us(tegula):.1f} us a call"))
    finally:
        _scan.SCAN_ENGINE, _scan.CHAINED_TILE = engine, tile
    return rows
