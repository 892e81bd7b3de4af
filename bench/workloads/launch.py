"""Launch overhead from Python: an empty 4-argument kernel, grid 1 x block 32, tegula vs the C++ floor and anchors."""
from __future__ import annotations

from common import Skip, guarded, import_cuda_core, row
from timing import host_loop_us, median

W = "launch"
SRC = 'extern "C" __global__ void k4(float* a, const float* b, int n, float s) {}\n'
ANCHORS = ["cuda.core", "cupy", "torch", "triton"]
BURST = 500


def _row(impl, r, **extra):
    # The value is host time per launch call, in bursts of BURST launches (fewer than the driver's
    # queue holds, so no call waits for the GPU to retire earlier kernels); with the final sync
    # amortised over the burst in the note.
    note = extra.pop("note", None)
    incl = f"{r['total_us']:.2f} us incl. sync per {BURST}-launch burst"
    return row(W, impl, "launch_us", r["call_us"], "us", total_us=r["total_us"], rounds_us=r["rounds_us"],
               note=f"{incl}; {note}" if note else incl, **extra)


def _tegula(ctx, n, rounds):
    from tegula import _tegula

    tc, s = ctx.tc, ctx.stream
    k = tc.Program(SRC).compile().get_kernel("k4")
    a, b = tc.Buffer.allocate(128, stream=s), tc.Buffer.allocate(128, stream=s)
    cfg = tc.LaunchConfig(grid=(1,), block=(32,))
    _tegula._time_bare_launches(s, cfg, k, a, b, 32, 1.5, n=1000)
    floors = [_tegula._time_bare_launches(s, cfg, k, a, b, 32, 1.5, n=n) for _ in range(rounds)]
    floor = {"call_us": median([f[0] for f in floors]), "total_us": median([f[1] for f in floors]),
             "rounds_us": [f[1] for f in floors]}
    launch = tc.launch

    def loop(m):
        for _ in range(m):
            launch(s, cfg, k, a, b, 32, 1.5)

    r = host_loop_us(loop, n, rounds, s.sync)
    over_total, over_call = r["total_us"] - floor["total_us"], r["call_us"] - floor["call_us"]
    return [_row("c++ cuLaunchKernel (floor)", floor),
            _row("tegula", r, bar=2.0, ratio_vs=ANCHORS),
            row(W, "tegula", "overhead_above_floor_us", over_call, "us", note=f"{over_total:.2f} us incl. sync")]


def _cuda_core(ctx, n, rounds):
    import numpy as np

    cc = import_cuda_core()
    dev = cc.Device(0)
    dev.set_current()
    s = dev.create_stream()
    prog = cc.Program(SRC, code_type="c++", options=cc.ProgramOptions(std="c++17", arch=f"sm_{dev.arch}"))
    k = prog.compile("cubin").get_kernel("k4")
    a, b = dev.allocate(128, stream=s), dev.allocate(128, stream=s)
    args = (a, b, np.int32(32), np.float32(1.5))
    launch = cc.launch
    try:
        cfg = cc.LaunchConfig(grid=1, block=32)
        launch(s, cfg, k, *args)

        def loop(m):
            for _ in range(m):
                launch(s, cfg, k, a, b, args[2], args[3])
    except TypeError:  # the first cuda.core releases: launch(kernel, config-with-stream, *args)
        cfg = cc.LaunchConfig(grid=1, block=32, stream=s)
        launch(k, cfg, *args)

        def loop(m):
            for _ in range(m):
                launch(k, cfg, a, b, args[2], args[3])

    return _row("cuda.core", host_loop_us(loop, n, rounds, s.sync))


def _cupy(ctx, n, rounds):
    import cupy
    import numpy as np

    k = cupy.RawKernel(SRC, "k4")
    a, b = cupy.zeros(32, dtype=cupy.float32), cupy.zeros(32, dtype=cupy.float32)
    grid, block, args = (1,), (32,), (a, b, np.int32(32), np.float32(1.5))

    def loop(m):
        for _ in range(m):
            k(grid, block, args)

    return _row("cupy", host_loop_us(loop, n, rounds, cupy.cuda.Device().synchronize), note="RawKernel")


def _torch(ctx, n, rounds):
    import torch

    if not torch.cuda.is_available():
        raise Skip("torch.cuda.is_available() is False")
    x = torch.arange(32, dtype=torch.float32, device="cuda")
    y = torch.empty_like(x)
    add = torch.add

    def loop(m):
        for _ in range(m):
            add(x, 1, out=y)

    rows = [_row("torch", host_loop_us(loop, n, rounds, torch.cuda.synchronize), note="torch.add(x, 1, out=y), 32 el.")]
    if ctx.dev is not None:  # tegula's launch with torch tensors as the pointer arguments (the interop path)
        tc, s = ctx.tc, ctx.stream
        k = tc.Program(SRC).compile().get_kernel("k4")
        cfg, launch = tc.LaunchConfig(grid=(1,), block=(32,)), tc.launch

        def tloop(m):
            for _ in range(m):
                launch(s, cfg, k, y, x, 32, 1.5)

        rows += guarded(W, "tegula (torch args)", lambda: _row("tegula (torch args)", host_loop_us(tloop, n, rounds, s.sync)))
    return rows


def _triton(ctx, n, rounds):
    import torch
    import triton

    if not torch.cuda.is_available():
        raise Skip("torch.cuda.is_available() is False (triton launches on torch tensors)")

    @triton.jit
    def k4(a, b, n, s):
        pass

    x = torch.zeros(32, dtype=torch.float32, device="cuda")
    y = torch.zeros(32, dtype=torch.float32, device="cuda")
    launcher = k4[(1,)]
    launcher(x, y, 32, 1.5)  # compiles
    torch.cuda.synchronize()

    def loop(m):
        for _ in range(m):
            launcher(x, y, 32, 1.5)

    return _row("triton", host_loop_us(loop, n, rounds, torch.cuda.synchronize), note=f"triton {triton.__version__}")


def run(ctx):
    ctx.require_gpu()
    n, rounds = BURST, ctx.pick(41, 11)
    rows = guarded(W, "tegula", lambda: _tegula(ctx, n, rounds))
    for impl, fn in (("cuda.core", _cuda_core), ("cupy", _cupy), ("torch", _torch), ("triton", _triton)):
        rows += guarded(W, impl, lambda: fn(ctx, n, rounds))
        ctx.dev.set_current()  # anchors may change the current context; tegula's is the primary one too
    return rows
