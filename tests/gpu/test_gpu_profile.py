"""tegula.profile on the GPU: launches timed by CUDA events (grid, block, bytes), copies, allocations, library
calls (cuFFT) and CUB kernels recorded; the Chrome trace holds one event per launch on the GPU track."""
import json

import numpy as np

import tegula
import tegula.numpy as tnp
import tegula.tile as tt


@tt.kernel
def scale(x, out, T: tt.Constant[int]):
    b = tt.bid(0)
    tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * 2.0)


def test_gpu_records(tmp_path):
    h = np.random.default_rng(0).random(1 << 20, dtype=np.float32)
    x = tnp.asarray(h, device="cuda")
    out = tnp.empty_like(x)
    tt.launch(scale, grid=(1024,), args=(x, out, 1024))  # compiled outside the profile
    with tegula.profile(time_every=1) as p:  # every launch timed: all of them on the GPU track
        for _ in range(10):
            tt.launch(scale, grid=(1024,), args=(x, out, 1024))
        y = tnp.asarray(h, device="cuda")            # a host-to-device copy and an allocation
        s = float((tnp.exp(y) * 2).sum())            # fused array kernels and a device-to-host copy
        tnp.fft.fft(y[:4096])                        # a library call
        tnp.sort(y)                                  # CUB's kernels
    np.testing.assert_allclose(out.get(), 2 * h)
    assert abs(s - float(np.sum(np.exp(h.astype(np.float64)) * 2))) < 1e-3 * s
    mine = [r for r in p.launches if r.name.startswith("scale")]
    assert len(mine) == 10
    for r in mine:
        assert r.kind == "launch" and r.device == 0 and r.gpu_us > 0 and r.gpu_start_us >= 0
        assert r.grid == (1024, 1, 1) and r.block[0] > 0 and r.bytes == 2 * (1 << 20) * 4
    assert any(r.name.startswith("tegula_array") for r in p.launches)
    assert any("cub" in r.name or "Radix" in r.name for r in p.launches)
    assert any(r.kind == "copy" and r.name == "h2d" and r.bytes == h.nbytes for r in p.copies)
    assert any(r.kind == "copy" and r.name == "d2h" for r in p.copies)
    assert any(r.kind == "alloc" for r in p.allocations)
    lib = [r for r in p.library_calls if r.name == "cufft"]
    assert lib and lib[0].gpu_us > 0
    assert "scale" in p.table() and "GB/s" in p.table()
    trace = json.load(open(p.export_chrome_trace(str(tmp_path / "t.json"))))
    launches = [e for e in trace["traceEvents"] if e.get("cat") == "launch"]
    assert len(launches) == len([r for r in p.records if r.kind == "launch"])
    assert all(e["pid"] == 1 for e in launches)


def test_sampled_gpu_timing():
    """Each kernel's first timed_first launches are timed, then every time_every-th; the summary's total is the timed mean
    times the calls; time_every=1 times them all. Every launch is recorded either way."""
    h = np.random.default_rng(1).random(1 << 16, dtype=np.float32)
    x = tnp.asarray(h, device="cuda")
    out = tnp.empty_like(x)
    tt.launch(scale, grid=(64,), args=(x, out, 1024))
    with tegula.profile(time_every=8, timed_first=16) as p:
        for _ in range(100):
            tt.launch(scale, grid=(64,), args=(x, out, 1024))
    mine = [r for r in p.launches if r.name.startswith("scale")]
    timed = [r for r in mine if r.gpu_us > 0]
    assert len(mine) == 100 and len(timed) == 16 + len(range(24, 101, 8))
    row = next(r for r in p.summary() if r["name"].startswith("scale"))
    assert row["timed_calls"] == len(timed) and abs(row["total_us"] - row["mean_us"] * 100) < 1e-6
    assert f"sampled {len(timed)}/100" in p.table()
    with tegula.profile(time_every=1) as p:
        for _ in range(40):
            tt.launch(scale, grid=(64,), args=(x, out, 1024))
    assert sum(1 for r in p.launches if r.gpu_us > 0) == 40
    with tegula.profile() as p:  # the defaults: the first 4, then every 64th
        for _ in range(200):
            tt.launch(scale, grid=(64,), args=(x, out, 1024))
    mine = [r for r in p.launches if r.name.startswith("scale")]
    assert len(mine) == 200 and sum(1 for r in mine if r.gpu_us > 0) == 4 + len(range(64, 201, 64))
    trace = p.chrome_trace()["traceEvents"]  # still one event per launch: untimed ones on the host track
    assert sum(1 for e in trace if e.get("cat") == "launch" and e["name"].startswith("scale")) == 200
    with tegula.profile(gpu_timing=False) as p:
        for _ in range(10):
            tt.launch(scale, grid=(64,), args=(x, out, 1024))
    mine = [r for r in p.launches if r.name.startswith("scale")]
    assert len(mine) == 10 and all(r.gpu_us == -1 and r.host_us > 0 for r in mine)
