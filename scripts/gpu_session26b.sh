#!/usr/bin/env bash
# Session 26's second device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the VM's cut of graphs
# too large for one program and the vector-product routes on the GPU, stockham_fft's first call at paper in a new
# process with an empty cache (it waited ~0.6 s for its 45-node butterfly), then NPBench paper against CuPy for the
# list of session 24 (the geomean of #24).
set -uo pipefail
OUT=${1:?usage: gpu_session26b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-45}" \
  "vm:full:tests/gpu/test_gpu_vm.py" "mv:full:tests/gpu/test_gpu_matvec.py tests/gpu/test_gpu_prebuilt.py tests/python/test_numpy_compaction_reuse.py tests/python/test_numpy_boolean_masks.py"
echo "== first call, stockham_fft paper (new process, empty cache)"
timeout 60 python3 bench/probe_first_call.py paper stockham_fft 2>&1 | tail -12
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-stockham_fft,mandelbrot2,correlation,covariance,softmax,hdiff,bicg,gesummv,mandelbrot1,azimint_naive,nbody,mlp,mvt,atax,gemm,k2mm,k3mm,gemver,doitgen,contour_integral,heat_3d,jacobi_2d,fdtd_2d,compute,arc_distance,azimint_hist,go_fast,cholesky2,resnet,jacobi_1d,trisolv,vadv,gramschmidt,durbin,deriche,conv2d_bias} \
  timeout "${NPB_TIMEOUT:-200}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -90
