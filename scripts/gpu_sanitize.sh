#!/usr/bin/env bash
# compute-sanitizer over the kernels tegula generates (issue #8): memcheck, racecheck and synccheck run the GPU
# tests that cover each code generation path (tile kernels, fused array kernels, tensor-core matmul, CUB, the
# library calls) at their test sizes. Run it after scripts/gpu_check.sh (which installs tegula) in the same warm
# machine:   bash scripts/gpu_sanitize.sh OUTDIR [memcheck racecheck synccheck]
# OUTDIR gets <tool>.log (the sanitizer's report) and <tool>.out (pytest's output); the last lines say, per tool,
# the number of errors the sanitizer found (0 is the bar).
set -uo pipefail
OUT=${1:?usage: gpu_sanitize.sh OUTDIR [tool ...]}
shift
TOOLS=("$@")
(( ${#TOOLS[@]} )) || TOOLS=(memcheck racecheck synccheck)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
BUDGET=${TEGULA_SANITIZE_BUDGET:-560}
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -z "$SAN" ]; then echo "compute-sanitizer not found"; exit 2; fi
# The tests whose kernels the sanitizer watches, each small enough to run under it.
SEL=(
  "$REPO/tests/gpu/test_gpu_tile.py"
  "$REPO/tests/gpu/test_gpu_matmul.py"
  "$REPO/tests/gpu/test_gpu_histogram.py"
  "$REPO/tests/gpu/test_gpu_sort.py::test_rows_unique_search_median"
  "$REPO/tests/gpu/test_gpu_libs.py::test_transposed_and_strided_views"
  "$REPO/tests/gpu/test_gpu_fuzz.py"
  "$REPO/tests/gpu/test_gpu_numpy.py"
)
cd /tmp || exit 1
per=$(( BUDGET / ${#TOOLS[@]} ))
for tool in "${TOOLS[@]}"; do
  echo "== compute-sanitizer --tool $tool (at most ${per}s)"
  # --report-api-errors no: the findings are the kernels' (memory, races, barriers). tegula probes a kernel's
  # parameters with cuKernelGetParamInfo until CUDA_ERROR_INVALID_VALUE (the driver has no count call), which the
  # sanitizer would otherwise list as an API error each time a kernel loads.
  TEGULA_FUZZ_EXAMPLES=${TEGULA_FUZZ_EXAMPLES:-15} timeout "$per" "$SAN" --tool "$tool" --error-exitcode 99 \
    --report-api-errors no --print-limit 50 --log-file "$OUT/$tool.log" --target-processes all \
    "$PY" -m pytest -q -p no:cacheprovider -k "not 8192 and not large and not mnk3 and not mnk1" "${SEL[@]}" > "$OUT/$tool.out" 2>&1
  rc=$?
  # memcheck/synccheck print "ERROR SUMMARY: N errors", racecheck "RACECHECK SUMMARY: N hazards displayed (E errors, ...)"
  errors=$(grep -m1 -oE "ERROR SUMMARY: [0-9]+" "$OUT/$tool.log" | grep -oE "[0-9]+$")
  [ -z "$errors" ] && errors=$(grep -m1 -oE "RACECHECK SUMMARY: [0-9]+ hazards displayed \([0-9]+ errors" "$OUT/$tool.log" \
    | grep -oE "\([0-9]+" | tr -d "(")
  echo "$tool: exit $rc, sanitizer errors ${errors:-unknown}; pytest: $(tail -n 1 "$OUT/$tool.out")"
done
