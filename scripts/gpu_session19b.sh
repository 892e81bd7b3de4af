#!/usr/bin/env bash
# Session 19's second device call (after scripts/gpu_probe.sh built tegula): the indexing tests on every cuda case
# (value bounds, mask complements, host copies of uploads: mandelbrot2 and spmv read back once per iteration and
# never), then NPBench at paper for every program that finished in session 18, with spmv.
set -uo pipefail
OUT=${1:?usage: gpu_session19b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-90}" \
  "idx:full:tests/gpu/test_gpu_indexing.py tests/python/test_numpy_index_bounds.py tests/python/test_numpy_host_copies.py tests/python/test_numpy_boolean_masks.py tests/python/test_numpy_indexing.py"
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-mandelbrot2,spmv,hdiff,mlp,bicg,mvt,atax,azimint_naive,gemm,k2mm,k3mm,gesummv,gemver,doitgen,contour_integral,mandelbrot1,correlation,covariance,heat_3d,jacobi_2d,fdtd_2d,softmax,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,stockham_fft,nbody,vadv,gramschmidt,durbin,deriche,conv2d_bias,lenet} \
  timeout "${NPB_TIMEOUT:-440}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -50
