"""The `tegula` command: `tegula info` and `tegula cache {ls,size,clear}`."""
from __future__ import annotations

import argparse
import sys
import time


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tegula", description="tegula: native Python for NVIDIA GPUs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="driver, devices, NVRTC and the compile cache").set_defaults(run=_info)
    cache = sub.add_parser("cache", help="inspect or clear the on-disk compile cache")
    cache.add_argument("action", choices=("ls", "size", "clear"))
    cache.set_defaults(run=_cache)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
