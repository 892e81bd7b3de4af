"""Tile matmul in clusters of two (cluster=2) against one block per tile and cuBLAS: a diagnostic, not a benchmark:
    cd bench && python3 probe_pairs.py
relu(a @ b + bias), bf16 8192^3, 128x256x64 tiles. Prints how many clusters of two fit at once, then times in rounds
(each variant 20 products after one second idle, as bench/workloads/matmul.py does): one block per tile, pairs on
the grid that fits (sharing B), 64x256 tiles taken in turns by two warpgroups (ping-pong) and by one warpgroup alone,
cuBLASLt's relu_bias through tegula.math and torch.matmul without the epilogue."""
from __future__ import annotations

import os
import sys

import torch

from common import relu_bias_problem
from timing import print_medians, rested_rounds

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "common"))

N = 8192


def _one_warpgroup_kernel():
    import tegula.tile as tt

    @tt.kernel
    def one_warpgroup(a, b, bias, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int],
                      GROUP: tt.Constant[int]):
        """matmul_bias_act's relu, except that its K steps nominally depend on the block (+ 0 * block id), which
        keeps a BM = 64 tile to one warpgroup instead of two taking turns: the ping-pong's baseline."""
        pid = tt.bid(0)
        num_m = tt.num_tiles(c, 0, (BM, BN))
        num_n = tt.num_tiles(c, 1, (BM, BN))
        width = GROUP * num_n
        first_m = (pid // width) * GROUP
        rows = tt.minimum(num_m - first_m, GROUP)
        pm = first_m + (pid % width) % rows
        pn = (pid % width) // rows
        acc = tt.zeros((BM, BN), tt.float32)
        for k in range(tt.num_tiles(a, 1, (BM, BK)) + pid * 0):
            acc = tt.mma(tt.load(a, index=(pm, k), shape=(BM, BK)), tt.load(b, index=(k, pn), shape=(BK, BN)), acc)
        v = tt.maximum(acc + tt.load(bias, index=(pn,), shape=(BN,)).astype(tt.float32), 0.0)
        tt.store(c, index=(pm, pn), tile=v.astype(c.dtype))
    return one_warpgroup
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def main():
    import matmul_kernels as K
    import tegula.math as tm
    import tegula.numpy as tnp
    import tegula.tile as tt

    a, b, bias, ref = relu_bias_problem(N)
    c = torch.empty_like(a)

    def check(what):
        err = ((c.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2 and not torch.isnan(c).any(), (what, err)

    variants = {}
    single, paired = K.matmul_bias_act, K.matmul_bias_act.with_options(cluster=2)
    # 128x256 tiles: two warpgroups share a tile (with cluster=2, neighbouring blocks share B). 64x256 tiles: one
    # warpgroup per tile, two of them taking turns (ping-pong).
    kernels = {"tile 128x256": (single, 128), "tile 128x256 pairs": (paired, 128), "tile 64x256 ping-pong": (single, 64),
               "tile 64x256 one warpgroup": (_one_warpgroup_kernel(), 64)}
    for name, (kern, bm) in kernels.items():
        args = (a, b, bias, c, bm, 256, 64, 8) + (("relu",) if kern is not kernels["tile 64x256 one warpgroup"][0] else ())
        g = K.grid(N, N, bm, 256)
        c.fill_(float("nan"))
        tt.launch(kern, grid=g, args=args)
        check(name)
        comp = kern.compile(args)
        print(f"{name}: grid {comp.native.max_blocks}, stages {comp.pipeline_stages}, shared {comp.shared_bytes} B, "
              f"{comp.block_threads} threads", flush=True)
        variants[name] = (lambda k=kern, args=args, g=g: tt.launch(k, grid=g, args=args))
    args = (a, b, bias, c, 128, 256, 64, 8, "relu")
    comp = paired.compile(args)
    fit = comp.kernel.max_active_clusters(2, comp.block_threads, comp.shared_bytes)
    print(f"clusters of two that fit: {fit} ({2 * fit} blocks); SMs "
          f"{torch.cuda.get_device_properties(0).multi_processor_count}", flush=True)
    mm = tm.Matmul(tnp.asarray(a), tnp.asarray(b), bias=tnp.asarray(bias), epilog="relu_bias").plan()
    variants["tegula.math (cuBLASLt)"] = mm.execute
    variants["torch.matmul (no epilogue)"] = lambda: torch.matmul(a, b, out=c)
    print_medians(rested_rounds(variants, 2.0 * N ** 3, rounds=ROUNDS))


if __name__ == "__main__":
    main()
