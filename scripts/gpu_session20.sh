#!/usr/bin/env bash
# Session 20's device call (after scripts/gpu_probe.sh built tegula): library calls now take arrays in C++
# (cpp/tegula/libs/*_arrays): the GPU suites of every library path (matmul, FFT, sort, scan, histogram, linalg,
# libs) and the NumPy suites that drive them, on every cuda case, with session 19's pending indexing tests; then the
# libs workload and NPBench at paper for the programs whose time is library calls, beside CuPy in the same run.
set -uo pipefail
OUT=${1:?usage: gpu_session20.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
P=tests/python
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-200}" \
  "libs:full:$G/test_gpu_matmul.py $G/test_gpu_matmul_pairs.py $G/test_gpu_fft.py $G/test_gpu_sort.py $G/test_gpu_scan.py $G/test_gpu_histogram.py $G/test_gpu_linalg.py $G/test_gpu_libs.py" \
  "np:full:$P/test_numpy_matmul.py $P/test_numpy_fft.py $P/test_numpy_linalg.py $P/test_numpy_sort_cub.py $P/test_numpy_long_scan.py $P/test_numpy_fidelity.py" \
  "idx:full:$G/test_gpu_indexing.py $P/test_numpy_index_bounds.py $P/test_numpy_host_copies.py"
echo "== libs workload"
timeout "${LIBS_TIMEOUT:-100}" python3 bench/run.py --only libs --quick --out "$OUT/bl" 2>&1 | grep -v "^\s*$" | grep -v "^   {" | tail -25
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-gemm,k2mm,k3mm,atax,bicg,mvt,mlp,contour_integral,stockham_fft,gesummv,gemver,correlation,covariance,doitgen,azimint_hist,cholesky2,softmax,hdiff,mandelbrot2,resnet} \
  timeout "${NPB_TIMEOUT:-260}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | tee "$OUT/npb.log" | grep -v "^\s*$" | grep -v "^   {" | tail -40
