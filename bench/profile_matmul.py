"""One relu(a @ b + bias) bf16 product of each kind, for Nsight Compute (a diagnostic, not a benchmark):
    ncu --clock-control none --profile-from-start off --section SpeedOfLight --section WarpStateStats \\
        --section ComputeWorkloadAnalysis python3 bench/profile_matmul.py [N]
Warms each up first (compiles, plans), then profiles one launch of each inside cudaProfilerStart/Stop: the tile
kernel with 128x256 tiles, with 128x128 tiles taken in turns (ping-pong), and cuBLAS (torch.matmul, no epilogue)."""
from __future__ import annotations

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "common"))

from common import relu_bias_problem  # noqa: E402


def main():
    import matmul_kernels as K
    import tegula.tile as tt

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    a, b, bias, _ = relu_bias_problem(n)
    c = torch.empty_like(a)
    runs = [lambda bm=bm, bn=bn: tt.launch(K.matmul_bias_act, grid=K.grid(n, n, bm, bn),
                                           args=(a, b, bias, c, bm, bn, 64, 8, "relu"))
            for bm, bn in ((128, 256), (128, 128))]
    runs.append(lambda: torch.matmul(a, b, out=c))
    for f in runs:
        f()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    for f in runs:
        f()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()


if __name__ == "__main__":
    main()
