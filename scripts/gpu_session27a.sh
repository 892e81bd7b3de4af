#!/usr/bin/env bash
# Session 27's first device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the GPU tests left
# unrun by session 26 (tests/gpu/test_gpu_vm.py in full, its graphs-in-parts tests at the end; the matvec
# tolerance fix), then NPBench paper against CuPy for session 26's list: the first GPU measurement of the plan's
# tile sizing by held values and the 16-element cap per thread (no register spills), which must slow no program.
set -uo pipefail
OUT=${1:?usage: gpu_session27a.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-150}" \
  "vm:full:tests/gpu/test_gpu_vm.py" "mv:full:tests/gpu/test_gpu_matvec.py tests/python/test_kernel_spills.py"
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-stockham_fft,mandelbrot2,correlation,covariance,softmax,hdiff,bicg,gesummv,mandelbrot1,azimint_naive,nbody,mlp,mvt,atax,gemm,k2mm,k3mm,gemver,doitgen,contour_integral,heat_3d,jacobi_2d,fdtd_2d,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,vadv,gramschmidt,durbin,deriche,conv2d_bias} \
  timeout "${NPB_TIMEOUT:-270}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -90
