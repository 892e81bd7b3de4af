#!/usr/bin/env bash
# Session 27's first device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the matrix pass against
# cuBLASLt and CuPy (bench/probe_matrix_pass.py), NPBench paper against CuPy for session 26's list (the first GPU
# measurement of the plan's tile sizing by held values, of the 16-element cap per thread, and of the matrix pass in
# bicg, mvt, atax, mlp), then the GPU tests: tests/gpu/test_gpu_vm.py in full (its graphs-in-parts tests at the
# end, unrun since session 26), the matrix pass's tests, the matvec tolerance fix.
set -uo pipefail
OUT=${1:?usage: gpu_session27a.sh OUT}
cd "$(dirname "$0")/.." || exit 1
echo "== matrix pass probe"
timeout 90 python3 bench/probe_matrix_pass.py 2>&1 | tail -20
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-bicg,mlp,mvt,atax,stockham_fft,mandelbrot2,correlation,covariance,softmax,hdiff,gesummv,mandelbrot1,azimint_naive,nbody,gemm,k2mm,k3mm,gemver,doitgen,contour_integral,heat_3d,jacobi_2d,fdtd_2d,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,vadv,gramschmidt,durbin,deriche,conv2d_bias} \
  timeout "${NPB_TIMEOUT:-240}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -60
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-110}" \
  "vm:full:tests/gpu/test_gpu_vm.py" \
  "mp:full:tests/gpu/test_gpu_matrix_pass.py tests/python/test_numpy_matrix_pass.py tests/gpu/test_gpu_matvec.py tests/python/test_kernel_spills.py"
