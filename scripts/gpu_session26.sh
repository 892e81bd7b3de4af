#!/usr/bin/env bash
# Session 26's first device call (after scripts/gpu_probe.sh built tegula; carry .npbench): where the host's time goes
# in the NPBench programs whose loops hold them near CuPy (cProfile of one call at paper, bench/probe_host.py), and
# the host/kernel split of the loop programs (bench/probe_loops.py); background compiles off so no timed call is the
# VM's first run.
set -uo pipefail
OUT=${1:?usage: gpu_session26.sh OUT}
cd "$(dirname "$0")/.." || exit 1
export TEGULA_BACKGROUND_COMPILE=0
echo "== probe_gemv_host first"
timeout 60 python3 bench/probe_gemv_host.py 2>&1
echo "== probe_loops paper"
TEGULA_PROBE_TABLE=${TABLE:-6} timeout "${LOOP_TIMEOUT:-150}" python3 bench/probe_loops.py paper \
  ${LOOPS:-correlation,covariance,nbody,mandelbrot2,azimint_naive,durbin,deriche,gramschmidt,trisolv,cholesky2} 2>&1 | tail -${LOOP_TAIL:-90}
echo "== probe_host paper"
timeout "${HOST_TIMEOUT:-150}" python3 bench/probe_host.py paper \
  ${HOSTS:-correlation,nbody,mandelbrot2,azimint_naive} "${TOP:-28}" 2>&1
