#!/usr/bin/env bash
# Session 25's first device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the tiny contractions
# and pending reshapes on the GPU (their tests' cuda cases), where the time of NPBench's programs near 1x CuPy goes
# (bench/probe_loops.py with profile tables), bicg/mvt's products over one matrix (bench/probe_matvec_pairs.py), then
# NPBench paper against CuPy for those programs.
set -uo pipefail
OUT=${1:?usage: gpu_session25.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-90}" \
  "new:full:tests/python/test_numpy_matmul.py tests/python/test_numpy_pending_views.py" \
  "gpu:full:tests/gpu/test_gpu_numpy.py tests/gpu/test_gpu_vm.py"
echo "== where the time goes (paper)"
TEGULA_PROBE_TABLE=${TABLE:-10} timeout "${LOOP_TIMEOUT:-120}" python3 bench/probe_loops.py paper \
  "${LOOPS:-stockham_fft,mandelbrot2,contour_integral,mlp,bicg}" 2>&1 | grep -v "^\s*$"
echo "== two products over one matrix"
timeout 60 python3 bench/probe_matvec_pairs.py 2>&1 | tail -30
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-stockham_fft,mlp,mandelbrot2,contour_integral,bicg,mvt,atax,doitgen,gemm,hdiff,softmax} \
  timeout "${NPB_TIMEOUT:-150}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" \
  | grep -v "^\s*$" | grep -v "^   {" | tail -40
