"""Compiling and launching kernels: correctness, argument packing, errors, foreign arrays and streams."""
import struct
import threading

import numpy as np
import pytest

import tegula.core as tc
from gpu_util import from_gpu, kernel, poisoned, to_gpu

VADD = r'''
extern "C" __global__ void vadd(float* out, const float* x, const float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}'''

PARAMS = r'''
struct P { int a; float b; double c; };
extern "C" __global__ void params(double* out, signed char c, short s, int i, long long l, float f, double d,
                                  P p, unsigned int u, bool flag) {
  out[0] = c; out[1] = s; out[2] = i; out[3] = (double)l; out[4] = f; out[5] = d;
  out[6] = p.a; out[7] = p.b; out[8] = p.c; out[9] = u; out[10] = flag;
}'''

TEMPLATE = r'''
template <class T> __global__ void scale(T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}'''


def launch_vadd(stream, k, n, rng, make_inputs=to_gpu):
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = poisoned(4 * n, stream)
    tc.launch(stream, tc.LaunchConfig(grid=(n + 255) // 256, block=256), k, out, make_inputs(x, stream),
              make_inputs(y, stream), n)
    return from_gpu(out, np.float32, n, stream), x.astype(np.float64) + y


@pytest.mark.parametrize("n", [1, 1000, 1 << 20, (1 << 22) + 7])
def test_vector_add_matches_numpy(stream, rng, n):
    got, ref = launch_vadd(stream, kernel(VADD, "vadd"), n, rng)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


def test_ptx_is_loaded_through_the_driver_jit(stream, rng):
    k = tc.Program(VADD).compile("ptx").get_kernel("vadd")
    got, ref = launch_vadd(stream, k, 5000, rng)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


def test_scalar_parameters_are_packed_by_the_kernels_sizes(stream):
    k = kernel(PARAMS, "params")
    assert k.argument_sizes == [8, 1, 2, 4, 8, 4, 8, 16, 4, 1]
    p = struct.pack("<ifd", 7, 0.5, -3.25)
    expect = [-5, -300, -70000, -(2 ** 40), 1.5, 2.25, 7, 0.5, -3.25, 2 ** 32 - 1, 1]
    for args in ([-5, -300, -70000, -(2 ** 40), 1.5, 2.25, p, 2 ** 32 - 1, True],
                 [np.int8(-5), np.int16(-300), np.int32(-70000), np.int64(-(2 ** 40)), np.float32(1.5),
                  np.float64(2.25), np.frombuffer(p, dtype=np.uint8), np.uint32(2 ** 32 - 1), np.bool_(True)]):
        out = poisoned(8 * 11, stream)
        tc.launch(stream, tc.LaunchConfig(grid=1, block=1), k, out, *args)
        assert list(from_gpu(out, np.float64, 11, stream)) == expect


def test_argument_errors_name_the_argument(stream):
    k = kernel(PARAMS, "params")
    out = tc.Buffer.allocate(88, stream=stream)
    cfg = tc.LaunchConfig(grid=1, block=1)
    good = [out, 1, 2, 3, 4, 1.0, 2.0, bytes(16), 5, False]
    with pytest.raises(TypeError, match=r"kernel 'params' takes 10 arguments but 9 were given"):
        tc.launch(stream, cfg, k, *good[:-1])
    for index, bad, message in [
        (3, 2 ** 40, "does not fit the 4-byte integer parameter"),
        (1, 300, "does not fit the 1-byte"),
        (5, np.float64(1.0), "holds 8 bytes but the parameter has 4"),
        (7, bytes(12), "holds 12 bytes but the parameter has 16"),
        (0, np.zeros(11), "host array"),
        (1, 1.5, "cannot fill a 1-byte"),
        (2, "text", "cannot be passed to a kernel"),
        (0, 2 ** 70, "does not fit in 64 bits"),
    ]:
        args = list(good)
        args[index] = bad
        with pytest.raises(TypeError, match=f"argument {index} .*{message}"):
            tc.launch(stream, cfg, k, *args)
    closed = tc.Buffer.allocate(88, stream=stream)
    closed.close()
    with pytest.raises(TypeError, match="closed"):
        tc.launch(stream, cfg, k, closed, *good[1:])
    with pytest.raises(TypeError, match="LaunchConfig"):
        tc.launch(stream, (1, 1), k, *good)
    with pytest.raises(TypeError, match="Kernel"):
        tc.launch(stream, cfg, "params", *good)
    with pytest.raises(TypeError, match="at least 3"):
        tc.launch(stream, cfg)
    tc.launch(stream, cfg, k, *good)  # the good call still works after the errors
    stream.sync()


def test_name_expressions_and_missing_kernels(stream, rng):
    obj = tc.Program(TEMPLATE).compile(name_expressions=["scale<float>", "scale<double>"])
    x = rng.standard_normal(300)
    for dtype, name in ((np.float32, "scale<float>"), (np.float64, "scale<double>")):
        k = obj.get_kernel(name)
        assert k.name == name and obj.get_kernel(name) is k
        buf = to_gpu(x.astype(dtype), stream)
        tc.launch(stream, tc.LaunchConfig(grid=2, block=256), k, buf, dtype(3.0), 300)
        np.testing.assert_allclose(from_gpu(buf, dtype, 300, stream), 3.0 * x.astype(dtype), rtol=1e-6)
    with pytest.raises(ValueError, match="no kernel named 'nope'"):
        obj.get_kernel("nope")


def test_attributes_and_occupancy(dev):
    k = kernel(VADD, "vadd")
    a = k.attributes()
    assert 0 < a["num_regs"] <= 255 and a["max_threads_per_block"] == 1024 and a["local_size_bytes"] == 0
    assert k.max_active_blocks_per_multiprocessor(256) >= 1
    assert k.num_arguments == 4 and "vadd" in repr(k)
    with pytest.raises(ValueError, match="positive"):
        k.max_active_blocks_per_multiprocessor(0)


def test_large_dynamic_shared_memory_and_clusters(dev, stream):
    src = r'''extern "C" __global__ void smem(int* out, int n) {
      extern __shared__ int tile[];
      for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = i;
      __syncthreads();
      int s = 0;
      for (int i = threadIdx.x; i < n; i += blockDim.x) s += tile[n - 1 - i];
      atomicAdd(out + blockIdx.x, s);
    }'''
    k = kernel(src, "smem")
    n = 150 * 1024 // 4
    k.set_max_dynamic_shared_memory(n * 4)
    out = tc.Buffer.allocate(4 * 4, stream=stream)
    out.fill(0, stream=stream)
    tc.launch(stream, tc.LaunchConfig(grid=4, block=256, shmem_size=n * 4, cluster=2), k, out, n)
    assert list(from_gpu(out, np.int32, 4, stream)) == [n * (n - 1) // 2] * 4


def test_launch_errors_name_the_kernel(dev, stream):
    src = r'extern "C" __global__ void big(float* y) { extern __shared__ float s[]; s[threadIdx.x] = 1; y[0] = s[0]; }'
    k = kernel(src, "big")
    out = tc.Buffer.allocate(4, stream=stream)
    with pytest.raises(tc.CUDAError, match="launching kernel 'big'.*shared_mem 1048576"):
        tc.launch(stream, tc.LaunchConfig(grid=1, block=32, shmem_size=1 << 20), k, out)


def test_default_stream_and_foreign_arrays(stream, rng):
    k = kernel(VADD, "vadd")
    got, ref = launch_vadd(None, k, 4096, rng)  # None: the legacy default stream
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_torch_tensors_and_streams(rng):
    torch = pytest.importorskip("torch")
    k = kernel(VADD, "vadd")
    n = 100_003
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        out = torch.full((n,), float("nan"), device="cuda")
    tc.launch(ts, tc.LaunchConfig(grid=(n + 255) // 256, block=256), k, out, x, y, n)  # torch's stream
    ts.synchronize()
    torch.testing.assert_close(out, x + y)
    with pytest.raises(TypeError, match="on the CPU"):
        tc.launch(ts, tc.LaunchConfig(grid=1, block=1), k, out.cpu(), x, y, n)


def test_cupy_arrays(rng):
    cupy = pytest.importorskip("cupy")
    k = kernel(VADD, "vadd")
    n = 77_777
    x = cupy.asarray(rng.standard_normal(n).astype(np.float32))
    y = cupy.asarray(rng.standard_normal(n).astype(np.float32))
    out = cupy.full(n, np.nan, dtype=cupy.float32)
    s = cupy.cuda.get_current_stream()
    tc.launch(tc.Stream.from_handle(s.ptr), tc.LaunchConfig(grid=(n + 255) // 256, block=256), k, out, x, y, n)
    s.synchronize()
    np.testing.assert_allclose(cupy.asnumpy(out), cupy.asnumpy(x + y), rtol=1e-6)


def test_launches_from_several_threads(dev, rng):
    k = kernel(VADD, "vadd")
    errors = []

    def work():
        try:
            dev.set_current()
            s = dev.create_stream()
            for _ in range(50):
                got, ref = launch_vadd(s, k, 1000, rng)
                np.testing.assert_allclose(got, ref, rtol=1e-6)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
