"""The profiler: `with tegula.profile() as p:` records every kernel launch (name, grid, block, shared memory, GPU
time from CUDA events, bytes moved when tegula knows them and so GB/s), every interpreted kernel run, JIT compile
(time, cache hit or miss), allocation, free, copy and library call (cuBLASLt, cuFFT, cuSOLVER) made inside the block.

    with tegula.profile() as p:
        run()
    print(p.table())                       # per kernel: calls, total/mean/min/max time, GB/s, share
    p.export_chrome_trace("trace.json")    # Perfetto / chrome://tracing: one event per launch on the GPU track

The block is also an NVTX range ("tegula.profile"), and `tegula.nvtx_range(name)` opens one of your own, so
Nsight Systems shows tegula's regions. GPU times come from a pair of timing events around a launch: around each
kernel's first 4 launches and then every 64th (`time_every=1` times every launch). A timing event costs host time
and keeps the GPU from overlapping one kernel's end with the next one's start, so timing every launch slows a
launch-bound loop by half; sampled, by a few percent. A kernel's total GPU time is then its timed launches' mean
times its calls (the table says "sampled"). Reading the events waits for the profiled work when the block ends. Kernels that libraries launch internally appear as one
library call each, timed the same way. `tegula profile script.py` runs a script under the profiler.
"""
from __future__ import annotations

import collections
import contextlib
import json

Record = collections.namedtuple(
    "Record", "kind name device grid block shared bytes start_us host_us gpu_start_us gpu_us detail")
Record.__doc__ = ("One recorded event. kind: launch, interpret, compile, alloc, free, copy or library; times in "
                  "microseconds (gpu_us and gpu_start_us are -1 when not timed on the GPU); bytes: moved by a "
                  "launch (0 when unknown), allocated, freed or copied; detail: a compile's cache outcome.")


class Profile:
    """What ran inside a `tegula.profile()` block (filled in when the block ends)."""

    def __init__(self, gpu_timing=True, time_every=64):
        self.gpu_timing = gpu_timing
        self.time_every = time_every
        self.records = []

    # ---- selections ---------------------------------------------------------------------------------------------
    def _kind(self, *kinds):
        return [r for r in self.records if r.kind in kinds]

    @property
    def launches(self):
        """Kernel launches on a GPU, and kernels run by the CPU interpreter."""
        return self._kind("launch", "interpret")

    @property
    def compiles(self):
        return self._kind("compile")

    @property
    def allocations(self):
        return self._kind("alloc", "free")

    @property
    def copies(self):
        return self._kind("copy")

    @property
    def library_calls(self):
        return self._kind("library")

    # ---- summaries ----------------------------------------------------------------------------------------------
    @staticmethod
    def time_us(r):
        """A record's duration: its GPU time when timed, else its host time."""
        return r.gpu_us if r.gpu_us >= 0 else r.host_us

    def summary(self):
        """Per (kind, name): calls, total/mean/min/max microseconds, bytes, GB/s, whether GPU-timed, and how many
        calls were timed (when launches were sampled, mean/min/max come from the timed ones and the total is the
        mean times the calls)."""
        groups = collections.OrderedDict()
        for r in self.launches + self.library_calls + self.copies:
            groups.setdefault((r.kind, r.name), []).append(r)
        rows = []
        for (kind, name), rs in groups.items():
            timed = [r for r in rs if r.gpu_us >= 0]
            t = [r.gpu_us for r in timed] if timed else [r.host_us for r in rs]
            mean = sum(t) / len(t)
            total = mean * len(rs)
            nbytes = sum(r.bytes for r in rs)
            rows.append({"kind": kind, "name": name, "calls": len(rs), "total_us": total, "mean_us": mean,
                         "min_us": min(t), "max_us": max(t), "bytes": nbytes,
                         "gbps": nbytes / (total * 1e3) if total > 0 and nbytes else None,
                         "gpu_timed": bool(timed), "timed_calls": len(timed)})
        return rows

    def table(self, sort_by="total_us", limit=30):
        """The summary as text, largest first, then compiles and memory traffic."""
        rows = sorted(self.summary(), key=lambda r: -r[sort_by] if isinstance(r[sort_by], (int, float)) else 0)
        grand = sum(r["total_us"] for r in rows) or 1.0
        width = max([len(r["name"]) for r in rows[:limit]] + [6])
        width = min(width, 60)
        lines = [f"{'kernel':<{width}}  {'kind':<9} {'calls':>6} {'total ms':>9} {'mean us':>9} {'min us':>8} "
                 f"{'max us':>8} {'GB/s':>7} {'share':>6}"]
        for r in rows[:limit]:
            name = r["name"] if len(r["name"]) <= width else r["name"][:width - 1] + "~"
            gbps = f"{r['gbps']:7.0f}" if r["gbps"] else f"{'':>7}"
            clock = "" if not r["gpu_timed"] or r["timed_calls"] == r["calls"] else \
                f" (sampled {r['timed_calls']}/{r['calls']})"
            clock = clock if r["gpu_timed"] else " (host)"
            lines.append(f"{name:<{width}}  {r['kind']:<9} {r['calls']:>6} {r['total_us'] / 1e3:>9.3f} "
                         f"{r['mean_us']:>9.2f} {r['min_us']:>8.2f} {r['max_us']:>8.2f} {gbps} "
                         f"{r['total_us'] / grand:>6.1%}{clock}")
        if len(rows) > limit:
            lines.append(f"... {len(rows) - limit} more")
        c = self.compiles
        if c:
            by = collections.Counter(r.detail for r in c)
            lines.append(f"JIT: {len(c)} compiles ({by.get('compiled', 0)} compiled, {by.get('disk', 0)} from the "
                         f"disk cache, {by.get('memory', 0)} from memory), {sum(r.host_us for r in c) / 1e3:.1f} ms")
        a = self._kind("alloc")
        f = self._kind("free")
        if a or f:
            lines.append(f"memory: {len(a)} allocations ({_human(sum(r.bytes for r in a))}), {len(f)} frees")
        cp = self.copies
        if cp:
            lines.append(f"copies: {len(cp)} ({_human(sum(r.bytes for r in cp))})")
        return "\n".join(lines)

    def __str__(self):
        return self.table()

    # ---- trace --------------------------------------------------------------------------------------------------
    def chrome_trace(self):
        """The Trace Event Format dict: launches on their GPU's track when timed (else the host's), compiles,
        copies, library calls and allocations on the host track."""
        events = [{"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "host"}}]
        devices = sorted({r.device for r in self.records if r.device >= 0 and r.gpu_us >= 0})
        for d in devices:
            events.append({"ph": "M", "name": "process_name", "pid": 1 + d, "tid": 0, "args": {"name": f"GPU {d}"}})
        for r in self.records:
            args = {"bytes": r.bytes}
            if r.kind == "launch":
                args.update(grid=list(r.grid), block=list(r.block), shared=r.shared)
            if r.detail:
                args["cache"] = r.detail
            if r.kind in ("alloc", "free"):
                events.append({"ph": "i", "s": "t", "name": r.kind, "cat": r.kind, "pid": 0, "tid": 0,
                               "ts": r.start_us, "args": args})
                continue
            if r.gpu_us >= 0:
                events.append({"ph": "X", "name": r.name, "cat": r.kind, "pid": 1 + r.device, "tid": 0,
                               "ts": r.gpu_start_us, "dur": r.gpu_us, "args": args})
            else:
                events.append({"ph": "X", "name": r.name, "cat": r.kind, "pid": 0, "tid": 0, "ts": r.start_us,
                               "dur": r.host_us, "args": args})
        return {"traceEvents": events, "displayTimeUnit": "ns"}

    def export_chrome_trace(self, path):
        """Writes chrome_trace() as JSON to `path` (open it in Perfetto or chrome://tracing)."""
        with open(path, "w") as f:
            json.dump(self.chrome_trace(), f)
        return path


def _human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


@contextlib.contextmanager
def profile(gpu_timing=True, time_every=64, timed_first=4):
    """Records what tegula runs inside the block into the Profile it yields (see the module notes): every launch,
    each kernel's first `timed_first` launches and then every `time_every`-th timed on the GPU (1: all). Profiles do
    not nest: a second one inside the first raises."""
    from . import _tegula

    if _tegula.profiler_active():
        raise RuntimeError("a tegula.profile() block is already recording; profiles do not nest")
    if int(time_every) < 1:
        raise ValueError(f"time_every must be 1 or more, got {time_every}")
    if int(timed_first) < 0:
        raise ValueError(f"timed_first must be 0 or more, got {timed_first}")
    p = Profile(gpu_timing, int(time_every))
    _tegula.nvtx_push("tegula.profile")
    _tegula.profiler_start(bool(gpu_timing), int(time_every), int(timed_first))
    try:
        yield p
    finally:
        try:
            p.records = [Record(*t) for t in _tegula.profiler_stop()]
        finally:
            _tegula.nvtx_pop()


@contextlib.contextmanager
def nvtx_range(name):
    """An NVTX range named `name` in tegula's domain around the block (for Nsight Systems)."""
    from . import _tegula

    _tegula.nvtx_push(str(name))
    try:
        yield
    finally:
        _tegula.nvtx_pop()
