"""The `tegula` command: `tegula info`, `tegula cache {ls,size,clear,prune,export,import}`, `tegula explain` and
`tegula profile`.

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
    limit = _human(c["max_size"]) if c["max_size"] else "none"
    print(f"compile cache: {c['directory']} ({state}; size limit {limit})")
    return 0


def _human(n: int) -> str:
    from tegula import _tegula

    return _tegula.format_byte_size(n)


def _cache(args) -> int:
    """`tegula cache ACTION`: the tegula.core cache_* functions, with their errors as one line."""
    from tegula import _tegula, core

    try:
        return _CACHE_ACTIONS[args.action](args, core)
    except (ValueError, TypeError, FileNotFoundError, _tegula.CacheError) as e:
        raise CommandError(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__) from None
    except BrokenPipeError:
        raise  # a closed output pipe: _run ends quietly
    except OSError as e:
        raise CommandError(f"{e.filename or ''}{': ' if e.filename else ''}{e.strerror or e}") from None


def _cache_ls(args, core) -> int:
    entries = core.cache_entries(args.component)
    if entries:
        print(f"{'key':64}  {'component':9}  {'arch':10}  {'size':>10}  {'last use':19}  name")
    for e in entries:
        used = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e.last_used))
        print(f"{e.key}  {e.component:9}  {e.arch or '-':10}  {_human(e.size):>10}  {used}  {e.name or '-'}")
    which = f" {args.component}" if args.component else ""
    print(f"{len(entries)}{which} entries, {_human(sum(e.size for e in entries))} in {core.cache_info()['directory']}")
    return 0


def _cache_size(args, core) -> int:
    info = core.cache_info()
    limit = _human(info["max_size"]) if info["max_size"] else "none"
    print(f"{info['size']} bytes ({_human(info['size'])}) in {info['entries']} entries, limit {limit}")
    for component, c in info["by_component"].items():
        print(f"  {component:9} {c['size']:>12} bytes ({_human(c['size'])}) in {c['entries']} entries")
    return 0


def _cache_clear(args, core) -> int:
    which = f"{args.component} " if args.component else ""
    print(f"removed {core.cache_clear(args.component)} {which}entries from {core.cache_info()['directory']}")
    return 0


def _cache_prune(args, core) -> int:
    r = core.cache_prune(args.max_size)
    print(f"removed {r['removed']} entries ({_human(r['freed'])}); {_human(r['size'])} left in "
          f"{core.cache_info()['directory']}")
    return 0


def _cache_export(args, core) -> int:
    m = core.cache_export(args.file, args.component)
    size = sum(e["size"] for e in m["entries"])
    arches = ", ".join(m["arches"]) or "none"
    print(f"exported {len(m['entries'])} entries ({_human(size)}; arches {arches}; tegula {m['tegula']}, "
          f"NVRTC {m['nvrtc']}) to {args.file}")
    return 0


def _cache_import(args, core) -> int:
    r = core.cache_import(args.file)
    print(f"imported {r['installed']} entries from {args.file} ({r['present']} already present) into "
          f"{core.cache_info()['directory']}")
    return 0


_CACHE_ACTIONS = {"ls": _cache_ls, "size": _cache_size, "clear": _cache_clear, "prune": _cache_prune,
                  "export": _cache_export, "import": _cache_import}


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
    cache = sub.add_parser("cache", help="the on-disk compile cache: list, size, clear, prune, export, import")
    actions = cache.add_subparsers(dest="action", required=True, metavar="ACTION")
    component = dict(default=None, metavar="C",
                     help="only entries of this component: program, tile, array, cub, other or unknown")
    actions.add_parser("ls", help="key, component, arch, size, last use and name of each entry "
                       "(least recently used first)").add_argument("--component", **component)
    actions.add_parser("size", help="bytes in all, and by component")
    actions.add_parser("clear", help="remove the entries").add_argument("--component", **component)
    prune = actions.add_parser("prune", help="remove least recently used entries until the cache fits")
    prune.add_argument("--max-size", required=True, metavar="SIZE",
                       help="e.g. 500M or 2G (K, M, G, T: powers of 1024), or bytes")
    export = actions.add_parser("export", help="write the entries to a .tgz bundle (with a manifest) for another "
                                "machine or container with this tegula and NVRTC")
    export.add_argument("file", metavar="FILE.tgz")
    export.add_argument("--component", **component)
    imp = actions.add_parser("import", help="check a bundle (versions, names, checksums) and install its entries")
    imp.add_argument("file", metavar="FILE.tgz")
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
