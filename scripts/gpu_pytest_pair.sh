#!/usr/bin/env bash
# Two pytest runs at once on the GPU machine (NVRTC compiles are CPU-bound; 16 cores, one GPU), after
# scripts/gpu_probe.sh built and installed tegula:
#   bash scripts/gpu_pytest_pair.sh OUT "FULL_TESTS" "SAMPLED_TESTS" [CAP_SECONDS]
# FULL_TESTS run every cuda case (TEGULA_NUMPY_GPU_FULL=1), SAMPLED_TESTS the default tenth of the NumPy suites'
# cuda cases (tests/gpu always in full). Paths are relative to the repo; logs: OUT/full.log, OUT/sampled.log.
set -uo pipefail
OUT=${1:?usage: gpu_pytest_pair.sh OUT FULL SAMPLED [CAP]}
REPO=$(cd "$(dirname "$0")/.." && pwd)
CAP=${4:-300}
abs() { for t in $1; do echo "$REPO/$t"; done; }
cd /tmp || exit 1
export PYTHONUNBUFFERED=1 PYTHONPATH="$REPO/scripts${PYTHONPATH:+:$PYTHONPATH}"
PYTEST=(python3 -m pytest -q -rs -p no:cacheprovider -o faulthandler_timeout=90 --durations=8)
TEGULA_NUMPY_GPU_FULL=1 timeout "$CAP" "${PYTEST[@]}" $(abs "$2") > "$OUT/full.log" 2>&1 &
A=$!
timeout "$CAP" "${PYTEST[@]}" $(abs "$3") > "$OUT/sampled.log" 2>&1 &
B=$!
wait $A; echo "full: exit $?"; wait $B; echo "sampled: exit $?"
for f in full sampled; do
  echo "== $f"; grep -E "^(FAILED|ERROR) |Timeout" "$OUT/$f.log" | head -30; tail -n 3 "$OUT/$f.log"
done
