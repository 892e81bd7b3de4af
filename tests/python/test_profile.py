"""tegula.profile on the CPU interpreter: launches (interpreted), compiles, the table, the Chrome trace (one event
per launch, valid JSON), nesting, NVTX ranges and `tegula profile`. GPU timing is tested in
tests/gpu/test_gpu_profile.py."""
import contextlib
import io
import json
import os

import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
import tegula.tile as tt
from tegula import cli


@tt.kernel
def add(x, y, out, T: tt.Constant[int]):
    b = tt.bid(0)
    tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) + tt.load(y, index=(b,), shape=(T,)))


def test_records_launches_and_bytes():
    x = np.random.rand(4096).astype(np.float32)
    out = np.empty_like(x)
    tt.launch(add, grid=(4,), args=(x, x, out, 1024), interpret=True)  # compiled before the profile
    with tegula.profile() as p:
        for _ in range(7):
            tt.launch(add, grid=(4,), args=(x, x, out, 1024), interpret=True)
        a = tnp.asarray(x)
        float((tnp.exp(a) * 2).sum())
    np.testing.assert_allclose(out, 2 * x)
    adds = [r for r in p.launches if r.name == "add"]
    assert len(adds) == 7 and all(r.kind == "interpret" and r.bytes == 3 * 4096 * 4 for r in adds)
    assert all(r.host_us > 0 and r.gpu_us == -1 for r in adds)
    assert any(r.name == "tegula_array_kernel" for r in p.launches)
    rows = {r["name"]: r for r in p.summary()}
    assert rows["add"]["calls"] == 7 and rows["add"]["bytes"] == 7 * 3 * 4096 * 4 and rows["add"]["gbps"] > 0
    text = p.table()
    assert "add" in text and "interpret" in text and "(host)" in text
    assert not tegula._tegula.profiler_active()
    tt.launch(add, grid=(4,), args=(x, x, out, 1024), interpret=True)
    assert len([r for r in p.launches if r.name == "add"]) == 7  # nothing recorded after the block


def test_chrome_trace_one_event_per_launch(tmp_path):
    x = np.random.rand(2048).astype(np.float32)
    with tegula.profile() as p:
        for _ in range(5):
            tt.launch(add, grid=(2,), args=(x, x, np.empty_like(x), 1024), interpret=True)
    path = p.export_chrome_trace(str(tmp_path / "trace.json"))
    with open(path) as f:
        trace = json.load(f)
    launches = [e for e in trace["traceEvents"] if e.get("cat") in ("launch", "interpret")]
    assert len(launches) == len(p.launches) == 5
    assert all(e["ph"] == "X" and e["dur"] >= 0 and e["name"] == "add" for e in launches)


def test_compiles_are_recorded():
    try:
        tegula._tegula.nvrtc_version()
    except tegula.TegulaError as e:
        pytest.skip(f"NVRTC is not installed: {e}")
    from tegula.core import Program, ProgramOptions

    src = 'extern "C" __global__ void k%d(float* p) { p[threadIdx.x] += 1.0f; }' % os.getpid()
    with tegula.profile() as p:
        Program(src, options=ProgramOptions(arch="sm_90")).compile("ptx")
        Program(src, options=ProgramOptions(arch="sm_90")).compile("ptx")
    assert [r.kind for r in p.compiles] == ["compile", "compile"]
    assert p.compiles[1].detail == "memory" and p.compiles[0].detail in ("compiled", "disk")
    assert "JIT: 2 compiles" in p.table()


def test_profiles_do_not_nest_and_nvtx_ranges_work():
    with tegula.profile():
        with pytest.raises(RuntimeError, match="do not nest"):
            with tegula.profile():
                pass
    with tegula.nvtx_range("user region"):
        pass
    assert not tegula._tegula.profiler_active()


@pytest.mark.parametrize("kw, msg", [({"time_every": 0}, "time_every must be 1 or more"),
                                     ({"timed_first": -1}, "timed_first must be 0 or more")])
def test_profile_rejects_bad_sampling(kw, msg):
    with pytest.raises(ValueError, match=msg):
        with tegula.profile(**kw):
            pass
    assert not tegula._tegula.profiler_active()


def test_cli_profile(tmp_path):
    script = tmp_path / "work.py"
    script.write_text("import numpy as np, tegula.numpy as tnp\n"
                      "a = tnp.asarray(np.arange(10000.0))\n"
                      "print(float((a * 2).sum()))\n")
    trace = tmp_path / "t.json"
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        assert cli.main(["profile", "--trace", str(trace), str(script)]) == 0
    assert "99990000.0" in out.getvalue()
    assert "tegula_array_kernel" in err.getvalue() and "trace:" in err.getvalue()
    assert json.loads(trace.read_text())["traceEvents"]
