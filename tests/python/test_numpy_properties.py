"""The property suite (tests/common/numpy_properties.py) on the CPU interpreter: random calls of the namespace's
ufuncs, reductions, creation functions and views, with empty, size-1, long (> 8192) and absurd shapes, every
dtype, and NaN/inf/-0.0 at random places, against NumPy. Derandomized with a bounded number of examples for CI;
TEGULA_PROPERTY_EXAMPLES raises the count (and TEGULA_PROPERTY_RANDOM=1 draws new cases) for a longer local run.
tests/gpu/test_gpu_properties.py runs the same strategies on the GPU."""
import os

from hypothesis import HealthCheck, given, settings

import numpy_properties as P

N = int(os.environ.get("TEGULA_PROPERTY_EXAMPLES", "0"))
PROPERTIES = settings(derandomize=os.environ.get("TEGULA_PROPERTY_RANDOM") != "1", deadline=None,
                      suppress_health_check=list(HealthCheck), database=None, print_blob=True)


@settings(PROPERTIES, max_examples=N or 150)
@given(P.unary_cases())
def test_unary_ufuncs_match_numpy(case):
    P.check(case, "cpu")


@settings(PROPERTIES, max_examples=N or 150)
@given(P.binary_cases())
def test_binary_ufuncs_match_numpy(case):
    P.check(case, "cpu")


@settings(PROPERTIES, max_examples=N or 120)
@given(P.reduction_cases())
def test_reductions_match_numpy(case):
    P.check(case, "cpu")


@settings(PROPERTIES, max_examples=N or 80)
@given(P.creation_cases())
def test_creation_matches_numpy(case):
    P.check(case, "cpu")


@settings(PROPERTIES, max_examples=N or 80)
@given(P.view_cases())
def test_views_match_numpy(case):
    P.check(case, "cpu")
