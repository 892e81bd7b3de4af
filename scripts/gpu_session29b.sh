#!/usr/bin/env bash
# About 560 s with the build (gpu_probe.sh): run it with timeout_s 590.
# Session 29's second device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the matrix pass turned on
# (TEGULA_MATRIX_PASS=1) once its crash is fixed: bench/repro_matrix_pass.py, its GPU tests and the CPU suites' cuda
# cases, the VM's graphs in parts, then the pass against cuBLASLt and CuPy (bench/probe_matrix_pass.py) and the
# NPBench programs it serves (bicg, mvt, atax, mlp, gemver, gesummv) against CuPy.
set -uo pipefail
OUT=${1:?usage: gpu_session29b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
export TEGULA_MATRIX_PASS=1
echo "== repro"
timeout 60 python3 -X faulthandler bench/repro_matrix_pass.py 2>&1 | tail -20
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-100}" \
  "mp:full:tests/gpu/test_gpu_matrix_pass.py tests/python/test_numpy_matrix_pass.py tests/python/test_numpy_deferred_update.py" \
  "vm:full:tests/gpu/test_gpu_vm.py"
echo "== matrix pass probe"
timeout 60 python3 bench/probe_matrix_pass.py 2>&1 | tail -20
echo "== NPBench paper, pass on"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-bicg,mvt,atax,mlp,gemver,gesummv} \
  timeout "${NPB_TIMEOUT:-80}" python3 bench/run.py --only npbench --out /tmp/bp 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -30
# session 26's tile sizing by held values (c31524d) against the rule before it (computed nodes alone): hdiff went
# from 3.61x CuPy (session 26b) to 2.47x (session 29a), doitgen 7.95x to 6.85x, with CuPy's times unchanged
for rule in values computed; do
  echo "== tile rule: $rule"
  flag=0; [ "$rule" = computed ] && flag=1
  TEGULA_TILE_BY_COMPUTED=$flag TEGULA_MATRIX_PASS=0 TEGULA_NPBENCH_CAP=6 TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
    TEGULA_NPBENCH_ONLY=${ABONLY:-hdiff,heat_3d,doitgen,vadv,cavity_flow,stockham_fft} \
    timeout "${AB_TIMEOUT:-50}" python3 bench/run.py --only npbench --out "/tmp/ab_$rule" 2>&1 | grep "tegula .* cupy" 
done
# stockham_fft's first call went from 334 ms (session 26b) to 1342 ms (session 29a): where it goes, new process,
# empty cache (JIT compiles with their host time, VM runs, waits)
echo "== first calls"
timeout "${FC_TIMEOUT:-45}" python3 bench/probe_first_call.py paper ${FCONLY:-stockham_fft,jacobi_2d} 2>&1 | tail -30
