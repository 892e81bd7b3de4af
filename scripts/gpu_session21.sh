#!/usr/bin/env bash
# Session 21's first device call (after scripts/gpu_probe.sh built tegula): session 20's tree (op traits from ops.def,
# library calls taking arrays in C++) through all of tests/gpu in two groups and the NumPy suites that drive the
# library paths (every cuda case), then the A/B of NPBench's library-bound programs against the session-20 starting
# commit (scripts/gpu_ab20.sh; carry out/old and .npbench).
set -uo pipefail
OUT=${1:?usage: gpu_session21.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
P=tests/python
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-180}" \
  "gA:full:$G/test_gpu_numpy.py $G/test_gpu_numpy_additions.py $G/test_gpu_indexing.py $G/test_gpu_complex.py $G/test_gpu_fuzz.py $G/test_gpu_scan.py $G/test_gpu_sort.py $G/test_gpu_histogram.py $G/test_gpu_random.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random)\.py' | tr '\n' ' ')" \
  "np:full:$P/test_numpy_fidelity.py $P/test_numpy_sort_cub.py $P/test_numpy_long_scan.py" \
  "ns:sampled:$P/test_numpy_pending_views.py $P/test_numpy_inplace_writes.py $P/test_numpy_ufuncs.py $P/test_numpy_reductions.py"
echo "== A/B"
bash scripts/gpu_ab20.sh "$OUT"
