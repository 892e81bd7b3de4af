#!/usr/bin/env bash
# Session 22's last chance at the device (after scripts/gpu_probe.sh built tegula; carry .npbench): the array VM
# (tests/gpu/test_gpu_vm.py) beside tegula.math's GPU tests (tests/gpu/test_gpu_libs.py), then three NPBench first
# calls in new processes with an empty cache.
set -uo pipefail
OUT=${1:?usage: gpu_session22d.sh OUT}
cd "$(dirname "$0")/.." || exit 1
python3 -c "import tegula.numpy as tnp; from tegula import _tegula as T; print(T.array_vm_info(0))" 2>&1 | tail -1
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-75}" "vm:full:tests/gpu/test_gpu_vm.py" \
  "libs:full:tests/gpu/test_gpu_libs.py tests/gpu/test_gpu_torch.py"
echo "== NPBench first calls, new process, empty cache (background compiles on)"
timeout "${FIRST_TIMEOUT:-30}" python3 bench/probe_first_call.py paper "${FIRST_PROGRAMS:-vadv,hdiff,softmax}" 2>&1
