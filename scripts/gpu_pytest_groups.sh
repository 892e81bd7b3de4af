#!/usr/bin/env bash
# Several pytest runs at once on the GPU machine (NVRTC compiles are CPU-bound; 16 cores, one GPU), after
# scripts/gpu_probe.sh built and installed tegula:
#   bash scripts/gpu_pytest_groups.sh OUT CAP_SECONDS "NAME:MODE:TEST FILES" ...
# MODE full runs every cuda case of the NumPy suites (TEGULA_NUMPY_GPU_FULL=1), sampled the default tenth (tests/gpu
# always runs in full). Paths are relative to the repo; each group's log: OUT/NAME.log.
set -uo pipefail
OUT=${1:?usage: gpu_pytest_groups.sh OUT CAP "NAME:MODE:FILES" ...}
CAP=${2:?usage: gpu_pytest_groups.sh OUT CAP "NAME:MODE:FILES" ...}
shift 2
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd /tmp || exit 1
export PYTHONUNBUFFERED=1 PYTHONPATH="$REPO/scripts${PYTHONPATH:+:$PYTHONPATH}"
PYTEST=(python3 -m pytest -q -rs -p no:cacheprovider -o faulthandler_timeout=90 --durations=5)
names=(); pids=()
for group in "$@"; do
  IFS=: read -r name mode files <<< "$group"
  paths=(); for t in $files; do paths+=("$REPO/$t"); done
  full=0; [ "$mode" = full ] && full=1
  TEGULA_NUMPY_GPU_FULL=$full timeout "$CAP" "${PYTEST[@]}" "${paths[@]}" > "$OUT/$name.log" 2>&1 &
  names+=("$name"); pids+=($!)
done
for i in "${!pids[@]}"; do wait "${pids[$i]}"; echo "${names[$i]}: exit $?"; done
for name in "${names[@]}"; do
  echo "== $name"; grep -E "^(FAILED|ERROR) |Timeout" "$OUT/$name.log" | head -30; tail -n 2 "$OUT/$name.log"
done
