"""Does a bf16 8192^3 product on a power-limited H200 run faster on fewer multiprocessors? A diagnostic, not a
benchmark:
    python bench/probe_matmul_sms.py
2048 output tiles of 128x256 over 132 SMs take 16 rounds, the last one half full; 128 SMs take the same 16
rounds with 4 SMs fewer drawing power. Times relu(a@b+bias) through tegula.math with cuBLASLt's SM count target,
and torch.matmul, in rounds: each variant 20 products after one second idle (as bench/workloads/matmul.py times them),
the median of each variant over the rounds printed last.

Measured 2026-12-03 (5 rounds): no. sm_count None 788 (775-810), 128: 783, 126: 748, 124: 772, 120: 727 TFLOP/s;
torch.matmul 776. The tile-language kernel's persistent grid cut from 132 to 128 blocks (16 tiles each) ran at
740 against 761 for 132 blocks in the same rounds, and was not kept."""
from __future__ import annotations


import torch

from common import relu_bias_problem
from timing import print_medians, rested_rounds

N = 8192
ROUNDS = 5


def main():
    import tegula.math as tm
    import tegula.numpy as tnp

    a, b, bias, ref = relu_bias_problem(N)
    c = torch.empty_like(a)
    ta, tb, tbias = tnp.asarray(a), tnp.asarray(b), tnp.asarray(bias)
    variants = {}
    for sms in (None, 128, 126, 124, 120):
        mm = tm.Matmul(ta, tb, bias=tbias, epilog="relu_bias", sm_count=sms).plan()
        r = torch.from_dlpack(mm.execute())
        err = ((r.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (sms, err)
        variants[f"tegula.math sm_count={sms}"] = mm.execute
    variants["torch.matmul (no epilogue)"] = lambda: torch.matmul(a, b, out=c)
    print_medians(rested_rounds(variants, 2.0 * N ** 3, rounds=ROUNDS))


if __name__ == "__main__":
    main()
