#!/usr/bin/env bash
# Session 22's first call (after scripts/gpu_probe.sh built tegula; carry .npbench): where the time goes: NPBench
# first calls in new processes with an empty cache (compiles, library calls), bicg's and mvt's two products over one
# matrix and the engine's column reductions, host time per operation in the loop programs, cProfile of three.
set -uo pipefail
OUT=${1:?usage: gpu_session22.sh OUT}
cd "$(dirname "$0")/.." || exit 1
echo "== probe_first_call paper (new process, empty cache)"
timeout "${FIRST_TIMEOUT:-100}" python3 bench/probe_first_call.py paper "${FIRST_PROGRAMS:-vadv,mandelbrot1,contour_integral,stockham_fft,durbin,hdiff}" 2>&1
echo "== probe_matvec_pairs"
timeout "${PAIRS_TIMEOUT:-90}" python3 bench/probe_matvec_pairs.py 2>&1
echo "== probe_loops paper (host time per operation)"
timeout "${LOOPS_TIMEOUT:-120}" python3 bench/probe_loops.py paper "${LOOP_PROGRAMS:-mandelbrot2,durbin,deriche,gramschmidt,trisolv,nbody,covariance,azimint_naive}" 2>&1
echo "== probe_host paper"
timeout "${HOST_TIMEOUT:-90}" python3 bench/probe_host.py paper "${HOST_PROGRAMS:-mandelbrot2,durbin,covariance}" 22 2>&1
echo "== tegula.math through libs/matmul_epilogue_arrays (tests/gpu/test_gpu_libs.py, test_gpu_torch.py)"
(cd /tmp && PYTHONUNBUFFERED=1 timeout "${MATH_TIMEOUT:-120}" python3 -m pytest -q -x -p no:cacheprovider "$OLDPWD/tests/gpu/test_gpu_libs.py" "$OLDPWD/tests/gpu/test_gpu_torch.py" 2>&1 | tail -15)
