"""Registers and spills of every fused array kernel NPBench's programs build (#24: "ptxas: 0 bytes spilled for every
fused kernel that NPBench and the bench produce"), found without a GPU: each program at a preset on the CPU
interpreter (which runs the GPU's very kernels) with the engine's kernel record on, then each distinct kernel's CUDA
compiled for sm_90 by NVRTC with ptxas's -v report (what tegula.explain(...).resources reads). Prints the programs'
kernel counts, the largest register counts, and every kernel that spills (its program, registers, bytes).
    python3 bench/probe_spills.py [PRESET] [name,name...]
    python3 bench/probe_spills.py bench          (the numpy bench workload's chain, Black-Scholes and softmax)
"""
from __future__ import annotations

import os
import sys
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import npbench_suite as S  # noqa: E402

import tegula.numpy as tnp  # noqa: E402
from tegula import _explain, _tegula  # noqa: E402


def kernels_of(program, preset):
    data = program.data(preset)
    fn = program.implementation("tegula")
    _tegula.array_record_kernels(True)
    try:
        args = program.arguments(data, tnp.asarray)
        for o in program.outputs(fn(*args), args):
            if isinstance(o, tnp.ndarray):
                o._materialize()
    finally:
        _tegula.array_record_kernels(False)
    return _tegula.array_recorded_translations(90)


class _BenchPrograms:
    """The numpy bench workload's expressions (bench/workloads/numpy.py) as programs of this probe: its fused chain,
    Black-Scholes (both outputs, one kernel), softmax, at small sizes (the kernels are the same at every size that
    takes their tile class)."""

    @staticmethod
    def translations(name):
        import numpy as np

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from workloads.numpy import black_scholes

        rng = np.random.default_rng(0)
        _tegula.array_record_kernels(True)
        try:
            if name == "chain":
                x, y = (tnp.asarray(rng.standard_normal(1 << 16).astype(np.float32)) for _ in range(2))
                (tnp.exp(-x * x) * y + 0.5 * x)._materialize()
            elif name == "black_scholes":
                s, k, t = (tnp.asarray((rng.random(1 << 16) * 50 + 10).astype(np.float32)) for _ in range(3))
                call, put = black_scholes(tnp, s, k, t)
                call._materialize()
                put._materialize()
            elif name == "softmax":
                x = tnp.asarray(rng.standard_normal((256, 4096)).astype(np.float32))
                e = tnp.exp(x - x.max(1, keepdims=True))
                (e / e.sum(1, keepdims=True))._materialize()
        finally:
            _tegula.array_record_kernels(False)
        return _tegula.array_recorded_translations(90)


BENCH = ("chain", "black_scholes", "softmax")


def main():
    preset = sys.argv[1] if len(sys.argv) > 1 else "S"
    if preset == "bench":  # the numpy bench workload's expressions
        names = list(BENCH)
    else:
        names = sys.argv[2].split(",") if len(sys.argv) > 2 else S.names()
    tnp.background_compile(False)
    seen, spilled, top = set(), [], []
    for name in names:
        try:
            translations = (_BenchPrograms.translations(name) if preset == "bench"
                            else kernels_of(S.Program(name), preset))
        except Exception as e:  # noqa: BLE001
            print(f"{name:24s} FAILED: {type(e).__name__}: {e}", flush=True)
            continue
        new = 0
        for t in translations:
            if t.cubin_key in seen:
                continue
            seen.add(t.cubin_key)
            new += 1
            info = t.compile_image("cubin_with_resources")
            table = _explain._parse_ptxas(info["log"])
            for entry, r in table.items():
                top.append((r["registers"], name, entry))
                if r["spill_stores"] or r["spill_loads"] or r["stack_frame"]:
                    spilled.append((name, entry, r))
        print(f"{name:24s} {len(translations):3d} kernels, {new:3d} new", flush=True)
    n_spill = sum(1 for _, _, r in spilled if r["spill_stores"] or r["spill_loads"])
    print(f"\n{len(seen)} distinct kernels; {n_spill} spill; {len(spilled) - n_spill} more have a stack frame only "
          "(local arrays of a math function's slow path, not spills)")
    for name, entry, r in spilled:
        print(f"  {name}: {entry}: {r['registers']} registers, {r['spill_stores']} B spill stores, "
              f"{r['spill_loads']} B spill loads, {r['stack_frame']} B stack frame")
    print("most registers:", ", ".join(f"{n} {reg}" for reg, n, _ in sorted(top, reverse=True)[:10]))


if __name__ == "__main__":
    main()
