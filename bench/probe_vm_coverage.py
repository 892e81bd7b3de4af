"""Which kernels of NPBench's programs the array VM runs on a first call, found on the CPU interpreter (no GPU):
each program at preset S with the VM audit on (array/vm_audit.hpp), its distinct kernels counted by outcome: 'vm'
(the VM runs it while its fused kernel compiles), 'vm after inner reductions' (a GPU first run materialises those on
the VM and plans again), 'vm (copy)', 'vm in parts' (too large for one VM program: a GPU first run materialises its
largest part on the VM, cut again while too large, and plans the rest again), or why the VM cannot run it (the first call waits for that compile, unless
the package carries its cubin: the kernels with no VM form are also looked up in tegula_prebuilt_tile/, the
package's entries that tegula/numpy/_prebuild.py lists, and counted as 'in the package').
    python3 bench/probe_vm_coverage.py [name,name...]      (TEGULA_PROBE_PRESET=paper: another preset than S)
"""
from __future__ import annotations

import collections
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npbench_suite as S  # noqa: E402

import tegula.numpy as tnp  # noqa: E402
from tegula import _tegula  # noqa: E402

COVERED = ("vm", "vm after inner reductions", "vm (copy)")
COVERED_PREFIXES = ("vm in parts",)  # a graph too large for one program: run_first materialises its parts on the VM


def covers(outcome):
    return outcome in COVERED or outcome.startswith(COVERED_PREFIXES)


def main():
    names = sys.argv[1].split(",") if len(sys.argv) > 1 else S.names()
    total = collections.Counter()
    examples = {}
    waits = {}
    for name in names:
        program = S.Program(name)
        data = program.data(os.environ.get("TEGULA_PROBE_PRESET", "S"))
        _tegula.array_vm_audit_clear()
        _tegula.set_array_vm_audit(True)
        _tegula.array_record_kernels(True)
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                out, _ = S.run(program, "tegula", data, lambda a: tnp.asarray(a, device="cpu"))
                for o in out:
                    S.to_host(o)  # the outputs evaluated (they stay pending until read)
        except Exception as e:  # noqa: BLE001 - a probe: say it and go on
            print(f"{name:22s} did not run: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
            continue
        finally:
            _tegula.set_array_vm_audit(False)
            _tegula.array_record_kernels(False)
        no_vm = [t for t in _tegula.array_recorded_translations(90) if _no_vm_form(t)]
        packaged = sum(os.path.exists(os.path.join(PACKAGE, t.cubin_key + ".bin")) for t in no_vm)
        total["(no VM form) in the package"] += packaged
        examples.setdefault("(no VM form) in the package", f"{name}: {packaged} kernels")
        res = _tegula.array_vm_audit()
        n = sum(r["kernels"] for r in res)
        covered = sum(r["kernels"] for r in res if covers(r["outcome"]))
        missing = [r for r in res if not covers(r["outcome"])]
        waits[name] = sum(r["kernels"] for r in missing)
        print(f"{name:22s} {n:3d} kernels, {covered:3d} on the VM" +
              "".join(f"; no VM form {r['kernels']}: {r['outcome'][:90]} ({r['example']})" for r in missing) +
              (f"; {packaged} of the {len(no_vm)} with no VM form in the package" if no_vm else ""))
        waits[name] -= packaged
        for r in res:
            total[r["outcome"]] += r["kernels"]
            examples.setdefault(r["outcome"], f"{name}: {r['example']}")
    print("\n== all programs: distinct kernels by outcome")
    for outcome, k in total.most_common():
        print(f"{k:5d}  {outcome[:110]}  [{examples[outcome]}]")
    print(f"\nprograms with no kernel waiting (none, or all in the package): "
          f"{sum(1 for v in waits.values() if v <= 0)} of {len(waits)}")


PACKAGE = os.path.join(os.path.dirname(tnp.__file__), "..", "tegula_prebuilt_tile")


def _no_vm_form(t):
    """A kernel of a kind the VM has no form for (scans, arg-reductions): what a first call would wait for."""
    ir = t.ir.print()
    return any(f" = {op} " in ir for op in ("cumsum", "cumprod", "argmax", "argmin"))


if __name__ == "__main__":
    main()
