"""tegula.numpy vs anchors: the elementwise chain, Black-Scholes (one long expression, two outputs) and softmax
written as plain NumPy code, and the per-call cost of one small operation (fusion off and on)."""
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


def _cnd(m, d):
    """The cumulative normal distribution by Abramowitz and Stegun's polynomial (NumPy has no erf)."""
    k = 1.0 / (1.0 + 0.2316419 * m.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    ret = 0.3989422804014327 * m.exp(-0.5 * d * d) * poly
    return m.where(d > 0, 1.0 - ret, ret)


def black_scholes(m, s, x, t, r=0.02, v=0.3):
    """European call and put prices of options (s spot, x strike, t years) in namespace `m` (tegula.numpy, NumPy,
    torch or CuPy): NumPy-style code, one expression tree with two outputs."""
    sqrt_t = m.sqrt(t)
    d1 = (m.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    c1, c2 = _cnd(m, d1), _cnd(m, d2)
    e = m.exp(-r * t)
    return s * c1 - x * e * c2, x * e * (1.0 - c2) - s * (1.0 - c1)


def _black_scholes(ctx):
    torch = _torch()
    import tegula.numpy as tnp

    n = 10 ** (6 if ctx.quick else 8)
    g = torch.Generator(device="cuda").manual_seed(1)
    st = torch.rand(n, device="cuda", generator=g) * 90 + 10
    xt = torch.rand(n, device="cuda", generator=g) * 90 + 10
    tt = torch.rand(n, device="cuda", generator=g) * 1.9 + 0.1
    s, x, t = tnp.asarray(st), tnp.asarray(xt), tnp.asarray(tt)
    nbytes, reps = 5 * 4 * n, ctx.pick(10, 3)

    def tegula():
        call, put = black_scholes(tnp, s, x, t)
        call._materialize()
        put._materialize()
        return call, put

    builds = tnp.kernel_stats()["builds"]
    call, put = tegula()
    want = black_scholes(torch, st.double(), xt.double(), tt.double())
    _check("black_scholes call", torch.as_tensor(call, device="cuda").double(), want[0], 1e-5)
    _check("black_scholes put", torch.as_tensor(put, device="cuda").double(), want[1], 1e-5)
    built = tnp.kernel_stats()["builds"] - builds
    rows = [row(W, "tegula", "black_scholes_GBps", _gbs(nbytes, torch_event_ms(tegula, repeat=reps)), "GB/s",
                better="higher", bar=3000, ratio_vs=["torch", "torch.compile", "cupy"],
                note=f"call and put of 1e{len(str(n)) - 1} fp32 options (3 inputs, 2 outputs), NumPy-style code; "
                     f"{built} kernel(s) built for it")]
    rows += guarded(W, "torch", lambda: row(W, "torch", "black_scholes_GBps", _gbs(nbytes, torch_event_ms(
        lambda: black_scholes(torch, st, xt, tt), repeat=reps)), "GB/s", better="higher", note="eager"))

    def compiled_row():
        f = torch.compile(lambda a, b, c: black_scholes(torch, a, b, c))
        f(st, xt, tt)
        return row(W, "torch.compile", "black_scholes_GBps", _gbs(nbytes, torch_event_ms(
            lambda: f(st, xt, tt), repeat=reps)), "GB/s", better="higher")
    rows += guarded(W, "torch.compile", compiled_row)

    def cupy_row():
        import cupy as cp

        sc, xc, tc = cp.asarray(st), cp.asarray(xt), cp.asarray(tt)
        return row(W, "cupy", "black_scholes_GBps", _gbs(nbytes, torch_event_ms(
            lambda: black_scholes(cp, sc, xc, tc), repeat=reps)), "GB/s", better="higher", note="same code")
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
    for impl, fn in (("chain", _chain), ("black_scholes", _black_scholes), ("softmax", _softmax), ("small", _small)):
        rows += guarded(W, f"tegula {impl}", lambda fn=fn: fn(ctx))
    return rows
