#!/usr/bin/env bash
# Session 22's one device call, cut to the device time left (after scripts/gpu_probe.sh built tegula; carry
# .npbench): the array VM on the GPU (tests/gpu/test_gpu_vm.py) beside tests/gpu's group B (tegula.math through
# libs/matmul_epilogue_arrays, FFT, linalg, tile, torch, launch, profile, ...) and session 21's two owed fixes; then
# NPBench first calls in new processes with an empty cache (background compiles on, then off for two), then the
# startup workload (import, first NumPy result cold and warm against CuPy and torch).
set -uo pipefail
OUT=${1:?usage: gpu_session22c.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
P=tests/python
python3 -c "import tegula.numpy as tnp; from tegula import _tegula as T; print(T.array_vm_info(0))" 2>&1 | tail -1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-90}" \
  "vm:full:$G/test_gpu_vm.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(vm|numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random|faults|interrupts|threads)\.py' | tr '\n' ' ')" \
  "owed:full:$P/test_numpy_device_placement.py $P/test_array_vm.py"
(cd /tmp && TEGULA_NUMPY_GPU_FULL=1 timeout 40 python3 -m pytest -q -p no:cacheprovider "$OLDPWD/$P/test_numpy_creation.py" -k "out_of_range_as_the_gpu_does" 2>&1 | tail -1)
echo "== NPBench first calls, new process, empty cache (background compiles on)"
timeout "${FIRST_TIMEOUT:-45}" python3 bench/probe_first_call.py paper "${FIRST_PROGRAMS:-vadv,mandelbrot1,contour_integral,hdiff,softmax}" 2>&1
echo "== the same, background compiles off"
TEGULA_BACKGROUND_COMPILE=0 timeout "${OFF_TIMEOUT:-20}" python3 bench/probe_first_call.py paper "${OFF_PROGRAMS:-vadv,contour_integral}" 2>&1
echo "== startup (--quick)"
timeout "${BENCH_TIMEOUT:-40}" python3 bench/run.py --only startup --quick --out "$OUT/bench" 2>&1 | grep -E "^startup +\|"
