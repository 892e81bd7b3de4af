"""Threads on the GPU (issue #8): 8 threads x 1000 tile launches, per-thread streams and tegula.numpy work, and a
new kernel compiled by 8 threads at once, all giving the right answers."""
import numpy as np

import tegula.core as tc
import tegula.numpy as tnp
import tegula.tile as tt
from threads import run_threads


@tt.kernel
def accumulate(x, out, T: tt.Constant[int]):
    b = tt.bid(0)
    tt.store(out, index=(b,), tile=tt.load(out, index=(b,), shape=(T,)) + tt.load(x, index=(b,), shape=(T,)))


def test_8_threads_x_1000_launches():
    def work(i):
        s = tc.Device().create_stream()
        x = tnp.asarray(np.full(1 << 16, float(i + 1), np.float32), device="cuda")
        out = tnp.zeros(1 << 16, dtype="float32", device="cuda")
        tnp.synchronize()
        for _ in range(1000):
            tt.launch(accumulate, grid=((1 << 16) // 1024,), args=(x, out, 1024), stream=s)
        s.sync()
        np.testing.assert_array_equal(out.get(), np.full(1 << 16, 1000.0 * (i + 1), np.float32))

    run_threads(work)


def test_numpy_work_and_a_new_kernel_per_thread():
    @tt.kernel
    def fresh(x, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.exp(tt.load(x, index=(b,), shape=(T,))))

    def work(i):
        h = np.random.default_rng(i).standard_normal(4096).astype(np.float32)
        x = tnp.asarray(h, device="cuda")
        out = tnp.empty_like(x)
        tt.launch(fresh, grid=(4,), args=(x, out, 1024))
        np.testing.assert_allclose(out.get(), np.exp(h), rtol=1e-6)
        for j in range(50):
            np.testing.assert_allclose(float((x * j).sum()), float((h.astype(np.float64) * j).sum()),
                                       rtol=1e-4, atol=1e-3)

    run_threads(work)
