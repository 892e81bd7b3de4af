"""NPBench (bench/npbench_suite.py): every program with only its import changed, against NPBench's own CuPy version,
in one process. Per program: the first call (compiles included) and then the steady state, min and median of
`repeat` calls, each on fresh device copies of the inputs (outside the timing) and ending with every output forced
(tegula's materialised, then a device synchronise); validated against NumPy as NPBench validates. A per-program
cap keeps one slow program from eating the run. Prints a line per program; rows: per-program ms and the ratio to
CuPy, then the geometric mean over the programs both finish, and an SVG (PNG too with matplotlib) of the ratios.

Environment: TEGULA_NPBENCH_PRESET (S, M, L or paper; default paper, S with --quick), TEGULA_NPBENCH_ONLY (names,
comma-separated), TEGULA_NPBENCH_CAP (seconds a program may take per framework; default 60), TEGULA_NPBENCH_REF_CAP
(seconds NumPy's reference may take; default the cap; 0: not run; past it, tegula is validated against CuPy's
outputs)."""
from __future__ import annotations

import math
import os
import signal
import statistics
import sys
import time
import warnings

from common import Skip, row

W = "npbench"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Cap(Exception):
    pass


def _alarm(*_):
    raise _Cap()


def _frameworks():
    import numpy as np

    import tegula.core as tc
    import tegula.numpy as tnp

    dev = tc.Device(0)

    def force_tegula(outs):
        for o in outs:
            if isinstance(o, tnp.ndarray):
                o._materialize()
        dev.sync()

    fws = {"tegula": (tnp.asarray, force_tegula)}
    try:
        import cupy as cp

        fws["cupy"] = (cp.asarray, lambda outs: cp.cuda.Device().synchronize())
    except Exception as e:  # noqa: BLE001
        print(f"  cupy not available: {type(e).__name__}: {e}")
    return np, fws


def _time(suite, program, framework, data, copy, force, repeat, cap):
    """(first call s, [steady s], outputs of the first call) within `cap` seconds, else raises _Cap. At least one
    steady call always runs (a first call is compiles and all: it never stands in for the steady state)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(cap)
    try:
        fn = program.implementation(framework)
        args = program.arguments(data, copy)
        force([a for a in args])
        t = time.perf_counter()
        out = program.outputs(fn(*args), args)
        force(out)
        first = time.perf_counter() - t
        if framework == "tegula":  # the first call ran on the array VM where kernels compiled: time them built
            import tegula.numpy as tnp

            tnp.wait_for_compiles()
        steady, spent = [], first
        for _ in range(repeat):
            if spent > cap / 2 and steady:
                break
            args = program.arguments(data, copy)
            force([a for a in args])
            t = time.perf_counter()
            o = program.outputs(fn(*args), args)
            force(o)
            steady.append(time.perf_counter() - t)
            spent += steady[-1]
        return first, steady, out
    finally:
        signal.alarm(0)


def _plot(ratios, out_dir):
    """ratios: {program: tegula speed-up over CuPy}. An SVG always (and a PNG with matplotlib): sorted bars on a
    log axis with the 1x line."""
    items = sorted(ratios.items(), key=lambda kv: kv[1])
    if not items:
        return []
    paths = []
    w, h, left, top, bar = 900, 40 + 16 * len(items), 190, 20, 12
    lo, hi = min(0.1, min(v for _, v in items)), max(10.0, max(v for _, v in items))
    span = math.log10(hi) - math.log10(lo)

    def x(v):
        return left + (w - left - 20) * (math.log10(v) - math.log10(lo)) / span

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">']
    for i, (name, v) in enumerate(items):
        y = top + 16 * i
        color = "#2a7" if v >= 1 else "#c44"
        svg.append(f'<text x="{left - 6}" y="{y + bar - 2}" text-anchor="end">{name}</text>')
        x0, x1 = sorted((x(1.0), x(v)))
        svg.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(1.0, x1 - x0):.1f}" height="{bar}" fill="{color}"/>')
        svg.append(f'<text x="{x(v) + (4 if v >= 1 else -4):.1f}" y="{y + bar - 2}" '
                   f'text-anchor="{"start" if v >= 1 else "end"}">{v:.2f}x</text>')
    svg.append(f'<line x1="{x(1):.1f}" y1="{top - 6}" x2="{x(1):.1f}" y2="{h - 10}" stroke="black"/>')
    svg.append(f'<text x="{x(1) + 3:.1f}" y="{top - 8}">1x = CuPy (log scale; right of it tegula is faster)</text>')
    svg.append("</svg>")
    path = os.path.join(out_dir, "npbench_ratios.svg")
    with open(path, "w") as f:
        f.write("\n".join(svg))
    paths.append(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 0.25 * len(items) + 1))
        ax.barh([k for k, _ in items], [v for _, v in items], color=["#2a7" if v >= 1 else "#c44" for _, v in items],
                left=0)
        ax.set_xscale("log")
        ax.axvline(1.0, color="black")
        ax.set_xlabel("tegula speed-up over CuPy (log scale)")
        fig.tight_layout()
        png = os.path.join(out_dir, "npbench_ratios.png")
        fig.savefig(png, dpi=100)
        plt.close(fig)
        paths.append(png)
    except Exception:  # noqa: BLE001 - no matplotlib: the SVG is the picture
        pass
    return paths


def run(ctx):
    import npbench_suite as suite

    if ctx.dev is None:
        raise Skip(ctx.gpu_reason or "no GPU")
    where = suite.root()
    if where is None:
        raise Skip("NPBench is not here: copy ../shared/npbench into .npbench (ignored) and carry it, or set "
                   "TEGULA_NPBENCH")
    preset = os.environ.get("TEGULA_NPBENCH_PRESET", "S" if ctx.quick else "paper")
    only = [n for n in os.environ.get("TEGULA_NPBENCH_ONLY", "").split(",") if n]
    cap = int(os.environ.get("TEGULA_NPBENCH_CAP", "60"))
    ref_cap = int(os.environ.get("TEGULA_NPBENCH_REF_CAP", str(cap)))
    repeat = ctx.pick(5, 2)
    np, fws = _frameworks()
    rows, ratios = [], {}
    for name in only or suite.names(where):
        program = suite.Program(name, where)
        try:
            data = program.data(preset)
            if ref_cap <= 0:
                raise _Cap()  # NumPy's reference not asked for
            signal.signal(signal.SIGALRM, _alarm)
            signal.alarm(ref_cap)
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    ref, _ = suite.run(program, "numpy", data, np.copy)
            finally:
                signal.alarm(0)
        except _Cap:
            ref = None  # NumPy itself past the cap: timed, not validated
        except Exception as e:  # noqa: BLE001
            print(f"  {name:26s} inputs failed: {type(e).__name__}: {e}", flush=True)
            continue
        timed = {}  # framework -> (first s, [steady s], outputs) or the line that says why not
        for fw, (copy, force) in fws.items():
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    timed[fw] = _time(suite, program, fw, data, copy, force, repeat, cap)
            except _Cap:
                timed[fw] = f"{fw} past the {cap} s cap"
                rows.append({"workload": W, "impl": fw, "metric": f"{name}_ms", "value": None,
                             "skipped": f"past the {cap} s cap"})
            except Exception as e:  # noqa: BLE001
                timed[fw] = f"{fw} FAILED {type(e).__name__}: {str(e)[:80]}"
                rows.append({"workload": W, "impl": fw, "metric": f"{name}_ms", "value": None,
                             "error": f"{type(e).__name__}: {str(e)[:200]}"})
        # NumPy past its cap: tegula is checked against CuPy's outputs instead (NPBench's own GPU version), and
        # the row says so; CuPy's own row is then the reference, not validated.
        against = "NumPy"
        if ref is None and isinstance(timed.get("cupy"), tuple) and timed["cupy"][2]:
            ref, against = [suite.to_host(o) for o in timed["cupy"][2]], "CuPy"
        no_numpy = "NumPy not run" if ref_cap <= 0 else f"NumPy past its {ref_cap} s cap"
        steady = {}
        line = [f"{name:26s}"]
        for fw, got in timed.items():
            if isinstance(got, str):
                line.append(got)
                continue
            first, times, out = got
            if fw == "cupy" and against == "CuPy":
                unchecked = f"the reference ({no_numpy})"
            elif fw == "cupy" and not out and ref:  # NPBench's CuPy correlation lacks its return: nothing to check
                unchecked = "NPBench's CuPy version returns nothing"
            else:
                unchecked = None if ref is not None else no_numpy
            why = suite.validate(program, ref, out) if unchecked is None else None
            best, med = min(times), statistics.median(times)
            if why is None:
                steady[fw] = best
            line.append(f"{fw} {best * 1e3:9.2f} ms (first {first * 1e3:8.1f}){' INVALID: ' + why if why else ''}")
            rows.append(row(W, fw, f"{name}_ms", best * 1e3, "ms", better="lower",
                            ratio_vs=["cupy"] if fw == "tegula" else None,
                            note=f"preset {preset}; median {med * 1e3:.2f} ms; first call {first * 1e3:.1f} ms"
                                 + (f"; validated against {against}"
                                    if unchecked is None and against != "NumPy" else "")
                                 + (f"; not validated: {unchecked}" if unchecked else "")
                                 + (f"; INVALID: {why}" if why else "")))
        if "tegula" in steady and "cupy" in steady:
            ratios[name] = steady["cupy"] / steady["tegula"]
            line.append(f"{ratios[name]:.2f}x")
        print("  " + "  ".join(line), flush=True)
    if ratios:
        geo = math.exp(sum(math.log(v) for v in ratios.values()) / len(ratios))
        slow = sorted(k for k, v in ratios.items() if v < 0.9)
        rows.append(row(W, "tegula", "geomean_speedup_vs_cupy", geo, "x", better="higher", bar=2.5,
                        note=f"{len(ratios)} programs both finished and validated at preset {preset}; "
                             f"{len(slow)} slower than 0.9x CuPy: {', '.join(slow) or 'none'}"))
        for p in _plot(ratios, ctx.out):
            print(f"  wrote {p}")
    return rows
