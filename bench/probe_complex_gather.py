"""A pytest plugin that hunts the GPU-only complex gather bug (session 13): after every test it runs a canary (take,
advanced indexing and max of a fresh complex array on the GPU, checked against NumPy) and prints the first test after
which the canary fails, then what the canary gets with the array engine's and the tile launcher's caches in place.

    cd /tmp && PYTHONPATH=$REPO/bench TEGULA_NUMPY_GPU_FULL=1 python3 -m pytest -q -p probe_complex_gather \\
        $REPO/tests/python/test_numpy_complex.py -k cuda

In session 13, `test_numpy_complex.py -k cuda` in one process failed 18 cases (complex take / advanced indexing /
max / min: real and imaginary parts shifted by one float), at 331a279 too; each passes alone."""
import os

import numpy as np

DEVICE = os.environ.get("TEGULA_PROBE_DEVICE", "cuda")  # "cpu" to try the plugin itself without a GPU
_state = {"failed_after": None, "checks": 0}


def _canary():
    """None when complex take, fancy rows and max are right on the GPU, else what is wrong."""
    import tegula.numpy as tnp

    rng = np.random.default_rng(_state["checks"])
    z = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np.complex64)
    a = tnp.asarray(z, device=DEVICE)
    for label, got, want in (("take", tnp.take(a, [3, 0, -1]), np.take(z, [3, 0, -1])),
                             ("rows", a[[2, 0]], z[[2, 0]]),
                             ("max", tnp.max(a, axis=1), np.max(z, axis=1))):
        g = tnp.asnumpy(got)
        if not np.allclose(g, want):
            return f"{label}: got {np.round(g, 3).tolist()}, want {np.round(want, 3).tolist()}"
    return None


def pytest_runtest_teardown(item):
    if _state["failed_after"] is not None:
        return
    _state["checks"] += 1
    try:
        why = _canary()
    except Exception as e:  # noqa: BLE001 - a failing canary is a finding, not a test error
        why = f"{type(e).__name__}: {e}"
    if why is not None:
        _state["failed_after"] = item.nodeid
        print(f"\n[probe] the canary first fails after {item.nodeid}: {why}", flush=True)
        _report()


def _report():
    """What the canary gets again, and which caches there are (to clear them by hand in a later probe)."""
    import tegula.numpy as tnp

    print(f"[probe] canary again: {_canary()}", flush=True)
    stats = getattr(tnp, "kernel_stats", lambda: {})()
    print(f"[probe] array engine kernel stats: {stats}", flush=True)
    from tegula.numpy import _indexing

    k = _indexing._kernels()
    launcher = getattr(k.indexed, "_launcher", None)
    print(f"[probe] indexed kernel: {len(getattr(k.indexed, '_cache', {}))} compiled specs, launcher {launcher}",
          flush=True)


def pytest_sessionfinish(session, exitstatus):
    print(f"\n[probe] {_state['checks']} canary checks; first failure after: {_state['failed_after']}", flush=True)
