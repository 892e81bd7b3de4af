#!/usr/bin/env bash
# Session 24's device call (after scripts/gpu_probe.sh built tegula; carry .npbench): does a process exit cleanly
# while compiles run in the background (the startup child died with SIGSEGV in session 24's first call; fix:
# background::close from Python's atexit), the two tests that failed in that call, the startup workload (import
# and first-result bars of issue #26), then NPBench at paper against CuPy (issue #24) for session 19's list.
set -uo pipefail
OUT=${1:?usage: gpu_session24.sh OUT}
cd "$(dirname "$0")/.." || exit 1
echo "== exits with compiles running"
timeout 60 python3 bench/probe_exit.py 4 2>&1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-60}" \
  "fix:full:tests/gpu/test_gpu_vm.py::test_reductions tests/python/test_array_vm.py"
echo "== workload startup"
timeout "${BENCH_TIMEOUT:-80}" python3 bench/run.py --only startup --out "$OUT/bench" 2>&1 \
  | grep -E "^startup +\|" | grep -v -E "^startup +\| (cuda.core|python|numpy) "
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-mandelbrot2,spmv,hdiff,mlp,bicg,mvt,atax,azimint_naive,gemm,k2mm,k3mm,gesummv,gemver,doitgen,contour_integral,mandelbrot1,correlation,covariance,heat_3d,jacobi_2d,fdtd_2d,softmax,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,stockham_fft,nbody,vadv,gramschmidt,durbin,deriche,conv2d_bias,lenet} \
  timeout "${NPB_TIMEOUT:-330}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -50
