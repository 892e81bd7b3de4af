"""Helpers for the GPU tests: compiling small kernels and moving numpy arrays to and from the GPU."""
import numpy as np

import tegula.core as tc


def kernel(source, name, name_expressions=()):
    return tc.Program(source).compile(name_expressions=name_expressions).get_kernel(name)


SPIN = r'extern "C" __global__ void spin(long long cycles) { long long t0 = clock64(); while (clock64() - t0 < cycles) {} }'


def spin(stream, cycles):
    """Queues one thread busy for `cycles` clock cycles on `stream` (about cycles / 2e9 seconds on an H200)."""
    tc.launch(stream, tc.LaunchConfig(grid=1, block=1), kernel(SPIN, "spin"), cycles)


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

