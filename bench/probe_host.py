"""Where the host's time goes in NPBench programs run by tegula.numpy: after a first call (compiles), one call under
cProfile, its functions by own time (tottime: Python and the C++ calls it makes, waits for the GPU included), with
the call's launches and reads back. A diagnostic for #24's "Python loops of tiny operations":
    python3 bench/probe_host.py PRESET name[,name...] [TOP]
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import npbench_suite as suite  # noqa: E402


def main():
    import tegula.core as tc
    import tegula.numpy as tnp

    preset, names = sys.argv[1], sys.argv[2].split(",")
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    try:
        dev = tc.Device(0)
    except Exception:  # noqa: BLE001
        dev = None

    def force(outs):
        for o in outs:
            if isinstance(o, tnp.ndarray):
                o._materialize()
        if dev is not None:
            dev.sync()

    for name in names:
        program = suite.Program(name)
        data = program.data(preset)
        fn = program.implementation("tegula")

        def call():
            args = program.arguments(data, tnp.asarray)
            force(args)
            t = time.perf_counter()
            force(program.outputs(fn(*args), args))
            return time.perf_counter() - t

        call()
        plain = call()
        prof = cProfile.Profile()
        prof.enable()
        profiled = call()
        prof.disable()
        s = io.StringIO()
        st = pstats.Stats(prof, stream=s)
        calls = sum(v[1] for v in st.stats.values())
        print(f"== {name} ({preset}): {plain * 1e3:.1f} ms plain, {profiled * 1e3:.1f} ms profiled, "
              f"{calls} Python calls", flush=True)
        st.sort_stats("tottime").print_stats(top)
        text = s.getvalue()
        start = text.find("   ncalls")
        print(text[start:].rstrip().replace("/work/main/python/", "").replace("/root/", ""), flush=True)


if __name__ == "__main__":
    main()
