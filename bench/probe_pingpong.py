"""Tile matmul: 128x128 tiles taken in turns by two warpgroups (ping-pong, one warpgroup per tile) against two
warpgroups sharing each tile, and both against the 128x256 and 256x128 tiles and cuBLAS: a diagnostic, not a benchmark:
    cd bench && python3 probe_pingpong.py
relu(a @ b + bias) in bf16 at 4096^3 and 8192^3, timed in rounds as bench/workloads/matmul.py does (each variant 20
products after one second idle)."""
from __future__ import annotations

import os
import sys

import torch

from common import relu_bias_problem
from probe_pairs import _one_warpgroup_kernel
from timing import print_medians, rested_rounds

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "common"))

ROUNDS = int(os.environ.get("ROUNDS", "3"))
SIZES = [int(s) for s in os.environ.get("SIZES", "4096 8192").split()]


def main():
    import matmul_kernels as K
    import tegula.math as tm
    import tegula.numpy as tnp
    import tegula.tile as tt

    no_turns = _one_warpgroup_kernel()  # K steps nominally depending on the block: no teams taking turns
    for n in SIZES:
        a, b, bias, ref = relu_bias_problem(n)
        c = torch.empty_like(a)
        variants = {}
        kernels = {"128x256 (2 warpgroups a tile)": (K.matmul_bias_act, 128, 256),
                   "128x128 ping-pong": (K.matmul_bias_act, 128, 128),
                   "128x128 (2 warpgroups a tile)": (no_turns, 128, 128),
                   "256x128 (2 warpgroups a tile)": (K.matmul_bias_act, 256, 128)}
        for name, (kern, bm, bn) in kernels.items():
            args = (a, b, bias, c, bm, bn, 64, 8) + (("relu",) if kern is K.matmul_bias_act else ())
            g = K.grid(n, n, bm, bn)
            c.fill_(float("nan"))
            tt.launch(kern, grid=g, args=args)
            err = ((c.double() - ref).norm() / ref.norm()).item()
            assert err < 1e-2 and not torch.isnan(c).any(), (name, err)
            comp = kern.compile(args)
            print(f"{n}: {name}: grid {comp.native.max_blocks}, stages {comp.pipeline_stages}, shared {comp.shared_bytes} B, "
                  f"{comp.block_threads} threads, rel err {err:.1e}", flush=True)
            variants[name] = (lambda k=kern, args=args, g=g: tt.launch(k, grid=g, args=args))
        mm = tm.Matmul(tnp.asarray(a), tnp.asarray(b), bias=tnp.asarray(bias), epilog="relu_bias").plan()
        variants["tegula.math (cuBLASLt)"] = mm.execute
        variants["torch.matmul (no epilogue)"] = lambda: torch.matmul(a, b, out=c)
        print(f"\n== relu(a @ b + bias) bf16 {n}^3")
        print_medians(rested_rounds(variants, 2.0 * n ** 3, rounds=ROUNDS))


if __name__ == "__main__":
    main()
