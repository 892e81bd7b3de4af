"""Does a bf16 8192^3 product on a power-limited H200 run faster on fewer multiprocessors? A diagnostic, not a
benchmark:
    python bench/probe_matmul_sms.py
2048 output tiles of 128x256 over 132 SMs take 16 rounds, the last one half full; 128 SMs take the same 16
rounds with 4 SMs fewer drawing power. Times relu(a@b+bias) through tegula.math with cuBLASLt's SM count target,
the tile-language kernel with its persistent grid at the SM count and balanced (TEGULA_PERSISTENT_BALANCED), and
torch.matmul, in rounds: each variant 20 products after one second idle (as bench/workloads/matmul.py times them),
the median of each variant over the rounds printed last."""
from __future__ import annotations

import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "common"))
from timing import torch_event_ms  # noqa: E402

N = 8192
ROUNDS = 5


def main():
    import matmul_kernels as K

    import tegula.math as tm
    import tegula.numpy as tnp
    import tegula.tile as tt

    gen = torch.Generator(device="cuda").manual_seed(9)
    a = torch.randn((N, N), device="cuda", generator=gen).bfloat16()
    b = torch.randn((N, N), device="cuda", generator=gen).bfloat16()
    bias = torch.randn((N,), device="cuda", generator=gen).bfloat16()
    c = torch.empty_like(a)
    ref = torch.relu(a.double() @ b.double() + bias.double())
    ta, tb, tbias = tnp.asarray(a), tnp.asarray(b), tnp.asarray(bias)
    variants = {}
    for sms in (None, 128, 126, 124, 120):
        mm = tm.Matmul(ta, tb, bias=tbias, epilog="relu_bias", sm_count=sms).plan()
        r = torch.from_dlpack(mm.execute())
        err = ((r.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (sms, err)
        variants[f"tegula.math sm_count={sms}"] = mm.execute
    grid = K.grid(N, N, 128, 256)

    def tile(balanced):
        def run():
            os.environ["TEGULA_PERSISTENT_BALANCED"] = "1" if balanced else "0"
            tt.launch(K.matmul_bias_act, grid=grid, args=(a, b, bias, c, 128, 256, 64, 8, "relu"))
        return run
    for bal in (False, True):
        c.fill_(float("nan"))
        tile(bal)()
        err = ((c.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (bal, err)
        variants[f"tile kernel {'balanced grid' if bal else 'SM-count grid'}"] = tile(bal)
    variants["torch.matmul (no epilogue)"] = lambda: torch.matmul(a, b, out=c)
    times = {k: [] for k in variants}
    for r in range(ROUNDS):
        for name, fn in variants.items():
            ms = torch_event_ms(fn, repeat=20, rest_s=1.0)
            times[name].append(2.0 * N ** 3 / (ms * 1e-3) / 1e12)
        print(f"round {r}: " + ", ".join(f"{k}: {v[-1]:.0f}" for k, v in times.items()), flush=True)
    print("\nmedian TFLOP/s over the rounds (min-max):")
    for k, v in times.items():
        print(f"  {k:36s} {statistics.median(v):6.0f}  ({min(v):.0f}-{max(v):.0f})")


if __name__ == "__main__":
    main()
