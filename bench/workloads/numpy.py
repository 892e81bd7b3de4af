"""tegula.numpy vs anchors: the elementwise chain and softmax written as plain NumPy code, and the
per-call cost of one small operation (fusion off and on)."""
from __future__ import annotations

from common import gbs as _gbs, guarded, row, torch_cuda as _torch
from timing import host_loop_us, torch_event_ms

W = "numpy"


def _check(name, got, ref, tol):
    err = ((got - ref).abs().max() / ref.abs().max()).item()
    if not err < tol:
        raise RuntimeError(f"tegula.numpy {name} is wrong: relative error {err}")


def _chain(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = 1 << (24 if ctx.quick else 28)
    xt, yt = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    x, y = tnp.asarray(xt), tnp.asarray(yt)  # zero-copy through __cuda_array_interface__
    nbytes, reps = 3 * 4 * n, ctx.pick(20, 5)

    def tegula():
        r = tnp.exp(-x * x) * y + 0.5 * x
        r._materialize()
        return r

    r = tegula()
    _check("chain", torch.as_tensor(r, device="cuda"), torch.exp(-xt * xt) * yt + 0.5 * xt, 1e-5)
    rows = [row(W, "tegula", "chain_GBps", _gbs(nbytes, torch_event_ms(tegula, repeat=reps)), "GB/s", better="higher",
                bar=3950, ratio_vs=["torch", "cupy"], note=f"np.exp(-x*x)*y+0.5*x, 2^{n.bit_length() - 1} fp32, "
                f"fused: {tnp.kernel_stats()['builds']} kernel(s) built")]
    rows += guarded(W, "torch", lambda: row(W, "torch", "chain_GBps", _gbs(nbytes, torch_event_ms(
        lambda: torch.exp(-xt * xt) * yt + 0.5 * xt, repeat=reps)), "GB/s", better="higher", note="eager"))

    def cupy_row():
        import cupy as cp

        xc, yc = cp.asarray(xt), cp.asarray(yt)
        return row(W, "cupy", "chain_GBps", _gbs(nbytes, torch_event_ms(lambda: cp.exp(-xc * xc) * yc + 0.5 * xc,
                                                                        repeat=reps)), "GB/s", better="higher")
    rows += guarded(W, "cupy", cupy_row)
    return rows


def _softmax(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    R, C = (4096, 4096) if ctx.quick else (32768, 4096)
    xt = torch.randn(R, C, device="cuda") * 3
    x = tnp.asarray(xt)
    nbytes, reps = 2 * 4 * R * C, ctx.pick(20, 5)

    def tegula():
        e = tnp.exp(x - x.max(1, keepdims=True))
        s = e / e.sum(1, keepdims=True)
        s._materialize()
        return s

    s = tegula()
    _check("softmax", torch.as_tensor(s, device="cuda"), torch.softmax(xt, 1), 1e-5)
    rows = [row(W, "tegula", "softmax_GBps", _gbs(nbytes, torch_event_ms(tegula, repeat=reps)), "GB/s",
                better="higher", bar=3000, ratio_vs=["torch", "cupy"],
                note=f"e = np.exp(x - x.max(1, keepdims=True)); e / e.sum(1, keepdims=True), {R}x{C} fp32")]
    rows += guarded(W, "torch", lambda: row(W, "torch", "softmax_GBps", _gbs(nbytes, torch_event_ms(
        lambda: torch.softmax(xt, 1), repeat=reps)), "GB/s", better="higher", note="torch.softmax"))

    def cupy_row():
        import cupy as cp

        xc = cp.asarray(xt)

        def f():
            e = cp.exp(xc - xc.max(1, keepdims=True))
            return e / e.sum(1, keepdims=True)
        return row(W, "cupy", "softmax_GBps", _gbs(nbytes, torch_event_ms(f, repeat=reps)), "GB/s",
                   better="higher", note="same NumPy-style code")
    rows += guarded(W, "cupy", cupy_row)
    return rows


def _small(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    xt = torch.randn(1024, device="cuda")
    x = tnp.asarray(xt)
    n, rounds = ctx.pick(20000, 2000), ctx.pick(5, 3)
    sync = torch.cuda.synchronize

    def lazy(k):
        for _ in range(k):
            y = x + 1.0
            y._materialize()

    def eager(k):
        with tnp.eager():
            for _ in range(k):
                x + 1.0

    r = host_loop_us(lazy, n, rounds, sync)
    rows = [row(W, "tegula", "small_op_us", r["total_us"], "us", bar=4.0, ratio_vs=["torch", "cupy"],
                note=f"y = x + 1.0 on 1024 fp32, materialised each call (loop only {r['call_us']:.2f} us)")]
    r = host_loop_us(eager, n, rounds, sync)
    rows.append(row(W, "tegula (eager)", "small_op_us", r["total_us"], "us",
                    note=f"tegula.numpy.eager(): x + 1.0 (loop only {r['call_us']:.2f} us)"))
    floor = ctx.results.get(("launch", "c++ cuLaunchKernel (floor)", "launch_us"))
    if floor:
        rows[0]["note"] += f"; C++ launch floor of this run {floor:.2f} us"

    def torch_loop(k):
        for _ in range(k):
            xt + 1.0
    rows += guarded(W, "torch", lambda: row(W, "torch", "small_op_us",
                                            host_loop_us(torch_loop, n, rounds, sync)["total_us"], "us"))

    def cupy_row():
        import cupy as cp

        xc = cp.asarray(xt)

        def loop(k):
            for _ in range(k):
                xc + 1.0
        return row(W, "cupy", "small_op_us", host_loop_us(loop, n, rounds, sync)["total_us"], "us")
    rows += guarded(W, "cupy", cupy_row)
    return rows


def run(ctx):
    ctx.require_gpu()
    rows = []
    for impl, fn in (("chain", _chain), ("softmax", _softmax), ("small", _small)):
        rows += guarded(W, f"tegula {impl}", lambda fn=fn: fn(ctx))
    return rows
