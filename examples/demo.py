"""tegula demo: compile a CUDA C++ kernel at run time and launch it; then the same NumPy code on
tegula.numpy, fused into single kernels (on the GPU, or on the CPU interpreter without one)."""
import sys
import time

import numpy as np

import tegula.core as tc

SAXPY = r"""
extern "C" __global__ void saxpy(float* out, const float* x, const float* y, float a, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  for (; i < n; i += (long long)gridDim.x * blockDim.x) out[i] = a * x[i] + y[i];
}
"""


def main() -> int:
    info = tc.driver_info()
    program = tc.Program(SAXPY)
    if not (info["available"] and info.get("device_count", 0) > 0):
        print("No CUDA GPU here:", info["error"].splitlines()[0])
        obj = program.compile(target_type="ptx")
        print(f"The JIT still works: compiled saxpy to {len(obj.code)} bytes of PTX for compute_90 "
              f"({program.last_compile['cache']}, {program.last_compile['seconds'] * 1e3:.1f} ms).")
        print("Run this on a machine with an NVIDIA GPU to launch it.")
        return numpy_demo(gpu=False)

    dev = tc.Device()
    dev.set_current()
    stream = dev.create_stream()
    t0 = time.perf_counter()
    kernel = program.compile().get_kernel("saxpy")
    print(f"{dev.name} (sm_{dev.arch}): compiled saxpy in {(time.perf_counter() - t0) * 1e3:.1f} ms "
          f"(cache: {program.last_compile['cache']})")

    n = 1 << 26
    rng = np.random.default_rng()
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    dx, dy = tc.Buffer.from_host(x, stream=stream), tc.Buffer.from_host(y, stream=stream)
    dout = tc.Buffer.allocate(x.nbytes, stream=stream)
    dout.fill(0xFF, stream=stream)  # poison: NaNs wherever the kernel does not write
    config = tc.LaunchConfig(grid=dev.multiprocessor_count * 8, block=256)
    tc.launch(stream, config, kernel, dout, dx, dy, 2.5, n)  # warm-up
    start, end = dev.create_event(), dev.create_event()
    start.record(stream)
    tc.launch(stream, config, kernel, dout, dx, dy, 2.5, n)
    end.record(stream)
    end.sync()
    ms = end - start
    out = np.empty_like(x)
    dout.copy_to_host(out, stream=stream)
    ref = 2.5 * x.astype(np.float64) + y
    err = np.abs(out - ref).max()
    print(f"saxpy on {n:,} floats: {ms:.3f} ms, {3 * x.nbytes / ms / 1e6:.0f} GB/s, max error {err:.2e}")
    if err >= 1e-5:
        return 1
    return numpy_demo(gpu=True)


def numpy_demo(gpu):
    """Plain NumPy code, one changed import: the chain and the softmax each run as one fused kernel."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the no-GPU notice is printed below instead
        import tegula.numpy as tnp

        rows, cols = (8192, 4096) if gpu else (64, 1000)
        rng = np.random.default_rng()
        xh = rng.standard_normal((rows, cols), dtype=np.float32)
        x = tnp.asarray(xh)
    where = "GPU" if gpu else "CPU interpreter (no GPU here)"

    def softmax(np_):
        e = np_.exp(x_ - x_.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    x_ = xh
    ref = softmax(np)
    x_ = x
    before = tnp.kernel_stats()["launches"]
    s = softmax(tnp)
    s.get()
    launches = tnp.kernel_stats()["launches"] - before
    t0 = time.perf_counter()
    for _ in range(10):
        softmax(tnp)._materialize()
    tnp.synchronize()
    ms = (time.perf_counter() - t0) / 10 * 1e3
    err = np.abs(s.get() - ref).max()
    print(f"tegula.numpy softmax {rows}x{cols} on the {where}: {launches} kernel launch(es), {ms:.3f} ms per call "
          f"({2 * xh.nbytes / ms / 1e6:.3g} GB/s), max error vs NumPy {err:.1e}")
    print("the fused kernel's tile IR:\n" + tnp.last_kernel()[0])
    return 0 if err < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
