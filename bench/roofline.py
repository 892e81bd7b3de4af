"""The roofline of one bench run. Each throughput row (GB/s or TFLOP/s) becomes a point at its arithmetic
intensity, below ceilings measured in the same run:
- the memory ceiling is the best device-to-device copy (GB/s);
- the compute ceilings are the best dense bf16 and fp8 products (TFLOP/s).
The SVG needs nothing beyond Python; the PNG needs matplotlib (skipped, with a note, without it).

    python3 bench/roofline.py bench_out/bench.json [--out DIR]      # writes DIR/roofline.svg (and .png)

Intensities are FLOP per byte of DRAM traffic, from what each kernel must read and write (float32 unless said):
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re

# metric -> (FLOP per element, bytes per element): the minimum traffic of the kernel
ELEMENTWISE = {
    "chain_GBps": (6, 12),      # exp(-x*x)*y + 0.5*x: read x, y; write out
    "softmax_GBps": (5, 8),     # max, subtract, exp, sum, divide per element; read x, write out
    "layernorm_GBps": (8, 8),   # mean, variance, normalise, scale, shift; read x, write out
    "sum_GBps": (1, 4),         # one add per element read
    "cumsum_GBps": (1, 8),      # one add; read and write
}
DTYPE_BYTES = {"bfloat16": 2, "bf16": 2, "float16": 2, "fp16": 2, "float32": 4, "e4m3": 1, "fp8": 1}


def matmul_shape(metric):
    """(m, n, k, input bytes) from names like tflops_8192_bfloat16, tflops_4000x4100x3900_float16,
    relu_bias_tflops_8192_bf16 and fp8_e4m3_tflops_8192; None for other metrics."""
    if "tflops" not in metric:
        return None
    dims = re.search(r"(\d+)x(\d+)x(\d+)", metric)
    if dims:
        m, n, k = (int(d) for d in dims.groups())
    else:
        size = re.search(r"tflops_(\d+)", metric)
        if not size:
            return None
        m = n = k = int(size.group(1))
    item = next((b for name, b in DTYPE_BYTES.items() if name in metric), 2)
    return m, n, k, item


def points(rows):
    """[(label, impl, intensity FLOP/B, TFLOP/s)] and the ceilings {'memory GB/s': .., 'bf16 TFLOP/s': ..}."""
    ok = [r for r in rows if r.get("value") is not None]
    ceilings = {}
    copies = [r["value"] for r in ok if r.get("metric") == "d2d_GBps"]
    if copies:
        ceilings["memory"] = max(copies)
    for name, key in (("bf16", "tflops_8192_bfloat16"), ("fp8", "fp8_e4m3_tflops_8192")):
        vals = [r["value"] for r in ok if r.get("metric") == key]
        if vals:
            ceilings[name] = max(vals)
    out = []
    for r in ok:
        metric, unit = r.get("metric") or "", r.get("unit")
        if unit == "GB/s" and metric in ELEMENTWISE:
            flop, nbytes = ELEMENTWISE[metric]
            intensity = flop / nbytes
            out.append((f"{r['workload']}.{metric}", r["impl"], intensity, r["value"] * intensity / 1e3))
        elif unit == "TFLOP/s":
            shape = matmul_shape(metric)
            if shape:
                m, n, k, item = shape
                intensity = 2.0 * m * n * k / ((m * k + k * n) * item + m * n * 2)
                out.append((f"{r['workload']}.{metric}", r["impl"], intensity, r["value"]))
    return out, ceilings


def _short(label):
    """'tile.softmax_GBps' -> 'tile softmax'; 'matmul.tflops_8192_bfloat16' -> 'matmul 8192 bfloat16'."""
    workload, metric = label.split(".", 1)
    metric = metric.replace("_GBps", "").replace("tflops_", "").replace("_tflops", "").replace("_", " ")
    return f"{workload} {metric}"


def _roof(ceilings, intensity):
    mem = ceilings.get("memory")
    peak = max([v for k, v in ceilings.items() if k != "memory"], default=None)
    cands = [c for c in ((mem * intensity / 1e3) if mem else None, peak) if c]
    return min(cands) if cands else None


def write_svg(pts, ceilings, path, title):
    """A log-log roofline as SVG: ceilings as lines, tegula's points filled, anchors' hollow, labels on tegula's."""
    w, h, left, right, top, bottom = 960, 600, 70, 20, 40, 50
    xs = [p[2] for p in pts] or [1]
    ys = [p[3] for p in pts] or [1]
    x0, x1 = 10 ** math.floor(math.log10(min(xs + [0.1]))), 10 ** math.ceil(math.log10(max(xs + [1e4])))
    y0 = 10 ** math.floor(math.log10(min(ys + [0.1])))
    y1 = 10 ** math.ceil(math.log10(max(ys + list(v for k, v in ceilings.items() if k != "memory") + [10])))

    def X(v):
        return left + (math.log10(v) - math.log10(x0)) / (math.log10(x1) - math.log10(x0)) * (w - left - right)

    def Y(v):
        return h - bottom - (math.log10(v) - math.log10(y0)) / (math.log10(y1) - math.log10(y0)) * (h - top - bottom)

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>']
    for e in range(int(math.log10(x0)), int(math.log10(x1)) + 1):
        s.append(f'<line x1="{X(10**e):.1f}" y1="{top}" x2="{X(10**e):.1f}" y2="{h - bottom}" stroke="#eee"/>')
        s.append(f'<text x="{X(10**e):.1f}" y="{h - bottom + 15}" text-anchor="middle">1e{e}</text>')
    for e in range(int(math.log10(y0)), int(math.log10(y1)) + 1):
        s.append(f'<line x1="{left}" y1="{Y(10**e):.1f}" x2="{w - right}" y2="{Y(10**e):.1f}" stroke="#eee"/>')
        s.append(f'<text x="{left - 5}" y="{Y(10**e) + 4:.1f}" text-anchor="end">1e{e}</text>')
    s.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>')
    s.append(f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" text-anchor="middle">TFLOP/s</text>')
    mem = ceilings.get("memory")
    for name, peak in ceilings.items():
        if name == "memory":
            continue
        knee = peak * 1e3 / mem if mem else x0
        s.append(f'<line x1="{X(max(knee, x0)):.1f}" y1="{Y(peak):.1f}" x2="{X(x1):.1f}" y2="{Y(peak):.1f}" '
                 f'stroke="#c33" stroke-width="2"/>')
        s.append(f'<text x="{X(x1) - 4:.1f}" y="{Y(peak) - 5:.1f}" text-anchor="end" fill="#c33">{name} '
                 f'{peak:.0f} TFLOP/s (measured)</text>')
    if mem:
        top_peak = max([v for k, v in ceilings.items() if k != "memory"], default=y1)
        xa, xb = x0, min(x1, top_peak * 1e3 / mem)
        s.append(f'<line x1="{X(xa):.1f}" y1="{Y(max(mem * xa / 1e3, y0)):.1f}" x2="{X(xb):.1f}" '
                 f'y2="{Y(mem * xb / 1e3):.1f}" stroke="#36c" stroke-width="2"/>')
        s.append(f'<text x="{X(xa) + 6:.1f}" y="{Y(max(mem * xa / 1e3, y0)) - 6:.1f}" fill="#36c">'
                 f'memory {mem:.0f} GB/s (copy, measured)</text>')
    for label, impl, x, y in pts:
        ours = impl.startswith("tegula")
        s.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="{5 if ours else 4}" '
                 f'fill="{"#2a2" if ours else "none"}" stroke="{"#2a2" if ours else "#666"}">'
                 f'<title>{impl}: {label}, {y:.3g} TFLOP/s at {x:.3g} FLOP/B</title></circle>')
        if ours and impl == "tegula":
            s.append(f'<text x="{X(x) + 7:.1f}" y="{Y(y) + 4:.1f}">{_short(label)}</text>')
    s.append(f'<circle cx="{left + 12}" cy="{top + 12}" r="5" fill="#2a2"/><text x="{left + 22}" y="{top + 16}">tegula'
             f'</text><circle cx="{left + 82}" cy="{top + 12}" r="4" fill="none" stroke="#666"/>'
             f'<text x="{left + 92}" y="{top + 16}">anchors (torch, CuPy, Triton, cuBLAS)</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s))
    return path


def write_png(pts, ceilings, path, title):
    """The same plot through matplotlib; returns None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(10, 6.2), dpi=110)
    xs = [p[2] for p in pts] + [0.1, 1e4]
    grid = [10 ** (math.log10(min(xs)) + i * (math.log10(max(xs)) - math.log10(min(xs))) / 200) for i in range(201)]
    mem = ceilings.get("memory")
    for name, peak in ceilings.items():
        if name == "memory":
            continue
        roof = [min(peak, mem * x / 1e3) if mem else peak for x in grid]
        ax.plot(grid, roof, color="#c33" if name == "bf16" else "#e90", lw=2,
                label=f"{name} roof: {peak:.0f} TFLOP/s, memory {mem:.0f} GB/s (measured)" if mem else name)
    n_labels = 0
    for label, impl, x, y in pts:
        ours = impl.startswith("tegula")
        ax.scatter([x], [y], s=40 if ours else 28, facecolors="#2a2" if ours else "none",
                   edgecolors="#2a2" if ours else "#555", zorder=3)
        if impl == "tegula":
            ax.annotate(_short(label), (x, y), textcoords="offset points", xytext=(6, 8 if n_labels % 2 else -10),
                        fontsize=7)
            n_labels += 1
    ax.scatter([], [], facecolors="#2a2", edgecolors="#2a2", label="tegula")
    ax.scatter([], [], facecolors="none", edgecolors="#555", label="anchors (torch, CuPy, Triton, cuBLAS)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title(title)
    ax.grid(True, which="major", color="#eee")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def write(result, out_dir):
    """Writes roofline.svg (and roofline.png with matplotlib) for a bench.json dict; returns the paths."""
    pts, ceilings = points(result.get("rows", []))
    if not pts:
        return []
    meta = result.get("meta", {})
    gpu = meta.get("gpu") or {}
    name = gpu.get("name", "GPU") if isinstance(gpu, dict) else str(gpu)
    title = f"tegula and its anchors on the roofline: {name}, {meta.get('time', '')[:10]}".strip(", ")
    paths = [write_svg(pts, ceilings, os.path.join(out_dir, "roofline.svg"), title)]
    png = write_png(pts, ceilings, os.path.join(out_dir, "roofline.png"), title)
    if png:
        paths.append(png)
    return paths


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("json")
    p.add_argument("--out", default=None, help="folder for roofline.svg/.png (default: next to the JSON)")
    args = p.parse_args()
    with open(args.json) as f:
        result = json.load(f)
    out = args.out or os.path.dirname(os.path.abspath(args.json))
    os.makedirs(out, exist_ok=True)
    for path in write(result, out):
        print(path)


if __name__ == "__main__":
    main()
