"""Devices, streams and events on a real GPU."""
import pytest

import tegula.core as tc
from gpu_util import kernel, spin



def test_device_properties(dev):
    major, minor = dev.compute_capability
    assert dev.arch == f"{major}{minor}" and major >= 7
    assert dev.multiprocessor_count > 0 and dev.total_memory > 1 << 30
    props = dev.properties
    assert props["warp_size"] == 32 and props["max_threads_per_block"] == 1024
    free, total = dev.memory_info()
    assert 0 < free <= total == dev.total_memory
    assert tc.Device() == tc.Device(0) == dev and hash(dev) == 0 and int(dev) == 0
    assert tc.device_count() >= 1 and "Device 0" in repr(dev)


def test_bad_device_arguments():
    with pytest.raises(ValueError, match="out of range"):
        tc.Device(999)
    with pytest.raises(TypeError, match="device ordinal"):
        tc.Device("gpu0")


def test_streams(dev):
    s = dev.create_stream()
    assert s.handle != 0 and s.owned and s.device == dev
    s.sync()
    assert s.is_done
    borrowed = tc.Stream.from_handle(s.handle)
    assert borrowed == s and not borrowed.owned
    assert s.__cuda_stream__() == (0, s.handle)
    assert dev.default_stream.handle == 0
    with pytest.raises(TypeError, match="expected a stream"):
        tc.Stream.from_handle("nope")


def test_event_timing_and_ordering(dev, stream):
    start, end = dev.create_event(), dev.create_event()
    start.record(stream)
    spin(stream, 4_000_000)  # ~2 ms at 2 GHz
    end.record(stream)
    end.sync()
    assert end.is_done
    ms = end - start
    assert ms == pytest.approx(start.elapsed_time(end)) and 0.5 < ms < 1000


def test_event_errors(dev, stream):
    a, b = dev.create_event(), dev.create_event()
    with pytest.raises(ValueError, match="recorded"):
        b - a
    c, d = dev.create_event(timing=False), dev.create_event(timing=False)
    c.record(stream)
    d.record(stream)
    with pytest.raises(ValueError, match="timing=True"):
        d - c


def test_stream_waits_for_another_stream(dev, rng):
    import numpy as np
    from gpu_util import from_gpu, poisoned

    src = r'''extern "C" __global__ void slow_fill(float* y, float v, int n, long long cycles) {
      long long t0 = clock64(); while (clock64() - t0 < cycles) {}
      for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = v; }'''
    fill = kernel(src, "slow_fill")
    s1, s2 = dev.create_stream(), dev.create_stream()
    n = 1 << 16
    a = poisoned(4 * n, s1)
    s1.sync()
    b = tc.Buffer.allocate(4 * n, stream=s2)
    tc.launch(s1, tc.LaunchConfig(grid=1, block=256), fill, a, 7.0, n, 20_000_000)  # ~10 ms
    s2.wait(s1)
    b.copy_from(a, stream=s2)
    assert (from_gpu(b, np.float32, n, s2) == 7.0).all()
