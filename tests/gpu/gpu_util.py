"""Helpers for the GPU tests: compiling small kernels and moving numpy arrays to and from the GPU."""
import numpy as np

import tegula.core as tc


def kernel(source, name, name_expressions=()):
    return tc.Program(source).compile(name_expressions=name_expressions).get_kernel(name)


def to_gpu(array, stream):
    return tc.Buffer.from_host(np.ascontiguousarray(array), stream=stream)


def from_gpu(buf, dtype, count, stream):
    out = np.empty(count, dtype=dtype)
    buf.copy_to_host(out, stream=stream)
    return out


def poisoned(nbytes, stream):
    b = tc.Buffer.allocate(nbytes, stream=stream)
    b.fill(0xFF, stream=stream)  # NaN for floats, -1 for ints: unwritten elements show
    return b

