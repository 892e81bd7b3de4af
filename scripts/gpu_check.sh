#!/usr/bin/env bash
# The one script the GPU machine runs: build + install tegula, gtests (if GTest), pytest, bench; summary last.
#   bash scripts/gpu_check.sh OUTDIR [--quick]
# OUTDIR gets: build.log gtest.log pytest.log (pytest-N.log per shard) pytest-N.xml slow_tests.txt bench.log
#   bench.json summary.txt
set -uo pipefail
export PYTHONUNBUFFERED=1

OUT=${1:?usage: gpu_check.sh OUTDIR [--quick]}
EXTRA=()
[ -n "${2:-}" ] && EXTRA=("$2")   # --quick
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
BUDGET=${TEGULA_GPU_CHECK_BUDGET:-560}   # seconds for the whole script (the device allows 600 a call)
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}

left() { echo $((BUDGET - SECONDS)); }
# limit CAP RESERVE: a step's timeout: at most CAP, leaving RESERVE seconds for the steps after it.
limit() { local t=$(( $(left) - $2 )); (( t > $1 )) && t=$1; (( t < 10 )) && t=10; echo "$t"; }

echo "== environment"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4
"$PY" -c 'import sys; print("python", sys.version.split()[0], sys.executable)'
echo "cores $(nproc), repo $REPO, out $OUT"

echo "== build: pip install (log: build.log)"
# At least two minutes for the build (a cold one takes about 25 s with 16 cores), even when a small budget leaves
# less than the 200 s the later steps would like: without a build nothing after it means anything.
BUILD_T=$(limit 300 200)
(( BUILD_T < 120 )) && BUILD_T=$(( $(left) > 130 ? 120 : $(left) - 10 ))
if ! timeout "$BUILD_T" "$PY" -m pip install --no-build-isolation --no-deps -v "$REPO" > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED; tail of build.log:"
  tail -n 60 "$OUT/build.log"
  exit 1
fi
echo "built and installed in ${SECONDS}s"

echo "== gtests: cmake + ninja developer build (log: gtest.log)"
GT=build/gpu
if [ -n "${TEGULA_SKIP_GTEST:-}" ]; then
  echo "gtests skipped: TEGULA_SKIP_GTEST is set (they also run in CI)" | tee "$OUT/gtest.log"
  # The C++ front end's examples still get built when the cpp bench or tests/python (test_cpp_frontend.py) runs.
  NEED_EXAMPLES=0
  [[ -z "${TEGULA_BENCH_ONLY:-}" || " ${TEGULA_BENCH_ONLY} " == *" cpp "* ]] && NEED_EXAMPLES=1
  [[ " ${TEGULA_TEST_DIRS:-tests/python tests/gpu} " == *" tests/python "* ]] && NEED_EXAMPLES=1
  if (( NEED_EXAMPLES == 0 )); then
    echo "C++ examples not built: neither the cpp bench nor tests/python runs"
  elif (( $(left) > 300 )) && (cd "$REPO" && cmake -S . -B "$GT" -G Ninja -DTEGULA_BUILD_TESTS=OFF -DTEGULA_BUILD_PYTHON=OFF \
      -DCMAKE_BUILD_TYPE=Release && timeout "$(limit 150 250)" cmake --build "$GT" --target tegula_example_softmax \
      tegula_example_matmul) >> "$OUT/gtest.log" 2>&1; then
    echo "C++ examples built in $GT"
  else
    echo "C++ examples not built (see gtest.log)"
  fi
elif (cd "$REPO" && cmake -S . -B "$GT" -G Ninja -DTEGULA_BUILD_TESTS=ON -DTEGULA_BUILD_PYTHON=OFF \
      -DCMAKE_BUILD_TYPE=Release) > "$OUT/gtest.log" 2>&1; then
  if (( $(left) < 200 )); then
    echo "gtests skipped: only $(left)s left for pytest and bench" | tee -a "$OUT/gtest.log"
  elif (cd "$REPO" && timeout "$(limit 150 180)" cmake --build "$GT") >> "$OUT/gtest.log" 2>&1; then
    (cd "$REPO" && timeout "$(limit 60 160)" "$GT/tegula_tests" --gtest_brief=1) >> "$OUT/gtest.log" 2>&1
    echo "gtest exit code $?" | tee -a "$OUT/gtest.log"
    tail -n 5 "$OUT/gtest.log"
  else
    echo "gtest build failed or timed out; tail:"; tail -n 20 "$OUT/gtest.log"
  fi
else
  echo "gtests skipped: cmake configure failed (GTest not found?):"; grep -m3 -i "error\|not found" "$OUT/gtest.log"
fi

echo "== pytest (log: pytest.log) -- from /tmp so the installed package is imported"
cd /tmp || exit 1
TESTS=()
# TEGULA_TEST_DIRS picks the test folders (default both); TEGULA_PYTEST_CAP caps pytest's seconds (default 300);
# TEGULA_PYTEST_SHARDS=N runs the test files in N pytest processes at once (default 1).
for d in ${TEGULA_TEST_DIRS:-tests/python tests/gpu}; do [ -e "$REPO/$d" ] && TESTS+=("$REPO/$d"); done
if (( ${#TESTS[@]} )); then
  # -v: each test's name and outcome as it ends, so a run cut short by the timeout still says what failed.
  export TEGULA_SLOW_LOG="$OUT/slow_tests.txt" PYTHONPATH="$REPO/scripts${PYTHONPATH:+:$PYTHONPATH}"
  PYTEST=("$PY" -m pytest -p pytest_slow -v -rs -o faulthandler_timeout=90 --durations=15 ${PYTEST_ARGS:-})
  CAP=$(limit "${TEGULA_PYTEST_CAP:-300}" 100)
  SHARDS=${TEGULA_PYTEST_SHARDS:-1}
  if (( SHARDS > 1 )); then
    # The test files dealt out to SHARDS pytest processes that run at once (the first GPU run of a fresh machine
    # spends most of its time in NVRTC compiles, which are CPU-bound: 16 cores, one GPU). Each file stays whole.
    FILES=()
    for t in "${TESTS[@]}"; do
      if [ -d "$t" ]; then while IFS= read -r f; do FILES+=("$f"); done < <(ls "$t"/test_*.py | sort); else FILES+=("$t"); fi
    done
    PIDS=()
    for ((i = 0; i < SHARDS; i++)); do
      MINE=()
      for ((j = i; j < ${#FILES[@]}; j += SHARDS)); do MINE+=("${FILES[j]}"); done
      (( ${#MINE[@]} )) || continue
      timeout "$CAP" "${PYTEST[@]}" "${MINE[@]}" --junitxml "$OUT/pytest-$i.xml" > "$OUT/pytest-$i.log" 2>&1 &
      PIDS+=($!)
    done
    CODES=()
    for pid in "${PIDS[@]}"; do wait "$pid"; CODES+=($?); done
    cat "$OUT"/pytest-*.log > "$OUT/pytest.log"
    echo "pytest exit codes (${#PIDS[@]} shards): ${CODES[*]}"
  else
    timeout "$CAP" "${PYTEST[@]}" "${TESTS[@]}" --junitxml "$OUT/pytest-0.xml" > "$OUT/pytest.log" 2>&1
    echo "pytest exit code $?"
  fi
  grep -E " (FAILED|ERROR)( |$)|^(FAILED|ERROR) |Timeout" "$OUT/pytest.log" | head -40
  grep -E "^=+ .*(passed|failed|error).* in " "$OUT/pytest.log"
  [ -f "$OUT/slow_tests.txt" ] && { echo "slowest tests (of those over 2 s):"; sort -rn "$OUT/slow_tests.txt" | head -8; }
else
  echo "pytest skipped: no tests/python or tests/gpu" | tee "$OUT/pytest.log"
fi

echo "== bench (log: bench.log)"
# TEGULA_BENCH_ONLY="libs matmul" runs only those workloads.
ONLY=()
[ -n "${TEGULA_BENCH_ONLY:-}" ] && ONLY=(--only ${TEGULA_BENCH_ONLY})
timeout "$(limit 330 5)" "$PY" "$REPO/bench/run.py" --out "$OUT" "${EXTRA[@]}" "${ONLY[@]}" > "$OUT/bench.log" 2>&1
echo "bench exit code $?; tail of bench.log:"
tail -n 5 "$OUT/bench.log"

{
  echo "== summary (${SECONDS}s)"
  "$PY" - "$OUT" <<'EOF'
import glob, os, sys, xml.etree.ElementTree as ET
files = sorted(glob.glob(os.path.join(sys.argv[1], "pytest-*.xml")))
if not files:
    sys.exit("pytest: no junit xml (a pytest process cut short by its time limit writes none; see pytest.log)")
n = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
bad_cases = []
for path in files:
    try:
        root = ET.parse(path).getroot()
    except Exception as e:
        print(f"pytest: {os.path.basename(path)} unreadable ({e})")
        continue
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    for k in n:
        n[k] += sum(int(s.get(k, 0)) for s in suites)
    for case in root.iter("testcase"):
        for tag in ("failure", "error"):
            bad = case.find(tag)
            if bad is not None:
                msg = (bad.get("message") or "").splitlines()[0][:160] if bad.get("message") else ""
                bad_cases.append(f"  {tag.upper()}: {case.get('classname')}.{case.get('name')}: {msg}")
passed = n["tests"] - n["failures"] - n["errors"] - n["skipped"]
print(f"pytest: {passed} passed, {n['failures']} failed, {n['errors']} errors, {n['skipped']} skipped "
      f"({len(files)} junit file(s))")
if bad_cases:
    print("\n".join(bad_cases))
EOF
  grep -E "^\[  (PASSED|FAILED)  \] [0-9]+ tests?|gtest exit code|gtests skipped|gtest build failed" "$OUT/gtest.log" \
    2>/dev/null | sed 's/^/gtest: /'
  if [ -f "$OUT/bench.json" ]; then
    "$PY" "$REPO/bench/run.py" --print-only "$OUT/bench.json"
  else
    echo "bench: no bench.json"
  fi
} 2>&1 | tee "$OUT/summary.txt"
