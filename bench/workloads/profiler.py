"""Profiler overhead (issue #7: at most 5%): wall time of a loop of 1000 tile-kernel launches (and the final
synchronisation) with and without tegula.profile() around it, for a launch-bound kernel (2^10 elements) and a
bandwidth-bound one (2^24 elements). The profile records every launch and times each kernel's first 16 and then
every 32nd launch with a pair of CUDA events (tegula.profile()'s default). The other rows split the cost: fewer timed
launches (timed_first=4, time_every 32 or 64), the host records alone (gpu_timing=False), and every launch timed
(time_every=1). The rows report the loop's slowdown in percent; the note adds what leaving the block costs (reading the
events into records), which happens once, after the profiled work."""
from __future__ import annotations

import time

from common import row
from timing import median

W = "profiler"
N_LAUNCHES = 1000


def _loop_s(launch, sync, tegula, kw):
    """(seconds of the loop and its sync, seconds of leaving the profile block); kw None: not profiled."""
    sync()
    if kw is not None:
        with tegula.profile(**kw) as p:
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


# (row label, tegula.profile arguments, bar in percent)
CONFIGS = (
    ("tegula", {}, 5.0),
    ("tegula (time_every=32, timed_first=4)", {"time_every": 32, "timed_first": 4}, None),
    ("tegula (time_every=64, timed_first=4)", {"time_every": 64, "timed_first": 4}, None),
    ("tegula (host records only, gpu_timing=False)", {"gpu_timing": False}, None),
    ("tegula (time_every=1)", {"time_every": 1}, None),
)


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
        rounds = ctx.pick(9, 3)
        # Rounds interleave the plain loop with the profiled ones, so a drifting machine moves them together.
        plain, runs = [], {label: [] for label, _, _ in CONFIGS}
        for _ in range(rounds):
            plain.append(_loop_s(launch, sync, tegula, None)[0])
            for label, kw, _ in CONFIGS:
                runs[label].append(_loop_s(launch, sync, tegula, kw))
        plain = median(plain)
        for label, kw, bar in CONFIGS:
            profiled, leave = median([b[0] for b in runs[label]]), median([b[1] for b in runs[label]])
            pct = 100.0 * (profiled - plain) / plain
            rows.append(row(W, label, f"overhead_pct_{n.bit_length() - 1}", pct, "%", **({"bar": bar} if bar else {}),
                            note=f"{N_LAUNCHES} launches of a 2^{n.bit_length() - 1}-element kernel: "
                                 f"{plain * 1e6 / N_LAUNCHES:.2f} us/launch plain, "
                                 f"{profiled * 1e6 / N_LAUNCHES:.2f} profiled; leaving the block "
                                 f"{leave * 1e3:.2f} ms"))
    return rows
