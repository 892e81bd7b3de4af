#!/usr/bin/env bash
# Session 18's last device call (after scripts/gpu_probe.sh built tegula): all of tests/gpu in two groups and the
# engine-facing NumPy suites (sampled) at once; the Python-loop programs' host cost per operation on the GPU
# (bench/probe_loops.py at S: the split behind the programs that run past the cap at paper); NPBench at paper for
# the programs changed or noisy since run 2.
set -uo pipefail
OUT=${1:?usage: gpu_session18c.sh OUT}
cd "$(dirname "$0")/.." || exit 1
G=tests/gpu
bash scripts/gpu_pytest_groups.sh "$OUT" "${TCAP:-180}" \
  "gA:full:$G/test_gpu_numpy.py $G/test_gpu_numpy_additions.py $G/test_gpu_indexing.py $G/test_gpu_complex.py $G/test_gpu_fuzz.py $G/test_gpu_scan.py $G/test_gpu_sort.py $G/test_gpu_histogram.py $G/test_gpu_random.py" \
  "gB:full:$(ls $G/test_gpu_*.py | grep -v -E 'test_gpu_(numpy|numpy_additions|indexing|complex|fuzz|scan|sort|histogram|random)\.py' | tr '\n' ' ')" \
  "np:sampled:tests/python/test_numpy_pending_views.py tests/python/test_numpy_inplace_writes.py tests/python/test_numpy_ufuncs.py tests/python/test_numpy_manipulation.py tests/python/test_numpy_reductions.py"
echo "== probe_loops S (GPU)"
timeout 90 python3 bench/probe_loops.py S lu,ludcmp,cholesky,seidel_2d,nussinov,crc16,syr2k,syrk,symm,trmm,spmv,channel_flow 2>&1 | tail -16
echo "== NPBench paper"
TEGULA_NPBENCH_CAP=${CAP:-8} TEGULA_NPBENCH_REF_CAP=2 TEGULA_NPBENCH_PRESET=paper \
  TEGULA_NPBENCH_ONLY=${ONLY:-hdiff,mlp,mandelbrot2,stockham_fft,heat_3d,vadv,azimint_naive} \
  timeout "${NPB_TIMEOUT:-110}" python3 bench/run.py --only npbench --out "$OUT/bp" 2>&1 | grep -v "^\s*$" | grep -v "^   {" | tail -20
