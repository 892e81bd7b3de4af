#!/usr/bin/env bash
# One device call that checks a change set end to end and brings everything back in one archive:
#   bash scripts/gpu_session.sh OUT   (env: the knobs of gpu_check.sh and gpu_sanitize.sh, SANITIZE=0 to skip it)
# Runs scripts/gpu_check.sh into /tmp/gpu_session/check, then scripts/gpu_sanitize.sh into .../sanitize, prints
# both summaries and writes OUT/all.tgz (the device returns at most 8 files).
set -uo pipefail
OUT=${1:?usage: gpu_session.sh OUT}
REPO=$(cd "$(dirname "$0")/.." && pwd)
W=/tmp/gpu_session
rm -rf "$W" && mkdir -p "$W/check" "$W/sanitize"
bash "$REPO/scripts/gpu_check.sh" "$W/check" > "$W/check.txt" 2>&1
tail -n 60 "$W/check.txt"
if [ "${SANITIZE:-1}" != 0 ]; then
  bash "$REPO/scripts/gpu_sanitize.sh" "$W/sanitize" 2>&1 | tee "$W/sanitize.txt"
fi
tar czf "$OUT/all.tgz" -C "$W" .
