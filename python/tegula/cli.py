"""The `tegula` command: `tegula info`, `tegula cache {ls,size,clear}`, `tegula explain` and `tegula profile`.

Errors of the command itself (a missing file, a bad --args, a kernel that does not compile) are one line on
stderr, "tegula COMMAND: message", and exit code 2; a profiled script's own exceptions keep their traceback. Output
cut short by a closed pipe (`tegula cache ls | head`) ends quietly."""
from __future__ import annotations

import argparse
import os
import sys
import time


class CommandError(Exception):
    """An error of the command line or its inputs: printed as one line, exit code 2."""


def _info(_args) -> int:
    import tegula
    from tegula import _tegula, core

    print(f"tegula {tegula.__version__}")
    drv = core.driver_info()
    if drv["available"]:
        v = drv["version"]
        print(f"CUDA driver: {v // 1000}.{(v % 1000) // 10} ({drv['path']})")
        for i in range(drv["device_count"]):
            d = core.Device(i)
            free, total = d.memory_info()
            print(f"  device {i}: {d.name}, sm_{d.arch}, {d.multiprocessor_count} SMs, "
                  f"{total / 2**30:.1f} GiB ({free / 2**30:.1f} GiB free)")
    else:
        print(f"CUDA driver: not available ({drv['error'].splitlines()[0]})")
    try:
        major, minor = _tegula.nvrtc_version()
        print(f"NVRTC: {major}.{minor} ({_tegula.nvrtc_path()})")
    except tegula.TegulaError as e:
        print(f"NVRTC: not available ({str(e).splitlines()[0]})")
    c = _tegula.cache_info()
    state = "enabled" if c["enabled"] else f"disabled: {c['disabled_reason']}"
    print(f"compile cache: {c['directory']} ({state})")
    return 0


def _human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _cache(args) -> int:
    from tegula import _tegula

    if args.action == "ls":
        entries = sorted(_tegula.cache_entries(), key=lambda e: e[2])
        for key, size, mtime in entries:
            print(f"{key}  {_human(size):>10}  {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(mtime))}")
        print(f"{len(entries)} entries, {_human(sum(e[1] for e in entries))} in {_tegula.cache_info()['directory']}")
    elif args.action == "size":
        print(_tegula.cache_size())
    elif args.action == "clear":
        print(f"removed {_tegula.cache_clear()} entries from {_tegula.cache_info()['directory']}")
    return 0


def _load_kernel(target):
    """FILE.py:NAME -> the object NAME of the module FILE.py (its top-level code runs, as on import)."""
    import importlib.util
    import os

    path, _, name = target.rpartition(":")
    if not path or not name:
        raise CommandError(f"expected FILE.tir or FILE.py:KERNEL, got {target!r}")
    if not os.path.isfile(path):
        raise CommandError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    if spec is None:
        raise CommandError(f"cannot import {path} (not a Python file?)")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    if not hasattr(module, name):
        raise CommandError(f"{path} has no {name!r}")
    return getattr(module, name)


def _explain(args) -> int:
    from . import _explain as E

    if args.target.endswith(".tir"):
        if not os.path.isfile(args.target):
            raise CommandError(f"no such file: {args.target}")
        with open(args.target) as f:
            report = E.for_ir(f.read(), args.target, args.arch)
    else:
        obj = _load_kernel(args.target)
        report = E.explain(obj, *E.parse_args_spec(args.args), arch=args.arch)
    show = args.show
    if show == "summary":
        print(report)
        if report.block_threads:
            print("  occupancy by block size (if it could be chosen):")
            for o in report.occupancy_table():
                print(f"    {o['block_threads']:5d} threads: {o['blocks_per_sm']:3d} blocks, {o['occupancy']:4.0%} "
                      f"({o['limited_by']})")
    elif show == "ir":
        print(report.ir(args.stage))
    elif show == "stages":
        for stage in report.stages:
            print(f"// ---- after {stage} ----")
            print(report.ir(stage))
    elif show == "resources":
        for k, v in report.resources.items():
            print(f"{k}: {v}")
    else:
        print(getattr(report, show))
    return 0


def _split_profile_options(words):
    """tegula profile's own options may also follow the script (`tegula profile s.py --trace t.json`, the README's
    form): --trace, --limit and --host-only are taken from anywhere before a `--`; every other word, and all after
    `--`, go to the script."""
    own, rest, i = [], [], 0
    while i < len(words):
        w = words[i]
        if w == "--":
            return own, rest + words[i + 1:]
        if w == "--host-only":
            own.append(w)
        elif w in ("--trace", "--limit"):
            if i + 1 == len(words):
                raise CommandError(f"{w} needs a value")
            own += [w, words[i + 1]]
            i += 1
        elif w.startswith(("--trace=", "--limit=")):
            own.append(w)
        else:
            rest.append(w)
        i += 1
    return own, rest


def _profile(args) -> int:
    import runpy

    from ._profile import profile

    if not os.path.isfile(args.script):
        raise CommandError(f"no such file: {args.script}")
    old_argv = sys.argv
    sys.argv = [args.script] + list(args.script_args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.script)))
    code = 0
    try:
        with profile(gpu_timing=not args.host_only) as p:
            try:
                runpy.run_path(args.script, run_name="__main__")
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = old_argv
    print(p.table(limit=args.limit), file=sys.stderr)
    if args.trace:
        p.export_chrome_trace(args.trace)
        print(f"trace: {args.trace} ({len(p.launches)} launches; open it in https://ui.perfetto.dev)", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tegula", description="tegula: native Python for NVIDIA GPUs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="driver, devices, NVRTC and the compile cache").set_defaults(run=_info)
    cache = sub.add_parser("cache", help="inspect or clear the on-disk compile cache")
    cache.add_argument("action", choices=("ls", "size", "clear"))
    cache.set_defaults(run=_cache)
    ex = sub.add_parser("explain", help="what a kernel compiles to and what it costs: IR after each pass, CUDA, PTX, "
                        "SASS, registers, spills, shared memory, occupancy")
    ex.add_argument("target", help="FILE.tir, or FILE.py:KERNEL (a @tt.kernel; give --args)")
    ex.add_argument("--args", default="", help="launch arguments: arrays as dtype[shape] (float32[64,1024]), "
                    "scalars and constants as literals, separated by spaces")
    ex.add_argument("--arch", type=int, default=None, help="compute capability, e.g. 90 (default: this GPU, else 90)")
    ex.add_argument("--show", default="summary",
                    choices=("summary", "ir", "stages", "source", "ptx", "sass", "resources"))
    ex.add_argument("--stage", default=None, help="with --show ir: the IR after this pass (default: after all)")
    ex.set_defaults(run=_explain)
    pr = sub.add_parser("profile", help="run a Python script under tegula.profile() and print the kernel table",
                        usage="tegula profile [--trace FILE] [--limit N] [--host-only] SCRIPT [ARGS ...] "
                              "(the options may also follow SCRIPT; after `--` everything goes to the script)")
    pr.add_argument("--trace", default=None, help="also write a Chrome/Perfetto trace to this JSON file")
    pr.add_argument("--limit", type=int, default=30, help="rows of the table (default 30)")
    pr.add_argument("--host-only", action="store_true", help="no GPU events: host times only")
    pr.add_argument("script")
    pr.add_argument("script_args", nargs=argparse.REMAINDER)
    pr.set_defaults(run=_profile)
    args = parser.parse_args(argv)
    if args.command == "profile":
        try:
            own, script_args = _split_profile_options(args.script_args)
        except CommandError as e:
            pr.error(str(e))  # argparse's usage line and exit code 2
        if own:
            parser.parse_args(["profile", *own, args.script], namespace=args)
        args.script_args = script_args
    return _run(args)


def _run(args) -> int:
    """args.run, with the command's own errors as one line and exit code 2, and a closed output pipe as a quiet
    end. A profiled script's exceptions are the script's: they propagate with their traceback."""
    try:
        return args.run(args)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)  # Python would report the pipe again when it flushes stdout
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except CommandError as e:
        print(f"tegula {args.command}: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - the command's own failures (the profiled script's raise above it)
        if args.command == "profile":
            raise
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        print(f"tegula {args.command}: {type(e).__name__}: {first}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
