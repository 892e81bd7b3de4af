"""Fuzzing on the GPU (issue #8): the strategies of tests/python/test_fuzz.py, with tegula.numpy arrays and tile
kernels on the GPU compared to NumPy. Every new expression is a new NVRTC compile, so the counts are smaller
(TEGULA_FUZZ_EXAMPLES raises them)."""
import os

from hypothesis import HealthCheck, given, settings

import fuzz

N = int(os.environ.get("TEGULA_FUZZ_EXAMPLES", "0"))
FUZZ = settings(derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@settings(FUZZ, max_examples=N or 60)
@given(fuzz.expression_cases())
def test_array_expressions_match_numpy_on_the_gpu(case):
    tree, inputs = case
    fuzz.check_expression(tree, inputs, "cuda")


@settings(FUZZ, max_examples=N or 20)
@given(fuzz.tile_expressions(), fuzz.st.integers(1, 300), fuzz.st.sampled_from([4, 16, 32, 64, 128]),
       fuzz.st.sampled_from([1, 2, 4, 8]))
def test_tile_kernels_match_numpy_on_the_gpu(tmp_path_factory, tree, rows, cols, tile_rows):
    d = str(tmp_path_factory.mktemp("fuzz"))
    fuzz.check_tile_kernel(tree, rows, cols, tile_rows, d, f"{abs(hash(str(tree)))}", interpret=False)
