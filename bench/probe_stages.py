"""Pipeline depth of the tile matmul (128x256x64 tiles, the output stored box by box): the stages that fit (4)
against 3, on fp16 4096^3 and bf16 8192^3, with torch.matmul in the same rounds. A diagnostic, not a benchmark:
    cd bench && python3 probe_stages.py
Each variant: 20 products after one second idle (bench/workloads/matmul.py's timing), 5 rounds, medians last."""
from __future__ import annotations

import os
import sys

import torch

from timing import print_medians, rested_rounds

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "common"))


def main():
    import matmul_kernels as K
    import tegula.tile as tt

    variants, flops = {}, {}
    for n, dtype in ((4096, torch.float16), (8192, torch.bfloat16)):
        gen = torch.Generator(device="cuda").manual_seed(n)
        a = torch.randn((n, n), device="cuda", generator=gen).to(dtype)
        b = torch.randn((n, n), device="cuda", generator=gen).to(dtype)
        c = torch.full((n, n), float("nan"), device="cuda", dtype=dtype)
        ref = a.double() @ b.double()
        for stages in (0, 3):
            kern = K.matmul.with_options(num_stages=stages)
            args = (a, b, c, 128, 256, 64, 8)
            c.fill_(float("nan"))
            tt.launch(kern, grid=K.grid(n, n, 128, 256), args=args)
            err = ((c.double() - ref).norm() / ref.norm()).item()
            assert err < 1e-2, err
            comp = kern.compile(args)
            name = f"{n} tile {comp.pipeline_stages} stages"
            variants[name] = (lambda k=kern, args=args, n=n: tt.launch(k, grid=K.grid(n, n, 128, 256), args=args))
            flops[name] = 2.0 * n ** 3
        variants[f"{n} torch.matmul"] = (lambda a=a, b=b, c=c: torch.matmul(a, b, out=c))
        flops[f"{n} torch.matmul"] = 2.0 * n ** 3
    print_medians(rested_rounds(variants, flops), width=28)


if __name__ == "__main__":
    main()
