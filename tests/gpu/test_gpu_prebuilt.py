"""On the GPU, a new process with an empty disk cache: the first sort, argsort, unique, searchsorted, boolean mask,
advanced index and random draw find their tile kernels in the package (tegula/numpy/_prebuild.py): every compile of
one of those kernels in the profile is a 'package' hit, none waits for NVRTC; the positions scans of masks below
CUB's scan, cumsum and argmax that the GPU planned are the package's. Values against NumPy."""
import json
import os
import subprocess
import sys

CHILD = r'''
import json
import numpy as np
import os
import tegula, tegula.numpy as tnp
from tegula import _tegula
rng = np.random.default_rng(5)
_tegula.array_record_kernels(True)
x0 = rng.integers(0, 1000, 100_000)
f0 = rng.standard_normal(100_000).astype(np.float32)
c0 = (rng.standard_normal(5000) + 1j * rng.standard_normal(5000))
a0 = rng.standard_normal((3000, 8))
with tegula.profile() as p:
    x, f, c, a = tnp.asarray(x0), tnp.asarray(f0), tnp.asarray(c0), tnp.asarray(a0)
    ok = []
    ok.append(np.array_equal(tnp.unique(x).get(), np.unique(x0)))
    ok.append(np.array_equal(tnp.argsort(f).get(), np.argsort(f0, kind="stable")))
    ok.append(np.array_equal(tnp.sort(x, descending=True).get(), np.sort(x0)[::-1]))
    ok.append(np.array_equal(tnp.searchsorted(tnp.sort(f), f[:100]).get(), np.searchsorted(np.sort(f0), f0[:100])))
    ok.append(np.array_equal(f[f > 0].get(), f0[f0 > 0]))
    ok.append(np.array_equal(c[c.real > 0].get(), c0[c0.real > 0]))
    idx0 = rng.integers(0, 3000, 500)
    ok.append(np.array_equal(a[tnp.asarray(idx0)].get(), a0[idx0]))
    ok.append(np.array_equal(x[tnp.asarray(idx0)].get(), x0[idx0]))
    y0 = x0.copy(); y0[idx0] = 7
    y = x.copy(); y[tnp.asarray(idx0)] = 7
    ok.append(np.array_equal(y.get(), y0))
    g = tnp.random.default_rng(1).standard_normal(1000).get()
    ok.append(g.shape == (1000,) and np.isfinite(g).all())
    for n in (3000, 20000):  # masks below CUB's scan: the engine's positions scans
        s0 = rng.standard_normal(n)
        s = tnp.asarray(s0)
        ok.append(np.array_equal(s[s > 0.5].get(), s0[s0 > 0.5]))
        ok.append(np.allclose(tnp.cumsum(s).get(), np.cumsum(s0)))
    big0 = rng.standard_normal(1_000_000)
    ok.append(int(tnp.argmax(tnp.asarray(big0))) == int(np.argmax(big0)))
_tegula.array_record_kernels(False)
folder = os.path.join(os.path.dirname(tegula.__file__), "tegula_prebuilt_tile")
scans = [t.cubin_key for t in _tegula.array_recorded_translations(90)
         if any(op in t.ir.print() for op in (" = cumsum ", " = argmax "))]
print(json.dumps({"ok": [bool(v) for v in ok], "compiles": [(c.name, c.detail) for c in p.compiles],
                  "scans": len(scans), "scans_packaged": sum(os.path.exists(os.path.join(folder, k + ".bin"))
                                                             for k in scans)}))
'''
TILE = {"_keys", "_unkeys", "compress", "expand", "indexed", "_bsearch", "_philox", "int_matmul", "_totals",
        "_scan_chunks"}


def test_first_calls_find_their_tile_kernels_in_the_package(tmp_path):
    env = dict(os.environ, TEGULA_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    d = json.loads(r.stdout.strip().splitlines()[-1])
    assert all(d["ok"]), d["ok"]
    tile = [(name, how) for name, how in d["compiles"] if name in TILE]
    assert len({n for n, _ in tile}) >= 5, d["compiles"]
    assert all(how == "package" for _, how in tile), tile
    assert d["scans"] >= 4 and d["scans_packaged"] == d["scans"], d  # the GPU's plans are the package's
