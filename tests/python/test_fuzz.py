"""Fuzzing (issue #8) on the CPU interpreter: random tegula.numpy expressions against NumPy (values, dtypes, shapes and
exception types), random tile kernels against NumPy, and mutated tile IR that the parser, verifier and pass
pipeline must answer with a Python exception or a function, never a crash. Hypothesis runs derandomized, so CI
sees the same cases every run; TEGULA_FUZZ_EXAMPLES raises the counts for a longer local run. tests/gpu/
test_gpu_fuzz.py runs the same strategies on the GPU."""
import os

from hypothesis import HealthCheck, given, settings

import fuzz
import tegula
import tegula._tegula as T

N = int(os.environ.get("TEGULA_FUZZ_EXAMPLES", "0"))
FUZZ = settings(derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@settings(FUZZ, max_examples=N or 120)
@given(fuzz.expression_cases())
def test_array_expressions_match_numpy(case):
    tree, inputs = case
    fuzz.check_expression(tree, inputs, "cpu")


@settings(FUZZ, max_examples=N or 25)
@given(fuzz.tile_expressions(), *(fuzz.st.integers(1, 40), fuzz.st.sampled_from([4, 16, 32, 64])),
       fuzz.st.sampled_from([1, 2, 4, 8]))
def test_tile_kernels_match_numpy(tmp_path_factory, tree, rows, cols, tile_rows):
    d = str(tmp_path_factory.mktemp("fuzz"))
    fuzz.check_tile_kernel(tree, rows, cols, tile_rows, d, f"{abs(hash(str(tree)))}", interpret=True)


ALLOWED = (ValueError, TypeError, tegula.TegulaError)


@settings(FUZZ, max_examples=N or 300)
@given(fuzz.mutated_ir())
def test_parser_never_crashes_on_mutated_ir(text):
    try:
        f = T.parse_ir(text, "fuzz.tir")
    except ALLOWED:
        return
    try:
        T.verify_ir(f) if hasattr(T, "verify_ir") else None
        T.run_pipeline(f, dump=True)
    except ALLOWED:
        pass


def test_the_fuzz_corpus_is_there():
    assert len(fuzz.IR_FILES) >= 10, "tests/ir/*.tir seeds the parser fuzzer"
