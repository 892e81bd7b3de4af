"""Tile kernels vs anchors: the elementwise chain, row softmax, layernorm, a full sum, first-launch and launch overhead."""
from __future__ import annotations

import os
import sys
import time

from common import gbs as _gbs, guarded, row, torch_cuda as _torch
from timing import host_loop_us, median, torch_event_ms

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "common"))

W = "tile"


def _chain(ctx):
    torch = _torch()
    import tegula.tile as tt
    import tile_kernels as K

    n = 1 << (24 if ctx.quick else 28)
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.full_like(x, float("nan"))
    nbytes, reps = 3 * 4 * n, ctx.pick(20, 5)
    rows = []
    T = 4096

    def tegula():
        tt.launch(K.chain, grid=n // T, args=(x, y, out, T))

    tegula()
    torch.cuda.synchronize()
    ref = torch.exp(-x * x) * y + 0.5 * x
    err = ((out - ref).abs().max() / ref.abs().max()).item()
    if not err < 1e-5:
        raise RuntimeError(f"tegula chain is wrong: relative error {err}")
    ms = torch_event_ms(tegula, repeat=reps)
    rows.append(row(W, "tegula", "chain_GBps", _gbs(nbytes, ms), "GB/s", better="higher", bar=3950,
                    ratio_vs=["torch", "torch.compile", "triton", "cupy"], note=f"2^{n.bit_length() - 1} fp32, T={T}"))

    def add(impl, fn, note=""):
        def measure():
            fn()
            return row(W, impl, "chain_GBps", _gbs(nbytes, torch_event_ms(fn, repeat=reps)), "GB/s",
                       better="higher", note=note)
        rows.extend(guarded(W, impl, measure))

    add("torch", lambda: torch.exp(-x * x) * y + 0.5 * x, "eager")
    add("cupy", lambda: _cupy_chain(x, y), "cupy elementwise")

    def compiled():
        f = torch.compile(lambda a, b: torch.exp(-a * a) * b + 0.5 * a)
        f(x, y)
        return f
    rows.extend(guarded(W, "torch.compile", lambda: _measure_fn(W, "torch.compile", compiled(), (x, y), nbytes, reps)))
    rows.extend(guarded(W, "triton", lambda: _triton_chain(x, y, out, nbytes, reps)))
    return rows


def _measure_fn(w, impl, f, args, nbytes, reps):
    return row(w, impl, "chain_GBps", _gbs(nbytes, torch_event_ms(lambda: f(*args), repeat=reps)), "GB/s",
               better="higher")


def _cupy_chain(x, y):
    import cupy

    a, b = cupy.asarray(x), cupy.asarray(y)
    return cupy.exp(-a * a) * b + 0.5 * a


def _triton_chain(x, y, out, nbytes, reps):
    import triton
    import triton.language as tl

    @triton.jit
    def k(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        a = tl.load(x_ptr + offs, mask=m)
        b = tl.load(y_ptr + offs, mask=m)
        tl.store(o_ptr + offs, tl.exp(-a * a) * b + 0.5 * a, mask=m)

    n = x.numel()
    fn = lambda: k[(triton.cdiv(n, 4096),)](x, y, out, n, BLOCK=4096)  # noqa: E731
    fn()
    return row(W, "triton", "chain_GBps", _gbs(nbytes, torch_event_ms(fn, repeat=reps)), "GB/s", better="higher")


def _rows_op(ctx, metric, bar, kernel, make_args, torch_fn, triton_fn, check, anchors):
    torch = _torch()
    import tegula.tile as tt

    R, C = (4096, 4096) if ctx.quick else (32768, 4096)
    x = torch.randn(R, C, device="cuda")
    out = torch.full_like(x, float("nan"))
    nbytes, reps = 2 * 4 * R * C, ctx.pick(20, 5)
    args = make_args(x, out, C)
    fn = lambda: tt.launch(kernel, grid=R, args=args)  # noqa: E731
    fn()
    torch.cuda.synchronize()
    err = check(x, out)
    if not err < 1e-4:
        raise RuntimeError(f"tegula {metric} is wrong: relative error {err}")
    rows = [row(W, "tegula", metric, _gbs(nbytes, torch_event_ms(fn, repeat=reps)), "GB/s", better="higher",
                bar=bar, ratio_vs=anchors, note=f"{R}x{C} fp32")]
    rows += guarded(W, "torch", lambda: row(W, "torch", metric, _gbs(nbytes, torch_event_ms(lambda: torch_fn(x), repeat=reps)),
                                            "GB/s", better="higher"))
    if triton_fn is not None:
        rows += guarded(W, "triton", lambda: row(W, "triton", metric, _gbs(nbytes, torch_event_ms(triton_fn(x, out), repeat=reps)),
                                                 "GB/s", better="higher"))
    return rows


def _triton_softmax(x, out):
    import triton
    import triton.language as tl

    @triton.jit
    def k(o_ptr, i_ptr, stride, n_cols, BLOCK: tl.constexpr):
        r = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        v = tl.load(i_ptr + r * stride + cols, mask=cols < n_cols, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(o_ptr + r * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

    R, C = x.shape
    fn = lambda: k[(R,)](out, x, x.stride(0), C, BLOCK=triton.next_power_of_2(C), num_warps=16)  # noqa: E731
    fn()
    return fn


def _softmax(ctx):
    import tile_kernels as K

    torch = _torch()
    check = lambda x, out: ((out - torch.softmax(x, dim=1)).abs().max()).item()  # noqa: E731
    return _rows_op(ctx, "softmax_GBps", 3900, K.softmax, lambda x, out, C: (x, out, C),
                    lambda x: torch.softmax(x, dim=1), _triton_softmax, check, ["torch", "triton"])


def _layernorm(ctx):
    import tile_kernels as K

    torch = _torch()
    C = 4096
    w, b = torch.randn(1, C, device="cuda"), torch.randn(1, C, device="cuda")
    ln = lambda x: torch.nn.functional.layer_norm(x, (C,), w[0], b[0], 1e-5)  # noqa: E731
    check = lambda x, out: ((out - ln(x)).abs().max() / ln(x).abs().max()).item()  # noqa: E731
    return _rows_op(ctx, "layernorm_GBps", 3500, K.layernorm, lambda x, out, C: (x, w, b, out, C, 1e-5),
                    ln, None, check, ["torch"])


def _sum(ctx):
    torch = _torch()
    import tegula.tile as tt
    import tile_kernels as K

    n = 1 << (24 if ctx.quick else 28)
    x = torch.rand(n, device="cuda")
    out = torch.zeros(1, device="cuda")
    reps = ctx.pick(20, 5)
    ref = x.double().sum().item()
    sms = ctx.dev.multiprocessor_count
    # The launch configuration is the user's choice: a few persistent grids and tile sizes, best reported.
    results = {}
    for blocks, T in ((sms * 8, 4096), (1024, 4096), (1024, 8192), (sms * 4, 8192), (sms * 16, 2048)):
        def fn(blocks=blocks, T=T):
            out.zero_()
            tt.launch(K.total, grid=blocks, args=(x, out, T))

        fn()
        if abs(out.item() - ref) > 1e-4 * abs(ref):
            raise RuntimeError(f"tegula sum is wrong: {out.item()} vs {ref} (grid {blocks}, T={T})")
        results[(blocks, T)] = _gbs(4 * n, torch_event_ms(fn, repeat=reps))
    (blocks, T), best = max(results.items(), key=lambda kv: kv[1])
    tried = ", ".join(f"{b}x{t}: {v:.0f}" for (b, t), v in results.items())
    rows = [row(W, "tegula", "sum_GBps", best, "GB/s", better="higher", bar=4100, ratio_vs=["torch"],
                note=f"2^{n.bit_length() - 1} fp32, persistent grid {blocks}, T={T}, incl. zeroing out; grids x T tried: {tried}")]
    rows += guarded(W, "torch", lambda: row(W, "torch", "sum_GBps", _gbs(4 * n, torch_event_ms(lambda: x.sum(), repeat=reps)),
                                            "GB/s", better="higher"))
    return rows


def _latency(ctx):
    torch = _torch()
    import tegula.tile as tt

    x = torch.randn(1024, device="cuda")
    out = torch.empty_like(x)
    firsts = []
    for trial in range(3):
        @tt.kernel
        def fresh(x, out, T: tt.Constant[int], k: tt.Constant[float]):
            i = tt.bid(0)
            tt.store(out, index=(i,), tile=tt.load(x, index=(i,), shape=(T,)) * k)

        t0 = time.perf_counter()
        tt.launch(fresh, grid=1, args=(x, out, 1024, 1.0 + trial + time.time() % 1))  # a new source each time
        torch.cuda.synchronize()
        firsts.append(time.perf_counter() - t0)
    rows = [row(W, "tegula", "first_launch_s", median(firsts), "s", bar=0.4,
                note="new kernel: parse + passes + codegen + NVRTC + load, median of 3")]
    import tile_kernels as K

    def loop(n):
        for _ in range(n):
            tt.launch(K.vadd, grid=1, args=(x, x, out, 1024))

    r = host_loop_us(loop, ctx.pick(20000, 2000), ctx.pick(5, 3), torch.cuda.synchronize)
    floor = ctx.results.get(("launch", "c++ cuLaunchKernel (floor)", "launch_us"))
    over = f"; {r['total_us'] - floor:.2f} us above the C++ floor {floor:.2f}" if floor else ""
    rows.append(row(W, "tegula", "cached_launch_us", r["total_us"], "us", ratio_vs=["triton"],
                    note=f"tt.launch of a 4-argument tile kernel on torch tensors (loop only {r['call_us']:.2f} us{over})"))
    if floor:
        rows.append(row(W, "tegula", "cached_launch_overhead_us", r["total_us"] - floor, "us", bar=3.0,
                        note="tt.launch above the bare C++ cuLaunchKernel loop of the same run"))
    args = (x, x, out, 1024)
    launcher = K.vadd._launcher

    def direct(n):
        for _ in range(n):
            launcher.launch(1, args, None)

    r = host_loop_us(direct, ctx.pick(20000, 2000), ctx.pick(5, 3), torch.cuda.synchronize)
    rows.append(row(W, "tegula", "launcher_direct_us", r["total_us"], "us",
                    note="the C++ TileLauncher called directly (what tt.launch adds is the difference)"))

    def triton_launch():
        import triton
        import triton.language as tl

        @triton.jit
        def k(a, b, o, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(o + offs, tl.load(a + offs) + tl.load(b + offs))

        def tloop(n):
            for _ in range(n):
                k[(1,)](x, x, out, 1024, BLOCK=1024)

        r = host_loop_us(tloop, ctx.pick(20000, 2000), ctx.pick(5, 3), torch.cuda.synchronize)
        return row(W, "triton", "cached_launch_us", r["total_us"], "us", note=f"loop only {r['call_us']:.2f} us")
    rows += guarded(W, "triton", triton_launch)
    return rows


def run(ctx):
    ctx.require_gpu()
    rows = []
    for impl, fn in (("chain", _chain), ("softmax", _softmax), ("layernorm", _layernorm), ("sum", _sum),
                     ("latency", _latency)):
        rows += guarded(W, f"tegula {impl}", lambda fn=fn: fn(ctx))
    return rows
