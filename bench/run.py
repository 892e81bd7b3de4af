"""The bench runner: runs bench/workloads/<name>.py (tegula vs anchors, one process), writes bench.json, prints a table.

    python3 bench/run.py [--out DIR] [--only NAME ...] [--quick] [--preset S|M|L|paper]
    python3 bench/run.py --print-only DIR/bench.json
"""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import platform
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Skip, failed, skipped  # noqa: E402

ORDER = ("startup", "launch", "copy", "tile")  # others found in workloads/ run after these, by name


class Context:
    """What a workload gets: options, and tegula's device and stream when a GPU is usable (else a reason)."""

    def __init__(self, quick, out):
        self.quick, self.out = quick, out
        self.results = {}  # (workload, impl, metric) -> value of the rows so far (later workloads use earlier floors)
        self.tc = self.dev = self.stream = None
        self.gpu_reason = None
        try:
            import tegula.core as tc

            self.tc = tc
        except Exception as e:  # noqa: BLE001
            self.gpu_reason = f"tegula.core not importable: {type(e).__name__}: {e}"
            return
        info = tc.driver_info()
        if not info.get("available"):
            first = (info.get("error") or "driver not available").splitlines()[0]
            self.gpu_reason = first.split("; tried")[0]
        elif not info.get("device_count"):
            self.gpu_reason = "no CUDA device: the driver reports 0 devices"
        else:
            try:
                self.dev = tc.Device(0)
                self.dev.set_current()
                self.stream = self.dev.create_stream()
            except Exception as e:  # noqa: BLE001
                self.dev = None
                self.gpu_reason = f"no usable CUDA device: {type(e).__name__}: {e}"

    def require_gpu(self):
        if self.dev is None:
            raise Skip(self.gpu_reason)

    def pick(self, full, quick):
        return quick if self.quick else full


def _versions():
    out = {"python": platform.python_version()}
    for dist in ("tegula", "numpy", "torch", "cuda-core", "cuda-python", "cuda-bindings", "triton", "nanobind"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    for dist in importlib.metadata.distributions():  # cupy ships as cupy, cupy-cuda12x, cupy-cuda13x, ...
        name = (dist.metadata["Name"] or "").lower()
        if name == "cupy" or name.startswith("cupy-cuda"):
            out[name] = dist.version
    return out


def _meta(ctx):
    meta = {"time": time.strftime("%Y-%m-%d %H:%M:%S"), "host": platform.node(), "quick": ctx.quick,
            "versions": _versions(), "gpu": None, "gpu_reason": ctx.gpu_reason}
    if ctx.tc is not None:
        info = ctx.tc.driver_info()
        meta["driver_version"] = info.get("version")
        meta["driver_path"] = info.get("path")
    if ctx.dev is not None:
        free, total = ctx.dev.memory_info()
        meta["gpu"] = {"name": ctx.dev.name, "arch": ctx.dev.arch, "sms": ctx.dev.multiprocessor_count,
                       "memory_gib": round(total / 2**30, 1)}
    return meta


def _workload_names():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads")
    found = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and not f.startswith("_"))
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


# Workloads whose first calls show the array VM (issue #26) and that wait for background compiles before they time
# steady state themselves; every other workload times fused kernels only, so its first runs wait for their compiles
# as before (tegula.numpy.background_compile(False)); TEGULA_BACKGROUND_COMPILE=0 is not overridden for these.
FIRST_RUN_WORKLOADS = ("npbench", "startup")


def run_workload(name, ctx):
    t0 = time.perf_counter()
    try:
        mod = importlib.import_module(f"workloads.{name}")
        try:
            import tegula.numpy as tnp

            tnp.background_compile(name in FIRST_RUN_WORKLOADS)
        except Exception:  # noqa: BLE001 - no extension: the workload says so itself
            pass
        rows = list(mod.run(ctx) or [])
        status = "ok"
    except Skip as e:
        rows, status = [skipped(name, "-", e)], "skipped"
    except Exception as e:  # noqa: BLE001 - one failing workload never stops the others
        traceback.print_exc()
        rows, status = [failed(name, "-", e)], "error"
    for r in rows:
        r.setdefault("workload", name)
    return rows, {"status": status, "seconds": round(time.perf_counter() - t0, 2)}


def add_ratios(rows):
    """For each tegula row with ratio_vs, stores tegula's advantage over each anchor (>1: tegula better)
    in the tegula row's 'ratios' and in the anchor row's 'tegula_advantage'."""
    index = {(r["workload"], r["metric"], r["impl"]): r for r in rows if r.get("value") is not None}
    for r in rows:
        if r.get("value") is None or not r.get("ratio_vs"):
            continue
        anchors = [r["ratio_vs"]] if isinstance(r["ratio_vs"], str) else r["ratio_vs"]
        r["ratios"] = {}
        for anchor in anchors:
            other = index.get((r["workload"], r["metric"], anchor))
            if other is None or not other["value"] or not r["value"]:
                continue
            adv = other["value"] / r["value"] if r.get("better", "lower") == "lower" else r["value"] / other["value"]
            r["ratios"][anchor] = round(adv, 3)
            other["tegula_advantage"] = round(adv, 3)
        if r.get("bar") is not None:
            ok = r["value"] <= r["bar"] if r.get("better", "lower") == "lower" else r["value"] >= r["bar"]
            r["bar_pass"] = bool(ok)
    for r in rows:  # bars on rows without anchors
        if r.get("value") is not None and r.get("bar") is not None and "bar_pass" not in r:
            ok = r["value"] <= r["bar"] if r.get("better", "lower") == "lower" else r["value"] >= r["bar"]
            r["bar_pass"] = bool(ok)


def _fmt(v):
    if v is None:
        return "-"
    a = abs(v)
    return f"{v:.3g}" if a < 1000 else f"{v:,.0f}"


def format_table(result):
    meta = result.get("meta", {})
    gpu = meta.get("gpu") or {}
    lines = [f"GPU: {gpu.get('name', 'none')} (sm_{gpu.get('arch', '?')})  driver {meta.get('driver_version')}  "
             f"{' '.join(f'{k}={v}' for k, v in meta.get('versions', {}).items())}"]
    if meta.get("gpu_reason"):
        lines.append(f"GPU skipped: {meta['gpu_reason']}")
    header = ("workload", "impl", "metric", "value", "tegula adv. (>1 better) / bar")
    table = []
    for r in result.get("rows", []):
        if r.get("value") is None:
            why = f"SKIPPED: {r['skipped']}" if "skipped" in r else f"ERROR: {r.get('error')}"
            table.append((r["workload"], r["impl"], "-", "-", why[:160]))
            continue
        extra = []
        if r.get("ratios"):
            extra.append(" ".join(f"{v:.2f}x vs {k}" for k, v in r["ratios"].items()))
        if "tegula_advantage" in r:
            extra.append(f"tegula {r['tegula_advantage']:.2f}x")
        if r.get("bar") is not None:
            sign = "<=" if r.get("better", "lower") == "lower" else ">="
            extra.append(f"bar {sign}{_fmt(r['bar'])}: {'PASS' if r.get('bar_pass') else 'FAIL'}")
        if r.get("note"):
            extra.append(f"({r['note']})")
        table.append((r["workload"], r["impl"], r["metric"], f"{_fmt(r['value'])} {r['unit']}", "  ".join(extra)))
    widths = [max(len(str(x[i])) for x in [header, *table]) for i in range(4)]
    for t in [header, *table]:
        lines.append(" | ".join(str(t[i]).ljust(widths[i]) for i in range(4)) + " | " + t[4])
    for name, w in result.get("workloads", {}).items():
        lines.append(f"# {name}: {w['status']} in {w['seconds']} s")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="bench_out", help="folder for bench.json (created)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="workloads to run (default: all)")
    p.add_argument("--quick", action="store_true", help="small sizes and few repeats")
    p.add_argument("--preset", choices=("S", "M", "L", "paper"), help="the npbench workload's NPBench preset "
                   "(default paper, S with --quick); same as TEGULA_NPBENCH_PRESET")
    p.add_argument("--print-only", metavar="JSON", help="print the table of an existing bench.json and exit")
    args = p.parse_args(argv)
    if args.print_only:
        with open(args.print_only) as f:
            print(format_table(json.load(f)))
        return 0
    if args.preset:
        os.environ["TEGULA_NPBENCH_PRESET"] = args.preset
    names = _workload_names()
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            p.error(f"unknown workload(s) {unknown}; known: {names}")
        names = [n for n in names if n in args.only]
    os.makedirs(args.out, exist_ok=True)
    ctx = Context(args.quick, args.out)
    result = {"meta": _meta(ctx), "rows": [], "workloads": {}}
    path = os.path.join(args.out, "bench.json")
    for name in names:
        print(f"== {name}", flush=True)
        rows, status = run_workload(name, ctx)
        result["rows"].extend(rows)
        result["workloads"][name] = status
        ctx.results.update({(r["workload"], r["impl"], r["metric"]): r["value"] for r in rows if r.get("value") is not None})
        for r in rows:
            print("  ", {k: v for k, v in r.items() if k not in ("traceback", "rounds_us")}, flush=True)
        add_ratios(result["rows"])
        with open(path + ".tmp", "w") as f:  # after every workload, so a timeout still leaves results
            json.dump(result, f, indent=1)
        os.replace(path + ".tmp", path)
    print(f"\nwrote {path}")
    try:  # the roofline of this run: SVG always, PNG when matplotlib is installed
        import roofline

        for p in roofline.write(result, args.out):
            print(f"wrote {p}")
    except Exception as e:  # noqa: BLE001 - a plot must not lose the measurements
        print(f"roofline plot failed: {type(e).__name__}: {e}")
    print()
    print(format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
