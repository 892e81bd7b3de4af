"""The library layer (issue #6) against torch and CuPy in one process: fft of 2^24 complex64 (bar <= 0.3 ms) and
solve of a 4096 float32 system (bar <= 12.5 ms), each checked first."""
from __future__ import annotations

from common import guarded, row, torch_cuda as _torch
from timing import host_idle_us, torch_event_ms

W = "libs"


def _breakdown(fn):
    """What one call runs on the GPU, from tegula.profile (every launch and library call timed): 'name ms, ...'."""
    import tegula

    fn()
    with tegula.profile(time_every=1) as p:
        fn()
    rows = sorted(p.summary(), key=lambda r: -r["total_us"])[:4]
    return "; ".join(f"{r['name'][:28]} x{r['calls']} {r['total_us'] / 1e3:.3f} ms" for r in rows)


def _host_us(fn):
    """Host microseconds of one fn() call started on an idle GPU (timing.host_idle_us)."""
    import torch

    return host_idle_us(fn, torch.cuda.synchronize)


def _anchors(metric, unit, reps, torch_fn, cupy_fn, per_ms=None, better="lower"):
    """The torch and CuPy rows of one metric: torch_fn() runs torch's call; cupy_fn(cp) returns a callable running
    CuPy's (cp is the cupy module, imported here so a missing CuPy becomes a skipped row). per_ms turns the median
    milliseconds into the metric's unit."""
    value = per_ms or (lambda ms: ms)
    rows = guarded(W, "torch", lambda: row(W, "torch", metric, value(torch_event_ms(torch_fn, repeat=reps)), unit,
                                           better=better))

    def cupy_row():
        import cupy as cp

        return row(W, "cupy", metric, value(torch_event_ms(cupy_fn(cp), repeat=reps)), unit, better=better)
    return rows + guarded(W, "cupy", cupy_row)


def _fft(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = 1 << (24 if not ctx.quick else 20)
    xt = torch.randn(n, device="cuda", dtype=torch.complex64)
    x = tnp.asarray(xt)
    reps = ctx.pick(20, 5)

    def tegula():
        return tnp.fft.fft(x)

    got = torch.as_tensor(tegula(), device="cuda")
    ref = torch.fft.fft(xt.to(torch.complex128))
    err = ((got.to(torch.complex128) - ref).norm() / ref.norm()).item()
    if not err < 1e-5:
        raise RuntimeError(f"tegula fft is wrong: relative error {err}")
    rows = [row(W, "tegula", "fft_ms", torch_event_ms(tegula, repeat=reps), "ms", bar=0.3, ratio_vs=["torch", "cupy"],
                note=f"fft of 2^{n.bit_length() - 1} complex64 (cuFFT), rel err {err:.1e}; GPU: {_breakdown(tegula)}")]
    def cupy_fft(cp):
        xc = cp.asarray(xt)
        return lambda: cp.fft.fft(xc)
    return rows + _anchors("fft_ms", "ms", reps, lambda: torch.fft.fft(xt), cupy_fft)


def _solve(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = ctx.pick(4096, 1024)
    gen = torch.Generator(device="cuda").manual_seed(4)
    at = torch.randn((n, n), device="cuda", generator=gen) + n ** 0.5 * torch.eye(n, device="cuda")
    bt = torch.randn((n, 1), device="cuda", generator=gen)
    a, b = tnp.asarray(at), tnp.asarray(bt)
    reps = ctx.pick(10, 3)

    def tegula():
        return tnp.linalg.solve(a, b)

    x = torch.as_tensor(tegula(), device="cuda").double()
    res = ((at.double() @ x - bt.double()).norm() / bt.double().norm()).item()
    if not res < 1e-3:
        raise RuntimeError(f"tegula solve is wrong: relative residual {res}")
    rows = [row(W, "tegula", "solve_ms", torch_event_ms(tegula, repeat=reps), "ms", bar=12.5, ratio_vs=["cupy", "torch"],
                note=f"linalg.solve {n}x{n} float32 (cuSOLVER getrf, tegula's substitution kernels), residual "
                     f"{res:.1e}; GPU: {_breakdown(tegula)}")]

    def with_getrs():
        from tegula.numpy import linalg as L

        L._SOLVE_SUBSTITUTION = False
        try:
            xt = torch.as_tensor(tegula(), device="cuda").double()
            r = ((at.double() @ xt - bt.double()).norm() / bt.double().norm()).item()
            if not r < 1e-3:
                raise RuntimeError(f"solve with cuSOLVER's getrs is wrong: relative residual {r}")
            return row(W, "tegula (cuSOLVER getrs)", "solve_ms", torch_event_ms(tegula, repeat=reps), "ms",
                       note=f"residual {r:.1e}; GPU: {_breakdown(tegula)}")
        finally:
            L._SOLVE_SUBSTITUTION = True
    rows += guarded(W, "tegula (cuSOLVER getrs)", with_getrs)

    def transposed_layout():
        from tegula.numpy import linalg as L

        L._SOLVE_LAYOUT = "transposed"
        try:
            xt = torch.as_tensor(tegula(), device="cuda").double()
            r = ((at.double() @ xt - bt.double()).norm() / bt.double().norm()).item()
            if not r < 1e-3:
                raise RuntimeError(f"solve with the transposed layout is wrong: relative residual {r}")
            return row(W, "tegula (column-major copy, trans N substitution)", "solve_ms",
                       torch_event_ms(tegula, repeat=reps), "ms", note=f"residual {r:.1e}; GPU: {_breakdown(tegula)}")
        finally:
            L._SOLVE_LAYOUT = "plain"
    rows += guarded(W, "tegula (column-major copy, trans N substitution)", transposed_layout)
    def cupy_solve(cp):
        ac, bc = cp.asarray(at), cp.asarray(bt)
        return lambda: cp.linalg.solve(ac, bc)
    return rows + _anchors("solve_ms", "ms", reps, lambda: torch.linalg.solve(at, bt), cupy_solve)


def _sort(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = 1 << (24 if not ctx.quick else 20)
    xt = torch.randn(n, device="cuda")
    x = tnp.asarray(xt)
    reps = ctx.pick(10, 3)

    def tegula():
        return tnp.sort(x)

    got = torch.as_tensor(tegula(), device="cuda")
    if not torch.equal(got, torch.sort(xt).values):
        raise RuntimeError("tegula sort is wrong")
    gkeys = lambda ms: n / (ms * 1e-3) / 1e9  # noqa: E731
    rows = [row(W, "tegula", "sort_Gkeys", gkeys(torch_event_ms(tegula, repeat=reps)), "Gkey/s", better="higher", bar=31,
                ratio_vs=["torch", "cupy"], note="sort 2^24 float32: CUB onesweep (NVRTC) on NumPy-order keys, keys only")]
    def cupy_sort(cp):
        xc = cp.asarray(xt)
        return lambda: cp.sort(xc)
    return rows + _anchors("sort_Gkeys", "Gkey/s", reps, lambda: torch.sort(xt), cupy_sort, gkeys, "higher")


def check_cumsum(got, ref, what):
    """Raises unless the float32 scan `got` is within 1e-4 (relative to the total) of `ref`, the float64 cumsum."""
    err = ((got.double() - ref).abs().max() / ref[-1]).item()
    if not err < 1e-4:
        raise RuntimeError(f"{what} is wrong: relative error {err}")


def _engine():
    from tegula import _tegula

    return {"cub": "CUB's", "chained": "tegula's chained"}[_tegula.scan_engine()[0]]


def _cumsum(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = 1 << (28 if not ctx.quick else 22)
    xt = torch.rand(n, device="cuda")
    x = tnp.asarray(xt)
    reps = ctx.pick(10, 3)

    def tegula():
        r = tnp.cumsum(x)
        r._materialize()
        return r

    check_cumsum(torch.as_tensor(tegula(), device="cuda"), torch.cumsum(xt.double(), 0), "tegula cumsum")
    gbs = lambda ms: 8.0 * n / (ms * 1e-3) / 1e9  # noqa: E731
    rows = [row(W, "tegula", "cumsum_GBps", gbs(torch_event_ms(tegula, repeat=reps)), "GB/s", better="higher", bar=3500,
                ratio_vs=["torch", "cupy"], note=f"cumsum of 2^{n.bit_length() - 1} float32 ({_engine()} single-pass scan, NVRTC); "
                                                f"GPU: {_breakdown(tegula)}; host {_host_us(tegula):.1f} us a call, "
                                                f"torch {_host_us(lambda: torch.cumsum(xt, 0)):.1f} us")]
    def cupy_cumsum(cp):
        xc = cp.asarray(xt)
        return lambda: cp.cumsum(xc)
    rows += _anchors("cumsum_GBps", "GB/s", reps, lambda: torch.cumsum(xt, 0), cupy_cumsum, gbs, "higher")
    rows += guarded(W, "tegula (CUB scan)", lambda: _cub_whole_call(tegula, gbs, reps))
    rows += guarded(W, "tegula scan tiles", lambda: _scan_tiles(ctx, xt, gbs, reps))
    return rows


def _cub_whole_call(tegula, gbs, reps):
    """The whole tnp.cumsum call through CUB's scan, beside the default's row."""
    from tegula import _tegula

    engine, tile = _tegula.scan_engine()
    _tegula.set_scan_engine("cub", **tile)
    try:
        return [row(W, "tegula (CUB scan)", "cumsum_GBps", gbs(torch_event_ms(tegula, repeat=reps)), "GB/s",
                    better="higher", note=f"tnp.cumsum through CUB's scan; GPU: {_breakdown(tegula)}; "
                                          f"host {_host_us(tegula):.1f} us a call")]
    finally:
        _tegula.set_scan_engine(engine, **tile)


def _scan_tiles(ctx, xt, gbs, reps):
    """The CUB scan's tile (threads x items) swept on the same data: which one the default should be."""
    torch = _torch()
    from tegula import _tegula

    out = torch.empty_like(xt)
    ref = torch.cumsum(xt.double(), 0)
    found = []
    # (threads, items, load variant: 0 warp transpose, 1 vectorised LDG, 2 transpose + LDG, 3 transpose + CS;
    #  look-back delay variant: 0 CUB's, 1 none, 2 fixed 350, 3 exponential)
    for threads, items, load, delay in ((128, 24, 0, 0), (128, 32, 0, 0), (192, 32, 0, 0), (64, 64, 0, 0),
                                        (128, 32, 1, 0), (128, 32, 2, 0), (128, 32, 3, 0), (128, 32, 0, 1),
                                        (128, 32, 0, 2), (128, 32, 0, 3), (192, 32, 0, 1), (192, 32, 3, 3)):
        def go():
            _tegula.cub_inclusive_scan(0, "float32", "float32", False, xt.data_ptr(), out.data_ptr(), xt.numel(),
                                       threads=threads, items=items, load=load, delay=delay)
        go()
        torch.cuda.synchronize()
        check_cumsum(out, ref, f"scan tile {threads}x{items}")
        found.append((gbs(torch_event_ms(go, repeat=reps)), threads, items,
                      (f"l{load}" if load else "") + (f"d{delay}" if delay else "")))
    best = max(found)
    return [row(W, "tegula (best scan tile)", "cumsum_GBps", best[0], "GB/s", better="higher",
                note=f"{best[1]}x{best[2]}{best[3]} of " + ", ".join(f"{t}x{i}{v}: {g:.0f}" for g, t, i, v in found)
                     + " (l1/l2/l3: vectorised LDG / transpose+LDG / transpose+CS loads; d1/d2/d3: no / fixed 350 ns / exponential"
                       " look-back delay)")]


def _histogram(ctx):
    torch = _torch()
    import numpy as np

    import tegula.numpy as tnp

    n = 1 << (24 if not ctx.quick else 20)
    xt = torch.randn(n, device="cuda")
    x = tnp.asarray(xt)
    reps = ctx.pick(10, 3)

    def tegula():
        return tnp.histogram(x, bins=100, range=(-4.0, 4.0))[0]

    if not np.array_equal(tegula().get(), np.histogram(xt.cpu().numpy(), bins=100, range=(-4.0, 4.0))[0]):
        raise RuntimeError("tegula histogram is wrong")
    gel = lambda ms: n / (ms * 1e-3) / 1e9  # noqa: E731
    rows = [row(W, "tegula", "histogram_Gelem", gel(torch_event_ms(tegula, repeat=reps)), "Gelem/s", better="higher",
                ratio_vs=["torch", "cupy"], note="histogram of 2^24 float32 into 100 bins (one pass: each value's bin and "
                                                 f"shared-memory block counts); GPU: {_breakdown(tegula)}")]

    def cupy_histogram(cp):
        xc = cp.asarray(xt)
        return lambda: cp.histogram(xc, 100, (-4.0, 4.0))
    return rows + _anchors("histogram_Gelem", "Gelem/s", reps, lambda: torch.histc(xt, 100, -4.0, 4.0), cupy_histogram,
                           gel, "higher")


def run(ctx):
    ctx.require_gpu()
    return (guarded(W, "tegula fft", lambda: _fft(ctx)) + guarded(W, "tegula solve", lambda: _solve(ctx)) +
            guarded(W, "tegula sort", lambda: _sort(ctx)) + guarded(W, "tegula cumsum", lambda: _cumsum(ctx)) +
            guarded(W, "tegula histogram", lambda: _histogram(ctx)))
