#!/usr/bin/env bash
# Session 19's first device call (after scripts/gpu_probe.sh built tegula): session 18's review commit (emitter
# load cache, one column loop) through all of tests/gpu in two groups and the engine-facing NumPy suites
# (sampled); the numpy workload (Black-Scholes' two outputs against torch.compile); mandelbrot2's split of host
# and kernel time at paper.
set -uo pipefail
OUT=${1:?usage: gpu_session19.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-200}" \
  "gA:full:$G/test_gpu_numpy.py $G/test_gpu_numpy_additions.py $G/test_gpu_indexing.py $G/test_gpu_complex.py $G/test_gpu_fuzz.py $G/test_gpu_scan.py $G/test_gpu_sort.py $G/test_gpu_histogram.py $G/test_gpu_random.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random)\.py' | tr '\n' ' ')" \
  "np:sampled:tests/python/test_numpy_pending_views.py tests/python/test_numpy_inplace_writes.py tests/python/test_numpy_ufuncs.py tests/python/test_numpy_boolean_masks.py tests/python/test_numpy_reductions.py"
echo "== numpy workload"
timeout "${NP_TIMEOUT:-120}" python3 bench/run.py --only numpy --out "$OUT/bn" 2>&1 | grep -v "^\s*$" | grep -v "^   {" | tail -30
echo "== probe_loops paper mandelbrot2"
TEGULA_PROBE_TABLE=12 timeout 90 python3 bench/probe_loops.py paper mandelbrot2 2>&1 | tail -20
