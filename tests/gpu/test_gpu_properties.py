"""The property suite (tests/common/numpy_properties.py) on the GPU: the same draws as
tests/python/test_numpy_properties.py, with tegula.numpy arrays on the CUDA device (generated CUDA through NVRTC)
against NumPy. Each new expression is a new compile, so the counts are smaller (TEGULA_PROPERTY_EXAMPLES raises
them; TEGULA_PROPERTY_RANDOM=1 draws new cases)."""
import os

from hypothesis import HealthCheck, given, settings

import numpy_properties as P

N = int(os.environ.get("TEGULA_PROPERTY_EXAMPLES", "0"))
PROPERTIES = settings(derandomize=os.environ.get("TEGULA_PROPERTY_RANDOM") != "1", deadline=None,
                      suppress_health_check=list(HealthCheck), database=None, print_blob=True)


@settings(PROPERTIES, max_examples=N or 80)
@given(P.unary_cases())
def test_unary_ufuncs_match_numpy_on_the_gpu(case):
    P.check(case, "cuda")


@settings(PROPERTIES, max_examples=N or 80)
@given(P.binary_cases())
def test_binary_ufuncs_match_numpy_on_the_gpu(case):
    P.check(case, "cuda")


@settings(PROPERTIES, max_examples=N or 60)
@given(P.reduction_cases())
def test_reductions_match_numpy_on_the_gpu(case):
    P.check(case, "cuda")


@settings(PROPERTIES, max_examples=N or 40)
@given(P.creation_cases())
def test_creation_matches_numpy_on_the_gpu(case):
    P.check(case, "cuda")


@settings(PROPERTIES, max_examples=N or 40)
@given(P.view_cases())
def test_views_match_numpy_on_the_gpu(case):
    P.check(case, "cuda")
