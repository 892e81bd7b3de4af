#!/usr/bin/env bash
# Session 21's A/B call (after scripts/gpu_probe.sh installed this tree; carry out/old and .npbench): the launch,
# tile and numpy workloads (--quick) and NPBench at paper for a few programs, with this tree, then with session 20's
# starting commit (a copy in out/old), then (AGAIN=1) this tree again (the machine's drift between them), each beside its
# anchors in the same process; mandelbrot2's launch count and host time per operation with both trees.
set -uo pipefail
OUT=${1:?usage: gpu_ab21.sh OUT}
cd "$(dirname "$0")/.." || exit 1
ONLY=${ONLY:-mandelbrot2,stockham_fft,gemm,mlp,hdiff,softmax,go_fast,azimint_hist}
one() {
  echo "== $1: workloads"
  timeout "${WL_TIMEOUT:-90}" python3 bench/run.py --only ${WORKLOADS:-launch tile numpy} --quick --out "$OUT/$1" 2>&1 \
    | grep -E "^(launch|tile|numpy) +\| tegula" | sed "s/^/$1 /"
  [ -n "${NO_NPB:-}" ] && return
  echo "== $1: NPBench paper"
  TEGULA_NPBENCH_CAP=8 TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper TEGULA_NPBENCH_ONLY=$ONLY \
    timeout "${NPB_TIMEOUT:-90}" python3 bench/run.py --only npbench --out "$OUT/${1}_npb" 2>&1 \
    | grep -E "^  [a-z_0-9]+ +tegula" | sed "s/^/$1 /"
  TEGULA_PROBE_TABLE=0 timeout 45 python3 bench/probe_loops.py paper mandelbrot2 2>&1 | tail -1 | sed "s/^/$1 probe /"
}
one new1
python3 -m pip install --no-build-isolation --no-deps out/old > "$OUT/old_build.log" 2>&1 || { echo "OLD BUILD FAILED"; tail -20 "$OUT/old_build.log"; exit 1; }
one old
if [ -n "${AGAIN:-}" ]; then
  python3 -m pip install --no-build-isolation --no-deps . > "$OUT/new_build.log" 2>&1 || { echo "NEW BUILD FAILED"; exit 1; }
  one new2
fi
