"""`import tegula.numpy` does no work it can defer (issue #26): NumPy's submodules (linalg, fft, random, lib, emath,
testing), the function modules in the package's _LAZY_MODULES table, the _functions facade, the tile front end and
autotuner load at first use, and no tile kernel reads its source at import; every public name still resolves, to the
same object as before, through __getattr__, __array_function__ and the ndarray's methods."""
import json

from child_process import run_python

# Modules `import tegula.numpy` must not load (each loads at the first use of one of its names).
DEFERRED = [
    "tegula.numpy.linalg", "tegula.numpy.fft", "tegula.numpy.random", "tegula.numpy.lib", "tegula.numpy.emath",
    "tegula.numpy.testing", "tegula.numpy._generator", "tegula.numpy._random_global", "tegula.numpy._functions",
    "tegula.numpy._sort", "tegula.numpy._matmul", "tegula.numpy._pad", "tegula.numpy._repeat",
    "tegula.numpy._einsum", "tegula.numpy._convolve", "tegula.numpy._construct", "tegula.numpy._special",
    "tegula.numpy._mathextra", "tegula.numpy._reshaping", "tegula.numpy._host_utils", "tegula.numpy._setops",
    "tegula.numpy._index_tricks", "tegula.numpy._histogram", "tegula.numpy._ufunc_segments",
    "tegula.numpy._index_kernels", "tegula.numpy._scan",
    "tegula.tile", "tegula.tile._kernel", "tegula.tile._frontend", "tegula.tile._emit", "tegula.tile._autotune",
    "numpy.fft", "numpy.random", "numpy.testing", "hashlib", "json", "tempfile",
]


def _child_json(code):
    return json.loads(run_python(code).stdout.strip().splitlines()[-1])


def test_import_defers_submodules_function_modules_and_kernels():
    loaded = _child_json(
        "import sys\n"
        "import tegula.numpy as tnp\n"
        f"modules = [m for m in {DEFERRED!r} if m in sys.modules]\n"
        "from tegula.numpy import _index_kernels as K  # (imported here: tegula.numpy does not)\n"
        "from tegula.tile import Kernel\n"
        "kernels = [k for k in vars(K).values() if isinstance(k, Kernel)]\n"
        "import json\n"
        "print(json.dumps({'modules': modules, 'kernels': len(kernels),\n"
        "                  'parsed': [k.__name__ for k in kernels if 'tree' in vars(k)]}))"
    )
    assert loaded["modules"] == [], f"import tegula.numpy loaded {loaded['modules']}"
    assert loaded["kernels"] > 0 and loaded["parsed"] == [], loaded


def test_tegula_and_core_stay_light():
    out = _child_json(
        "import sys, json\n"
        "import tegula\n"
        "a = sorted(m for m in sys.modules if m.startswith(('tegula', 'numpy')))\n"
        "import tegula.core\n"
        "b = sorted(m for m in sys.modules if m.startswith(('tegula.numpy', 'tegula.tile', 'numpy')))\n"
        "print(json.dumps([a, b]))"
    )
    assert out == [["tegula", "tegula._version"], []]  # _version: one constant


def test_lazy_table_matches_the_modules():
    """_LAZY_MODULES lists each module's __all__ (where it has one), and every listed name is the module's object
    (a ufunc object over it where NumPy's name is a ufunc)."""
    import importlib

    import numpy as np
    import tegula.numpy as tnp
    from tegula.numpy._ufunc_object import ufunc

    for module, names in tnp._LAZY_MODULES.items():
        m = importlib.import_module(f"tegula.numpy.{module}")
        if hasattr(m, "__all__"):
            assert sorted(names) == sorted(m.__all__), module
        for n in names:
            if tnp._LAZY_NAMES[n] != module:
                continue
            v = getattr(tnp, n)
            if isinstance(getattr(np, n, None), np.ufunc) and isinstance(v, ufunc):
                assert v._fn is getattr(m, n), n
            else:
                assert v is getattr(m, n), n
    assert set(tnp._LAZY_NAMES) <= set(tnp.__all__) and set(tnp._LAZY_NAMES) <= set(dir(tnp))


def test_every_public_name_resolves_in_a_new_process():
    out = _child_json(
        "import json\n"
        "import tegula.numpy as tnp\n"
        "names = sorted(set(tnp.__all__) | {n for n in dir(tnp) if not n.startswith('_')})\n"
        "missing = [n for n in names if not hasattr(tnp, n)]\n"
        "from tegula.numpy import fft, linalg, random, lib, emath, testing\n"
        "import tegula.numpy.lib.stride_tricks\n"
        "print(json.dumps({'missing': missing, 'n': len(names), 'subs': [m.__name__ for m in (fft, linalg, random,\n"
        "                  lib, emath, testing)], 'fft_attr': tnp.fft is fft, 'in_all': 'linalg' in tnp.__all__}))"
    )
    assert out["missing"] == [] and out["n"] > 400
    assert out["subs"] == [f"tegula.numpy.{m}" for m in ("fft", "linalg", "random", "lib", "emath", "testing")]
    assert out["fft_attr"] and not out["in_all"]  # submodules were never in __all__


def test_dispatch_and_methods_load_deferred_modules():
    """NumPy's functions on tegula arrays (__array_function__) and the ndarray's methods reach names whose modules
    have not loaded yet; a pickle written in one process loads in a new one."""
    out = _child_json(
        "import json, pickle, sys\n"
        "import numpy as np\n"
        "import tegula.numpy as tnp\n"
        "x = tnp.asarray([3.0, 1.0, 2.0, 1.0])\n"
        "h = np.histogram(x, bins=2)[0]\n"        # _histogram through __array_function__
        "d = float(np.dot(x, x))\n"              # _matmul
        "s = x.copy(); s.sort()\n"               # _sort through ndarray.sort
        "a = tnp.zeros(4); tnp.add.at(a, tnp.asarray([0, 0, 1]), 1.0)\n"   # _ufunc_segments / _histogram's counts
        "q, r = divmod(x, 2.0)\n"                # __divmod__: _mathextra's divmod
        "print(json.dumps({'h': h.tolist(), 'd': d, 's': s.tolist(), 'a': a.tolist(), 'q': q.tolist(),\n"
        "                  'type': type(h).__module__, 'gcd': type(tnp.gcd).__name__, 'pickle': pickle.dumps(x).hex()}))"
    )
    assert out["h"] == [2, 2] and out["d"] == 15.0 and out["s"] == [1.0, 1.0, 2.0, 3.0]
    assert out["a"] == [2.0, 1.0, 0.0, 0.0] and out["q"] == [1.0, 0.0, 1.0, 0.0]
    assert out["type"].startswith("tegula") and out["gcd"] == "ufunc"
    back = _child_json(
        "import json, pickle\n"
        f"y = pickle.loads(bytes.fromhex({out['pickle']!r}))\n"
        "print(json.dumps([type(y).__module__, y.tolist()]))"
    )
    assert back[0].startswith("tegula") and back[1] == [3.0, 1.0, 2.0, 1.0]


def test_kernel_parses_its_source_at_first_use():
    import tegula.tile as tt

    def copy(x, out, n: tt.Constant[int]):
        tt.store(out, index=(0,), tile=tt.load(x, index=(0,), shape=(n,)))

    k = tt.kernel(copy)
    assert "tree" not in vars(k) and "_launcher" not in vars(k)
    assert k.arg_names == ["x", "out", "n"] and k.constants == [False, False, True]
    assert "tree" in vars(k) and "_launcher" in vars(k)
    assert not hasattr(k, "nope")
