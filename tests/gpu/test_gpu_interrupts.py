"""Ctrl-C during a long GPU synchronisation (issue #8): Stream.sync and tegula.numpy.synchronize raise
KeyboardInterrupt at once while a seconds-long kernel runs, and later calls work once it is done."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import tegula.numpy as tnp
import tegula.tile as tt


@tt.kernel
def spin(x, out, N: tt.int32):
    b = tt.bid(0)
    v = tt.load(x, index=(b,), shape=(128,))
    i = 0
    while i < N:
        v = tt.sin(v) + 0.5
        i = i + 1
    tt.store(out, index=(b,), tile=v)


def test_ctrl_c_during_a_long_synchronize():
    x = tnp.asarray(np.random.rand(128 * 132).astype(np.float32), device="cuda")
    out = tnp.empty_like(x)
    tt.launch(spin, grid=(132,), args=(x, out, 10))  # compile first
    tnp.synchronize()
    t0 = time.perf_counter()
    tt.launch(spin, grid=(132,), args=(x, out, 60_000_000))  # about 3 s of work
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        tnp.synchronize()
    assert time.perf_counter() - t0 < 1.5
    tnp.synchronize()  # waits for the rest; the stream and the context are fine
    tt.launch(spin, grid=(132,), args=(x, out, 3))
    ref = x.get()
    for _ in range(3):
        ref = np.sin(ref) + np.float32(0.5)
    np.testing.assert_allclose(out.get(), ref, rtol=1e-5)
