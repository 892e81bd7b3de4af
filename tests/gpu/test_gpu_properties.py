"""The property suite (tests/common/numpy_properties.py) on the GPU: the same draws as
tests/python/test_numpy_properties.py, with tegula.numpy arrays on the CUDA device (generated CUDA through NVRTC)
against NumPy. Each new expression is a new compile, so the counts are smaller (TEGULA_PROPERTY_EXAMPLES raises
them; TEGULA_PROPERTY_RANDOM=1 draws new cases)."""
import numpy_properties as P

globals().update(P.property_tests("cuda", (80, 80, 60, 40, 40, 80, 80), suffix="_on_the_gpu"))
