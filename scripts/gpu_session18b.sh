#!/usr/bin/env bash
# Session 18's second device call (after scripts/gpu_probe.sh built tegula): the engine's layout change touches every
# elementwise kernel, so all of tests/gpu and a sample of the NumPy suites; the narrow product's probe; NPBench at
# paper, the programs this session's changes reach first, then the rest measured in session 17 (one run, one card).
set -uo pipefail
OUT=${1:?usage: gpu_session18b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" 150 \
  "gpu:full:tests/gpu" \
  "np:sampled:tests/python/test_numpy_pending_views.py tests/python/test_numpy_inplace_writes.py tests/python/test_numpy_ufuncs.py tests/python/test_numpy_manipulation.py tests/python/test_numpy_reductions.py tests/python/test_numpy_matmul.py"
echo "== probe_narrow"
timeout 90 python3 bench/probe_narrow.py 2>&1 | tail -8
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-hdiff,mlp,bicg,mvt,atax,azimint_naive,gemm,k2mm,k3mm,gesummv,gemver,doitgen,contour_integral,mandelbrot1,mandelbrot2,correlation,covariance,heat_3d,jacobi_2d,fdtd_2d,softmax,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,stockham_fft,nbody,vadv} \
  timeout "${NPB_TIMEOUT:-300}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | grep -v "^\s*$" | grep -v "^   {" | tail -45
