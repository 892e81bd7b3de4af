#!/usr/bin/env bash
# Session 22's device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the array VM and first runs
# (issue #26) on the GPU -- its image loads, tests/gpu/test_gpu_vm.py, all of tests/gpu in two groups beside it and
# session 21's owed suites on every cuda case -- then NPBench first calls in new processes with an empty cache
# (background compiles on, then off), library first calls (the prebuilt kernels), then the startup, numpy and
# matmul workloads (--quick). Owed since session 22 (session 23 got no machine); it includes test_gpu_vm's copy cases.
set -uo pipefail
OUT=${1:?usage: gpu_session22b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
P=tests/python
echo "== the VM's image"
python3 -c "import tegula.numpy as tnp; from tegula import _tegula as T; print(T.array_vm_info(0))" 2>&1 | tail -2
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-120}" \
  "vm:full:$G/test_gpu_vm.py" \
  "gA:full:$G/test_gpu_numpy.py $G/test_gpu_numpy_additions.py $G/test_gpu_indexing.py $G/test_gpu_complex.py $G/test_gpu_fuzz.py $G/test_gpu_scan.py $G/test_gpu_sort.py $G/test_gpu_histogram.py $G/test_gpu_random.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(vm|numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random)\.py' | tr '\n' ' ')" \
  "owed:full:$P/test_numpy_creation.py $P/test_numpy_extras.py $P/test_numpy_device_placement.py $P/test_array_vm.py"
FIRST=${FIRST_PROGRAMS:-vadv,mandelbrot1,contour_integral,durbin,hdiff,softmax}
echo "== NPBench first calls, new process, empty cache (background compiles on)"
timeout "${FIRST_TIMEOUT:-55}" python3 bench/probe_first_call.py paper "$FIRST" 2>&1
echo "== the same, background compiles off (TEGULA_BACKGROUND_COMPILE=0)"
TEGULA_BACKGROUND_COMPILE=0 timeout "${OFF_TIMEOUT:-30}" python3 bench/probe_first_call.py paper "${OFF_PROGRAMS:-vadv,contour_integral}" 2>&1
echo "== library first calls (np.unique/sort/argsort/cumsum on 1e7, new process, empty cache: the prebuilt kernels)"
timeout "${LIB_TIMEOUT:-60}" python3 bench/probe_library_first.py 2>&1
echo "== workloads startup, numpy, matmul (--quick)"
timeout "${BENCH_TIMEOUT:-75}" python3 bench/run.py --only startup numpy matmul --quick --out "$OUT/bench" 2>&1 \
  | grep -E "^(startup|numpy|matmul) +\|" | grep -v -E "^(startup|numpy|matmul) +\| (cupy|torch|triton|cuda.core|python|numpy) "
