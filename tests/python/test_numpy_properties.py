"""The property suite (tests/common/numpy_properties.py) on the CPU interpreter: random calls of the namespace's
ufuncs, reductions, creation functions and views, with empty, size-1, long (> 8192) and absurd shapes, every
dtype, and NaN/inf/-0.0 at random places, against NumPy. Derandomized with a bounded number of examples for CI;
TEGULA_PROPERTY_EXAMPLES raises the count (and TEGULA_PROPERTY_RANDOM=1 draws new cases) for a longer local run.
tests/gpu/test_gpu_properties.py runs the same strategies on the GPU."""
import numpy_properties as P

globals().update(P.property_tests("cpu", (150, 150, 120, 80, 80, 150, 150)))
