#!/usr/bin/env bash
# Session 18's first device call (after scripts/gpu_probe.sh built tegula): session 17's changed paths' tests on
# every cuda case (its review commit was not yet run on a GPU), then NPBench at paper for the programs not yet
# measured there.
set -uo pipefail
OUT=${1:?usage: gpu_session18.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" 110 \
  "idx:full:tests/python/test_numpy_pending_views.py tests/python/test_numpy_boolean_masks.py tests/python/test_numpy_long_scan.py tests/python/test_numpy_inplace_writes.py tests/gpu/test_gpu_indexing.py tests/gpu/test_gpu_scan.py" \
  "mm:full:tests/python/test_numpy_matmul.py tests/python/test_numpy_fft.py tests/python/test_numpy_sort_cub.py tests/python/test_numpy_linalg.py tests/gpu/test_gpu_matmul.py"
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-16} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-syr2k,syrk,gramschmidt,conv2d_bias,durbin,deriche,lenet,cavity_flow,vadv,adi,floyd_warshall,channel_flow} \
  timeout "${NPB_TIMEOUT:-370}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | grep -v "^\s*$" | tail -40
