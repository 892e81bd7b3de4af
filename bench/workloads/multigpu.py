"""Beyond one GPU (issue #10): all-reduce of 1 GiB float32 across every GPU of the host through
tegula.core.Communicator, against NCCL driven by torch (torch.cuda.nccl.all_reduce, the same library in the same
process): bus bandwidth (algorithm bandwidth x 2(n-1)/n), bar >= 80% of torch's; and a dask.array matmul over
tegula chunks on two GPUs against one. Both need two GPUs or more: on one GPU the rows say so."""
from __future__ import annotations

import time

from common import Skip, guarded, row, torch_cuda as _torch
from timing import wall_s

W = "multigpu"


def _gpus(ctx):
    ctx.require_gpu()
    n = ctx.tc.device_count()
    if n < 2:
        raise Skip(f"needs two GPUs or more; this machine has {n} (nvidia-h200-x2 or larger)")
    return n


def _all_reduce(ctx):
    n = _gpus(ctx)
    torch = _torch()
    import tegula.core as tc
    import tegula.numpy as tnp

    elems = (1 << 30) // 4
    ts = [torch.rand(elems, device=f"cuda:{d}") for d in range(n)]
    parts = [tnp.asarray(t) for t in ts]
    comm = tc.Communicator(list(range(n)))
    reps = ctx.pick(10, 3)

    def sync():
        for d in range(n):
            torch.cuda.synchronize(d)

    out = comm.all_reduce(parts)
    want = sum(t[:1000].double().cpu() for t in ts)
    got = torch.as_tensor(out[n - 1], device=f"cuda:{n - 1}")[:1000].double().cpu()
    if not torch.allclose(got, want, rtol=1e-5):
        raise RuntimeError("tegula all_reduce is wrong")
    busbw = lambda ms: (1 << 30) / (ms * 1e-3) / 1e9 * 2 * (n - 1) / n  # noqa: E731
    rows = [row(W, "tegula", "all_reduce_busbw_GBps", busbw(1e3 * wall_s(lambda: comm.all_reduce(parts), sync, repeat=reps)),
                "GB/s", better="higher", ratio_vs=["torch (NCCL)"], note=f"1 GiB float32 over {n} GPUs")]

    def torch_row():
        import torch.cuda.nccl as nccl

        return row(W, "torch (NCCL)", "all_reduce_busbw_GBps",
                   busbw(1e3 * wall_s(lambda: nccl.all_reduce(ts), sync, repeat=reps)), "GB/s", better="higher")
    rows += guarded(W, "torch (NCCL)", torch_row)
    if len(rows) == 2 and "value" in rows[1] and rows[1]["value"]:
        rows[0]["bar"] = 0.8 * rows[1]["value"]
    return rows


def _dask_matmul(ctx):
    """C = A @ B with A in row blocks spread over the GPUs (tegula.dask.from_array(devices=)) and B copied to each
    GPU once: each task multiplies one row block on its own GPU; dask's threaded scheduler, one thread per GPU."""
    n = _gpus(ctx)
    import dask
    import numpy as np

    import tegula.dask as tdask
    import tegula.numpy as tnp

    size, rows = 16384, 2048
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((size, size), dtype=np.float32), rng.standard_normal((size, size), dtype=np.float32)

    def timed(gpus):
        devs = list(range(gpus))
        bs = {d: tnp.asarray(b, device=f"cuda:{d}") for d in devs}
        A = tdask.from_array(a, chunks=(rows, size), devices=devs)
        C = A.map_blocks(lambda blk: blk @ bs[blk._device_id], dtype=np.float32)
        with dask.config.set(scheduler="threads", num_workers=gpus):
            C.sum().compute()
            t0 = time.perf_counter()
            s = float(C.sum().compute())
            return time.perf_counter() - t0, s

    one, s1 = timed(1)
    two, s2 = timed(min(2, n))
    if not abs(s1 - s2) <= 1e-3 * abs(s1) + 1e-2 * size:
        raise RuntimeError(f"the 1- and 2-GPU sums differ: {s1} vs {s2}")
    tflops = lambda s: 2 * size ** 3 / s / 1e12  # noqa: E731
    return [row(W, "tegula + dask (2 GPUs)", "matmul_tflops", tflops(two), "TFLOP/s", better="higher",
                ratio_vs=["tegula + dask (1 GPU)"],
                note=f"{size}^2 float32 (TF32 off), row blocks of {rows}, host-to-GPU copies included; 2 GPUs "
                     f"{one / two:.2f}x one"),
            row(W, "tegula + dask (1 GPU)", "matmul_tflops", tflops(one), "TFLOP/s", better="higher")]


def run(ctx):
    return guarded(W, "tegula all_reduce", lambda: _all_reduce(ctx)) + guarded(W, "tegula dask",
                                                                            lambda: _dask_matmul(ctx))
