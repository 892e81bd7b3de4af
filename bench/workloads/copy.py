"""Memory copies: device-to-device 2 GiB (GB/s counting read + write) tegula vs torch and cupy; pageable H2D/D2H."""
from __future__ import annotations

import numpy as np

from common import Skip, guarded, row
from timing import cupy_event_ms, tegula_event_ms, torch_event_ms, wall_s

W = "copy"
CHUNK = 64 << 20  # random host bytes, repeated to fill the sources (never zeros)


def _random_chunk(nbytes):
    return np.random.default_rng(1234).integers(1, 256, size=min(nbytes, CHUNK), dtype=np.uint8)


def _gbs(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


def _d2d_tegula(ctx, nbytes, reps, chunk):
    tc, dev, s = ctx.tc, ctx.dev, ctx.stream
    src, dst = tc.Buffer.allocate(nbytes, stream=s), tc.Buffer.allocate(nbytes, stream=s)
    try:
        for off in range(0, nbytes, len(chunk)):
            src.copy_from_host(chunk[: nbytes - off], stream=s, offset=off)
        dst.fill(0, stream=s)
        ms = tegula_event_ms(lambda: dst.copy_from(src, stream=s), dev, s, repeat=reps)
        for off in (0, nbytes - (1 << 20)):  # spot-check the first and the last MiB
            got = np.empty(1 << 20, dtype=np.uint8)
            tc.Buffer.from_pointer(dst.handle + off, 1 << 20).copy_to_host(got, stream=s)
            want = chunk[(off + np.arange(1 << 20)) % len(chunk)]
            if not np.array_equal(got, want):
                raise RuntimeError(f"copy_from produced wrong bytes at offset {off}")
        return row(W, "tegula", "d2d_GBps", _gbs(2 * nbytes, ms), "GB/s", better="higher",
                   ratio_vs=["torch", "cupy"], note=f"{nbytes >> 20} MiB, {ms:.3f} ms")
    finally:
        src.close(stream=s)
        dst.close(stream=s)
        s.sync()
        dev.trim_pool()


def _d2d_torch(nbytes, reps, chunk):
    import torch

    if not torch.cuda.is_available():
        raise Skip("torch.cuda.is_available() is False")
    src = _torch_fill(nbytes, chunk)
    dst = torch.empty_like(src)
    ms = torch_event_ms(lambda: dst.copy_(src), repeat=reps)
    if not torch.equal(dst[: 1 << 20].cpu(), torch.from_numpy(chunk[: 1 << 20])):
        raise RuntimeError("torch copy_ produced wrong bytes")
    src = dst = None  # free before emptying the cache
    torch.cuda.empty_cache()
    return row(W, "torch", "d2d_GBps", _gbs(2 * nbytes, ms), "GB/s", better="higher", note="dst.copy_(src)")


def _torch_fill(nbytes, chunk):
    import torch

    src = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    piece = torch.from_numpy(chunk).cuda()
    for off in range(0, nbytes, len(chunk)):
        n = min(len(chunk), nbytes - off)
        src[off:off + n].copy_(piece[:n])
    return src


def _d2d_cupy(nbytes, reps, chunk):
    import cupy

    src = cupy.empty(nbytes, dtype=cupy.uint8)
    piece = cupy.asarray(chunk)
    for off in range(0, nbytes, len(chunk)):
        n = min(len(chunk), nbytes - off)
        src[off:off + n] = piece[:n]
    dst = cupy.empty_like(src)
    ms = cupy_event_ms(lambda: cupy.copyto(dst, src), repeat=reps)
    if not np.array_equal(cupy.asnumpy(dst[: 1 << 20]), chunk[: 1 << 20]):
        raise RuntimeError("cupy.copyto produced wrong bytes")
    src = dst = piece = None  # free before emptying the pool
    cupy.get_default_memory_pool().free_all_blocks()
    return row(W, "cupy", "d2d_GBps", _gbs(2 * nbytes, ms), "GB/s", better="higher", note="cupy.copyto")


def _host_tegula(ctx, nbytes, reps):
    tc, s = ctx.tc, ctx.stream
    host = np.resize(_random_chunk(nbytes), nbytes)
    back = np.empty_like(host)
    buf = tc.Buffer.allocate(nbytes, stream=s)
    try:
        h2d = wall_s(lambda: buf.copy_from_host(host, stream=s), s.sync, repeat=reps)
        d2h = wall_s(lambda: buf.copy_to_host(back, stream=s), s.sync, repeat=reps)
    finally:
        buf.close(stream=s)
        s.sync()
        ctx.dev.trim_pool()
    if not np.array_equal(host, back):
        raise RuntimeError("H2D/D2H round trip changed the bytes")
    return [row(W, "tegula", "h2d_pageable_GBps", nbytes / h2d / 1e9, "GB/s", better="higher", ratio_vs=["torch", "cupy"]),
            row(W, "tegula", "d2h_pageable_GBps", nbytes / d2h / 1e9, "GB/s", better="higher", ratio_vs=["torch", "cupy"])]


def _host_torch(nbytes, reps):
    import torch

    host = torch.from_numpy(np.resize(_random_chunk(nbytes), nbytes))
    back = torch.empty_like(host)
    dev = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    h2d = wall_s(lambda: dev.copy_(host), torch.cuda.synchronize, repeat=reps)
    d2h = wall_s(lambda: back.copy_(dev), torch.cuda.synchronize, repeat=reps)
    dev = None  # free before emptying the pool
    torch.cuda.empty_cache()
    return [row(W, "torch", "h2d_pageable_GBps", nbytes / h2d / 1e9, "GB/s", better="higher"),
            row(W, "torch", "d2h_pageable_GBps", nbytes / d2h / 1e9, "GB/s", better="higher")]


def _host_cupy(nbytes, reps):
    import cupy

    host = np.resize(_random_chunk(nbytes), nbytes)
    back = np.empty_like(host)
    dev = cupy.empty(nbytes, dtype=cupy.uint8)
    sync = cupy.cuda.Device().synchronize
    h2d = wall_s(lambda: dev.set(host), sync, repeat=reps)
    d2h = wall_s(lambda: dev.get(out=back), sync, repeat=reps)
    dev = None  # free before emptying the pool
    cupy.get_default_memory_pool().free_all_blocks()
    return [row(W, "cupy", "h2d_pageable_GBps", nbytes / h2d / 1e9, "GB/s", better="higher"),
            row(W, "cupy", "d2h_pageable_GBps", nbytes / d2h / 1e9, "GB/s", better="higher")]


SMALL = 1024  # float32 elements of each small upload (4 KiB)
UPLOADS = 200


def _small_uploads(upload, sync, reps):
    """Microseconds per upload of UPLOADS fresh 4 KiB NumPy arrays in a row, then one sync (median of reps)."""
    rng = np.random.default_rng(7)
    hosts = [rng.standard_normal(SMALL).astype(np.float32) for _ in range(UPLOADS)]
    keep = []
    s = wall_s(lambda: keep.append([upload(h) for h in hosts]), sync, repeat=reps)
    return s / UPLOADS * 1e6, keep[-1], hosts


def _small_rows(ctx, reps):
    import tegula.numpy as tnp

    us, got, hosts = _small_uploads(tnp.asarray, ctx.dev.sync, reps)
    if not all(np.array_equal(g.get(), h) for g, h in zip(got, hosts)):
        raise RuntimeError("tegula small uploads arrived wrong")
    return [row(W, "tegula", "h2d_small_us", us, "us", better="lower", ratio_vs=["torch", "cupy"],
                note=f"{UPLOADS} uploads of {SMALL * 4 >> 10} KiB NumPy arrays, then one sync (tnp.asarray; pinned slots, "
                     "no stream wait)")]


def _small_torch(reps):
    import torch

    us, _, _ = _small_uploads(lambda h: torch.from_numpy(h).to("cuda"), torch.cuda.synchronize, reps)
    return [row(W, "torch", "h2d_small_us", us, "us", better="lower", note="torch.from_numpy(x).to('cuda')")]


def _small_cupy(reps):
    import cupy

    us, _, _ = _small_uploads(cupy.asarray, cupy.cuda.Device().synchronize, reps)
    return [row(W, "cupy", "h2d_small_us", us, "us", better="lower", note="cupy.asarray(x)")]


def run(ctx):
    ctx.require_gpu()
    nbytes, reps = ctx.pick(2 << 30, 512 << 20), ctx.pick(20, 5)
    host_bytes, host_reps = ctx.pick(256 << 20, 64 << 20), ctx.pick(5, 2)
    chunk = _random_chunk(nbytes)
    rows = guarded(W, "tegula", lambda: _d2d_tegula(ctx, nbytes, reps, chunk))
    rows += guarded(W, "torch", lambda: _d2d_torch(nbytes, reps, chunk))
    rows += guarded(W, "cupy", lambda: _d2d_cupy(nbytes, reps, chunk))
    rows += guarded(W, "tegula", lambda: _host_tegula(ctx, host_bytes, host_reps))
    rows += guarded(W, "torch", lambda: _host_torch(host_bytes, host_reps))
    rows += guarded(W, "cupy", lambda: _host_cupy(host_bytes, host_reps))
    rows += guarded(W, "tegula small", lambda: _small_rows(ctx, 5))
    rows += guarded(W, "torch small", lambda: _small_torch(5))
    rows += guarded(W, "cupy small", lambda: _small_cupy(5))
    ctx.dev.set_current()
    return rows
