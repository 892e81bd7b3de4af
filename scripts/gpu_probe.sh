#!/usr/bin/env bash
# A short diagnostic call on the GPU machine: build and install tegula, then run the given command from the repo
# root with OUT set, output into OUT/probe.log:
#   bash scripts/gpu_probe.sh OUT 'python3 bench/profile_scan.py'
set -uo pipefail
export PYTHONUNBUFFERED=1
OUT=${1:?usage: gpu_probe.sh OUT COMMAND}
shift
REPO=$(cd "$(dirname "$0")/.." && pwd)
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
if ! python3 -m pip install --no-build-isolation --no-deps -v "$REPO" > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED"; tail -n 40 "$OUT/build.log"; exit 1
fi
echo "built in ${SECONDS}s"
cd "$REPO" && OUT="$OUT" bash -c "$*" 2>&1 | tee "$OUT/probe.log"
