#!/usr/bin/env bash
# Session 20's A/B call (after scripts/gpu_probe.sh installed this tree): NPBench at paper for the programs whose time
# is library calls, with this tree, then with the session's starting commit (a copy carried in out/old), then this
# tree again, each beside CuPy: whether library calls taking arrays in C++ changed their speed.
set -uo pipefail
OUT=${1:?usage: gpu_ab20.sh OUT}
cd "$(dirname "$0")/.." || exit 1
ONLY=${ONLY:-stockham_fft,mandelbrot2,mlp,gemm}
npb() {
  TEGULA_NPBENCH_CAP=8 TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper TEGULA_NPBENCH_ONLY=$ONLY \
    timeout 100 python3 bench/run.py --only npbench --out "$OUT/$1" 2>&1 | grep -E "^  [a-z_0-9]+ +tegula" | sed "s/^/$1 /"
}
npb new1
python3 -m pip install --no-build-isolation --no-deps out/old > "$OUT/old_build.log" 2>&1 || { echo "OLD BUILD FAILED"; tail -20 "$OUT/old_build.log"; exit 1; }
npb old
[ -n "${AGAIN:-}" ] && { python3 -m pip install --no-build-isolation --no-deps . > "$OUT/new_build.log" 2>&1 || exit 1; }
[ -n "${AGAIN:-}" ] && npb new2
