#!/usr/bin/env bash
# Session 25's third device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the prebuilt tile kernels
# found from site-packages (their CUDA names files inside the package now), the looped reductions that carry whole
# tiles (bench/probe_row_sums.py, background compiles off so no run is the VM's), then NPBench paper for the
# programs of reductions and first calls.
set -uo pipefail
OUT=${1:?usage: gpu_session25c.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-90}" \
  "new:full:tests/gpu/test_gpu_prebuilt.py tests/python/test_numpy_prebuild.py tests/python/test_numpy_column_reductions.py tests/python/test_numpy_reductions.py"
echo "== library first calls (new processes, empty cache)"
timeout 60 python3 bench/probe_library_first.py 2>&1
echo "== row and column sums (background compiles off)"
TEGULA_BACKGROUND_COMPILE=0 timeout 70 python3 bench/probe_row_sums.py 2>&1 | tail -14
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-softmax,correlation,covariance,azimint_naive,mandelbrot1,mandelbrot2,stockham_fft,bicg} \
  timeout "${NPB_TIMEOUT:-120}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" \
  | grep -v "^\s*$" | grep -v "^   {" | tail -24
