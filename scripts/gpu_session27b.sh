#!/usr/bin/env bash
# Session 27's second device call (after scripts/gpu_probe.sh built tegula; carry .npbench): the matrix pass
# segfaulted in call 1 at its first GPU run; bench/repro_matrix_pass.py under cuda-gdb for the host backtrace (and
# session 26's 30-array graph on the VM); then NPBench paper against CuPy with the pass off (its default now): the
# GPU measurement session 26's spill changes owe.
set -uo pipefail
OUT=${1:?usage: gpu_session27b.sh OUT}
cd "$(dirname "$0")/.." || exit 1
echo "== repro under cuda-gdb"
DBG=$(command -v cuda-gdb || command -v gdb)
echo "debugger: ${DBG:-none}"
if [ -n "$DBG" ]; then
  timeout 55 "$DBG" -q -batch -ex run -ex bt --args python3 bench/repro_matrix_pass.py > "$OUT/gdb.log" 2>&1
else
  timeout 55 python3 -X faulthandler bench/repro_matrix_pass.py > "$OUT/gdb.log" 2>&1
fi
grep -v "^\[New Thread\|^\[Thread .* exited\|^\[Detaching\|^warning: " "$OUT/gdb.log" | head -60
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-mandelbrot1,vadv,hdiff,heat_3d,stockham_fft,softmax,jacobi_2d,doitgen,mandelbrot2,contour_integral,nbody} \
  timeout "${NPB_TIMEOUT:-95}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -45
