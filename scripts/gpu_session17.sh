#!/usr/bin/env bash
# Session 17's device call (after scripts/gpu_probe.sh built tegula): the changed paths' tests on every cuda case,
# then NPBench at paper for the programs the changes reach.
set -uo pipefail
OUT=${1:?usage: gpu_session17.sh OUT}
cd "$(dirname "$0")/.." || exit 1
bash scripts/gpu_pytest_groups.sh "$OUT" 100 \
  "idx:full:tests/python/test_numpy_pending_views.py tests/python/test_numpy_boolean_masks.py tests/python/test_numpy_long_scan.py tests/python/test_numpy_inplace_writes.py tests/gpu/test_gpu_indexing.py tests/gpu/test_gpu_scan.py" \
  "mm:full:tests/python/test_numpy_matmul.py tests/python/test_numpy_fft.py tests/python/test_numpy_sort_cub.py tests/python/test_numpy_linalg.py tests/gpu/test_gpu_matmul.py" \
  "smp:sampled:tests/python/test_numpy_indexing.py tests/python/test_numpy_ufuncs.py"
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=12 TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=hdiff,doitgen,mandelbrot1,mandelbrot2,nbody,resnet \
  timeout 125 python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | grep -v "^\s*$" | tail -20
