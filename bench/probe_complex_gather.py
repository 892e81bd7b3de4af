"""A pytest plugin that hunts the GPU-only complex gather bug (session 13): after every test it runs a canary (take,
advanced indexing and max of a fresh complex array on the GPU, checked against NumPy) and prints the first test after
which the canary fails, then what the canary gets with the array engine's and the tile launcher's caches in place.

    cd /tmp && PYTHONPATH=$REPO/bench TEGULA_NUMPY_GPU_FULL=1 python3 -m pytest -q -p probe_complex_gather \\
        $REPO/tests/python/test_numpy_complex.py -k cuda

In session 13, `test_numpy_complex.py -k cuda` in one process failed 18 cases (complex take / advanced indexing /
max / min: real and imaginary parts shifted by one float), at 331a279 too; each passes alone. Session 15 found the
cause (the array kernel cache missed the complex result's part-view contiguity: array/kernels.cpp now keys every
argument's layout flags and checks them at each launch); the plugin stays to catch a regression on the GPU.
TEGULA_PROBE_DTYPE=complex128 runs the canary in complex128 (the dtype that failed in session 15)."""
import os

import numpy as np

DEVICE = os.environ.get("TEGULA_PROBE_DEVICE", "cuda")  # "cpu" to try the plugin itself without a GPU
DTYPE = os.environ.get("TEGULA_PROBE_DTYPE", "complex64")  # session 15: only complex128 cases failed
_state = {"failed_after": None, "checks": 0}


def _canary():
    """None when complex take, fancy rows and max are right on the GPU, else what is wrong."""
    import tegula.numpy as tnp

    rng = np.random.default_rng(_state["checks"])
    z = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(DTYPE)
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


def _parts_check():
    """Which step goes wrong: the float part gathers, or composing the complex result from right parts."""
    import tegula.numpy as tnp
    from tegula.numpy import _indexing

    rng = np.random.default_rng(12345)
    z = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(DTYPE)
    a = tnp.asarray(z, device=DEVICE)
    out = []
    for k, want in ((0, z.real), (1, z.imag)):
        part = a._part(k)
        g = tnp.asnumpy(tnp.take(part, [3, 0, -1]))
        out.append(f"take part{k} view ok={np.allclose(g, np.take(want, [3, 0, -1]))} got={np.round(g, 3).tolist()}")
        g = tnp.asnumpy(part[[2, 0]])
        out.append(f"rows part{k} view ok={np.allclose(g, want[[2, 0]])}")
        c = tnp.asnumpy(part.copy())
        g = tnp.asnumpy(tnp.take(tnp.asarray(c, device=DEVICE), [3, 0, -1]))
        out.append(f"take part{k} copy ok={np.allclose(g, np.take(want, [3, 0, -1]))}")
    re, im = tnp.asarray(z.real.copy(), device=DEVICE), tnp.asarray(z.imag.copy(), device=DEVICE)
    out.append(f"compose ok={np.allclose(tnp.asnumpy(re._complex(im)), z)}")
    plan = _indexing._plan(a, [("ints", np.asarray([2, 0]))])
    out.append(f"offsets of rows [2, 0]: {_indexing._index_offsets(plan, 0).get().tolist()}")
    for k in (0, 1):
        g = _indexing._gather(_indexing._part_plan(plan, k), True)
        out.append(f"gather part{k}: {np.round(g.get(), 3).tolist()}")
    for k in (0, 1):
        pp = _indexing._part_plan(plan, k)
        first, count = _indexing._span(pp.view)
        base = pp.a._raw_view((count,), (1,), first)
        out.append(f"part{k}: view offset {pp.view._offset} strides {pp.view._strides} span ({first}, {count}); "
                   f"a ptr {pp.a._data_ptr:#x} base ptr {base._data_ptr:#x} "
                   f"cai {base.__cuda_array_interface__['data'][0] if DEVICE != 'cpu' else 0:#x}")
    return out


def _report():
    """What the canary gets again, the parts on their own, and again with the launch fast path and the
    compiled specializations of the indexed kernel dropped (each a hypothesis for the next session)."""
    import tegula.numpy as tnp
    import tegula.tile as tt
    from tegula import _tegula
    from tegula.numpy import _indexing

    print(f"[probe] canary again: {_canary()}", flush=True)
    for line in _parts_check():
        print(f"[probe]   {line}", flush=True)
    stats = getattr(tnp, "kernel_stats", lambda: {})()
    print(f"[probe] array engine kernel stats: {stats}", flush=True)
    k = _indexing._kernels().indexed
    print(f"[probe] indexed kernel: {len(k._launcher)} compiled specializations", flush=True)
    tnp.synchronize()
    print(f"[probe] after a device sync: {_canary()}", flush=True)
    saved = k._launcher
    k._launcher = _tegula.TileLauncher(k.constants, k.num_stages, k.cluster)  # specializations live in the launcher
    print(f"[probe] with the specializations recompiled: {_canary()}", flush=True)
    k._launcher = saved
    ck = _indexing._kernels().compress
    ck._launcher.clear()
    print(f"[probe] with compress recompiled too: {_canary()}", flush=True)


def pytest_sessionfinish(session, exitstatus):
    print(f"\n[probe] {_state['checks']} canary checks; first failure after: {_state['failed_after']}", flush=True)
