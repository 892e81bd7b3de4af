#!/usr/bin/env bash
# Session 21's test call (after scripts/gpu_probe.sh built tegula): the kernel module (cpp/tegula/kernel: one compile
# driver and ABI packer under the array engine and both tile front ends), tegula.numpy in layers and the dtype
# rules from the C++ table: all of tests/gpu in two groups and the engine-facing NumPy suites (sampled), then where
# mandelbrot2's time goes at paper.
set -uo pipefail
OUT=${1:?usage: gpu_session21b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
P=tests/python
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-300}" \
  "gA:full:$G/test_gpu_numpy.py $G/test_gpu_numpy_additions.py $G/test_gpu_indexing.py $G/test_gpu_complex.py $G/test_gpu_fuzz.py $G/test_gpu_scan.py $G/test_gpu_sort.py $G/test_gpu_histogram.py $G/test_gpu_random.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random)\.py' | tr '\n' ' ')" \
  "np:sampled:$P/test_numpy_pending_views.py $P/test_numpy_inplace_writes.py $P/test_numpy_ufuncs.py $P/test_numpy_reductions.py $P/test_numpy_fidelity.py $P/test_promotion_authority.py $P/test_numpy_long_scan.py $P/test_numpy_sort_cub.py"
echo "== probe_loops paper mandelbrot2"
TEGULA_PROBE_TABLE=8 timeout "${PROBE_TIMEOUT:-90}" python3 bench/probe_loops.py paper mandelbrot2 2>&1 | tail -14
