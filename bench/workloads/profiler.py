"""Profiler overhead (issue #7: at most 5%): wall time of a loop of 1000 tile-kernel launches (and the final
synchronisation) with and without tegula.profile() around it, for a launch-bound kernel (2^10 elements) and a
bandwidth-bound one (2^24 elements). The profile records every launch and times each kernel's first 16 and then
every 32nd launch with a pair of CUDA events (tegula.profile()'s default); the `time_every=1` rows time every
launch. The rows report the loop's slowdown in percent; the note adds what leaving the block costs (reading the
events into records), which happens once, after the profiled work."""
from __future__ import annotations

import time

from common import row
from timing import median

W = "profiler"
N_LAUNCHES = 1000


def _loop_s(launch, sync, profiled, tegula, every=32):
    """(seconds of the loop and its sync, seconds of leaving the profile block)."""
    sync()
    if profiled:
        with tegula.profile(time_every=every) as p:
            t0 = time.perf_counter()
            for _ in range(N_LAUNCHES):
                launch()
            sync()
            t1 = time.perf_counter()
        t2 = time.perf_counter()
        n = len(p.launches)
        if n != N_LAUNCHES:
            raise RuntimeError(f"the profile recorded {n} launches, expected {N_LAUNCHES}")
        return t1 - t0, t2 - t1
    t0 = time.perf_counter()
    for _ in range(N_LAUNCHES):
        launch()
    sync()
    return time.perf_counter() - t0, 0.0


def run(ctx):
    ctx.require_gpu()
    import numpy as np

    import tegula
    import tegula.numpy as tnp
    import tegula.tile as tt

    @tt.kernel
    def scale(x, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * 2.0)

    rows = []
    for n in (1 << 10, 1 << 24):
        x = tnp.asarray(np.random.default_rng(1).random(n, dtype=np.float32), device="cuda")
        out = tnp.empty_like(x)
        grid = (-(-n // 1024),)

        def launch():
            tt.launch(scale, grid=grid, args=(x, out, 1024))

        def sync():
            tnp.synchronize()

        launch()
        rounds = ctx.pick(7, 3)
        plain = median([_loop_s(launch, sync, False, tegula)[0] for _ in range(rounds)])
        for every, impl, bar in ((32, "tegula", 5.0), (1, "tegula (time_every=1)", None)):
            both = [_loop_s(launch, sync, True, tegula, every) for _ in range(rounds)]
            profiled, leave = median([b[0] for b in both]), median([b[1] for b in both])
            pct = 100.0 * (profiled - plain) / plain
            rows.append(row(W, impl, f"overhead_pct_{n.bit_length() - 1}", pct, "%", **({"bar": bar} if bar else {}),
                            note=f"{N_LAUNCHES} launches of a 2^{n.bit_length() - 1}-element kernel: "
                                 f"{plain * 1e6 / N_LAUNCHES:.2f} us/launch plain, "
                                 f"{profiled * 1e6 / N_LAUNCHES:.2f} profiled; leaving the block "
                                 f"{leave * 1e3:.2f} ms"))
    return rows
