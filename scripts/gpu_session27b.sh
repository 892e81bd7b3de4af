#!/usr/bin/env bash
# Session 27's second device call (after scripts/gpu_probe.sh built tegula): the matrix pass segfaulted in call 1 at
# its first GPU run; bench/repro_matrix_pass.py under cuda-gdb for the host backtrace.
set -uo pipefail
OUT=${1:?usage: gpu_session27b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
timeout 120 cuda-gdb -q -batch -ex run -ex bt -ex "info sharedlibrary" --args python3 bench/repro_matrix_pass.py 2>&1 \
  | grep -v "^\[New Thread\|^\[Thread .* exited\|^0x0000\|^From  *To" | head -80
