"""dask.array over tegula chunks on the CPU interpreter (issue #10): reductions, matmul, tensordot, elementwise math,
slicing, rechunk, concatenate, map_blocks, where and cumsum give tegula chunks with NumPy's values; tegula.dask builds
such arrays from host data and brings them back. tests/gpu/test_gpu_dask.py runs the same on the GPU."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install 'dask[array]')")

import tegula.dask as tdask  # noqa: E402
import tegula.numpy as tnp  # noqa: E402

H = np.random.default_rng(0).standard_normal((300, 200))


def dask_cases(d, h):
    return {
        "mean": (d.mean(), h.mean()), "std": (d.std(), h.std()), "sum0": (d.sum(axis=0), h.sum(0)),
        "max1": (d.max(axis=1), h.max(1)), "argmax0": (d.argmax(axis=0), h.argmax(0)),
        "ufuncs": (np.sin(d) + 2 * da.exp(d / 4), np.sin(h) + 2 * np.exp(h / 4)),
        "matmul": (d @ d.T, h @ h.T), "slice": (d[10:250:3, ::7], h[10:250:3, ::7]),
        "concatenate": (da.concatenate([d, d], axis=0).sum(axis=1), np.concatenate([h, h]).sum(1)),
        "rechunk": (d.rechunk((100, 100)).sum(), h.sum()),
        "map_blocks": (d.map_blocks(lambda b: b * 2 + 1).sum(), (h * 2 + 1).sum()),
        "where": (da.where(d > 0, d, 0).sum(), np.where(h > 0, h, 0).sum()),
        "var1": (d.var(axis=1), h.var(1)), "transpose": (d.T.sum(axis=0), h.T.sum(0)),
        "tensordot": (da.tensordot(d, d, axes=((0,), (0,))), np.tensordot(h, h, axes=((0,), (0,)))),
        "cumsum": (d.cumsum(axis=0), h.cumsum(0)),
    }


def check(d, h):
    for name, (lazy, ref) in dask_cases(d, h).items():
        got = lazy.compute()
        assert isinstance(got, tnp.ndarray), f"{name}: a {type(got).__name__}, not a tegula array"
        np.testing.assert_allclose(tnp.asnumpy(got), ref, rtol=1e-9, atol=1e-9, err_msg=name)


def test_dask_over_tegula_chunks():
    d = da.from_array(tnp.asarray(H, device="cpu"), chunks=(64, 50), asarray=False)
    assert type(d._meta) is tnp.ndarray
    check(d, H)


def test_tegula_dask_helpers():
    d = tdask.from_array(H, chunks=(70, 64), device="cpu")
    assert type(d._meta) is tnp.ndarray and d.dtype == H.dtype
    check(d, H)
    back = tdask.to_numpy(d * 3).compute()
    assert isinstance(back, np.ndarray)
    np.testing.assert_allclose(back, H * 3)


def test_from_array_spreads_chunks_over_devices(monkeypatch):
    """devices=[0, 1]: chunks go round robin in C order of the block index (recorded here without GPUs)."""
    import numpy as np

    import tegula.numpy as tnp
    from tegula import dask as tdask

    placed = {}
    real = tnp.asarray

    def fake(b, device=None, **kw):
        placed[float(np.asarray(b).flat[0])] = device
        return real(b, device="cpu")

    monkeypatch.setattr(tnp, "asarray", fake)
    monkeypatch.setattr(tnp, "empty", lambda shape, dtype=None, device=None: real(np.empty(shape, dtype), device="cpu"))
    x = np.arange(16.0).reshape(4, 4)
    d = tdask.from_array(x, chunks=(2, 2), devices=[0, 1])
    assert float(d.sum().compute()) == x.sum()
    assert placed == {0.0: "cuda:0", 2.0: "cuda:1", 8.0: "cuda:0", 10.0: "cuda:1"}
