#!/usr/bin/env bash
# Session 25's second device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the col_loop column
# reductions, device-to-device copies, tiny contractions and pending reshapes on the GPU (their tests' cuda cases and
# test_gpu_numpy), column sums and copies against CuPy (bench/probe_matvec_pairs.py), then NPBench paper against
# CuPy for the programs those touch; the prebuilt tile kernels (test_gpu_prebuilt.py, bench/probe_library_first.py).
set -uo pipefail
OUT=${1:?usage: gpu_session25b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-120}" \
  "new:full:tests/gpu/test_gpu_prebuilt.py tests/python/test_numpy_prebuild.py tests/python/test_numpy_column_reductions.py tests/gpu/test_gpu_copies.py tests/python/test_numpy_matmul.py tests/python/test_numpy_pending_views.py" \
  "gpu:full:tests/gpu/test_gpu_numpy.py tests/gpu/test_gpu_vm.py"
echo "== library first calls (new processes, empty cache)"
timeout "${LIB_TIMEOUT:-60}" python3 bench/probe_library_first.py 2>&1
echo "== two products over one matrix, column sums, copies"
timeout 60 python3 bench/probe_matvec_pairs.py 2>&1 | tail -30
echo "== row and column sums around 2^31 bytes"
timeout 60 python3 bench/probe_row_sums.py 2>&1 | tail -14
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-bicg,mvt,atax,gesummv,correlation,covariance,stockham_fft,mandelbrot1,mandelbrot2,nbody} \
  timeout "${NPB_TIMEOUT:-180}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" \
  | grep -v "^\s*$" | grep -v "^   {" | tail -40
