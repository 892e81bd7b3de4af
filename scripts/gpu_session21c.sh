#!/usr/bin/env bash
# Session 21's last call (after scripts/gpu_probe.sh built tegula): every tests/python/test_numpy_*.py on every cuda
# case (TEGULA_NUMPY_GPU_FULL=1), in four parallel groups, after tegula.numpy was put in layers and its dtype rules
# moved to the C++ table.
set -uo pipefail
OUT=${1:?usage: gpu_session21c.sh OUT}
cd "$(dirname "$0")/.." || exit 1
groups=()
for i in 0 1 2 3; do
  files=$(ls tests/python/test_numpy_*.py | awk -v i=$i 'NR % 4 == i' | tr '\n' ' ')
  groups+=("n$i:full:$files")
done
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-470}" "${groups[@]}"
