"""The on-disk compile cache from Python: its entries (who made each), sizes, clear, LRU prune, and bundles.

One cache serves every component: `program` (tegula.core.Program), `tile` (tile kernels), `array` (tegula.numpy's
fused kernels), `cub` (CUB and the other library kernels), `other`; entries written before entries recorded their
maker are `unknown`. The entry format, checksums, atomic writes and the LRU order live in C++ (jit/disk_cache);
this module adds the bundle, a gzip'd tar of entry files and a manifest, for carrying a warm cache into a
container or between CI runs:

    manifest.json        {"format": "tegula-cache-bundle", "format_version": 1, "tegula": ..., "nvrtc": "12.8",
                          "arches": [...], "entries": [{"key", "component", "name", "arch", "size", "sha256"}]}
    entries/<key>.bin    the entry's file, as the cache stores it (its own checksum inside)

A bundle holds compiled code that the importing process will run: import only bundles you trust, as you would
only point TEGULA_CACHE_DIR at a directory you trust.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tarfile
import tempfile
import time
import zlib
from typing import NamedTuple

from .. import _tegula
from .._version import __version__

BUNDLE_FORMAT = "tegula-cache-bundle"
BUNDLE_FORMAT_VERSION = 1
_MANIFEST = "manifest.json"
_ENTRY = re.compile(r"entries/([0-9a-f]{64})\.bin")
_MAX_MANIFEST_BYTES = 64 << 20


class CacheEntry(NamedTuple):
    """One on-disk entry: its content address, who made it, the kernel's name, the arch, bytes, last use (epoch s)."""
    key: str
    component: str
    name: str
    arch: str
    size: int
    last_used: float


def cache_components() -> tuple[str, ...]:
    """The components an entry may record: program, tile, array, cub, other, and unknown (older entries)."""
    return tuple(_tegula.cache_components())


def _component(component):
    if component is None:
        return None
    if not isinstance(component, str) or component not in cache_components():
        raise ValueError(f"unknown cache component {component!r} (one of {', '.join(cache_components())})")
    return component


def _bytes(size) -> int:
    """A size in bytes: an int, or text with a K/M/G/T suffix (powers of 1024)."""
    if isinstance(size, bool):
        raise TypeError("a cache size must be an int or a str such as '500M'")
    if isinstance(size, int):
        if size < 0:
            raise ValueError(f"a cache size cannot be negative, got {size}")
        return size
    if isinstance(size, str):
        n = _tegula.parse_byte_size(size)
        if n is None:
            raise ValueError(f"not a size: {size!r} (expected e.g. 500M, 2G, 1.5G or a number of bytes)")
        return n
    raise TypeError(f"a cache size must be an int or a str such as '500M', got {type(size).__name__}")


def cache_entries(component: str | None = None) -> list[CacheEntry]:
    """Every entry of the on-disk cache (or of one component), least recently used first."""
    entries = [CacheEntry(*e) for e in _tegula.cache_entries(_component(component))]
    return sorted(entries, key=lambda e: (e.last_used, e.key))


def cache_info() -> dict:
    """The cache's directory, whether it is enabled (and why not), its size limit (0: none), its entries and bytes,
    and both by component: {"by_component": {"tile": {"entries": 3, "size": 123456}, ...}}."""
    info = dict(_tegula.cache_info())
    entries = cache_entries()
    by = {}
    for e in entries:
        slot = by.setdefault(e.component, {"entries": 0, "size": 0})
        slot["entries"] += 1
        slot["size"] += e.size
    info["entries"] = len(entries)
    info["size"] = sum(e.size for e in entries)
    info["by_component"] = {c: by[c] for c in cache_components() if c in by}
    return info


def cache_clear(component: str | None = None) -> int:
    """Removes every entry (or those of one component) and the in-memory cache; returns how many were removed."""
    return _tegula.cache_clear(_component(component))


def cache_prune(max_size) -> dict:
    """Removes least recently used entries until the cache holds at most `max_size` (bytes, or '500M');
    returns {"removed": entries, "freed": bytes, "size": bytes left}."""
    removed, freed, left = _tegula.cache_prune(_bytes(max_size))
    return {"removed": removed, "freed": freed, "size": left}


def _nvrtc_version() -> str:
    try:
        major, minor = _tegula.nvrtc_version()
    except _tegula.TegulaError as e:
        raise _tegula.CacheError(f"NVRTC is needed to tell which compiler a bundle is for: "
                                 f"{str(e).splitlines()[0]}") from None
    return f"{major}.{minor}"


def _tegula_version() -> str:
    return __version__


def cache_export(path, component: str | None = None) -> dict:
    """Writes the entries (or those of one component) to `path`, a gzip'd tar with a manifest; the file appears
    whole or not at all (a temp file renamed). Returns the manifest."""
    path = os.fspath(path)
    entries = cache_entries(_component(component))
    files, listed = [], []
    for e in entries:
        data = _tegula.cache_read_entry(e.key)
        if data is None:  # removed or found damaged since it was listed
            continue
        files.append((e, data))
        listed.append({"key": e.key, "component": e.component, "name": e.name, "arch": e.arch, "size": len(data),
                       "sha256": hashlib.sha256(data).hexdigest()})
    manifest = {"format": BUNDLE_FORMAT, "format_version": BUNDLE_FORMAT_VERSION, "tegula": _tegula_version(),
                "nvrtc": _nvrtc_version(), "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "component": component, "arches": sorted({e["arch"] for e in listed if e["arch"]}),
                "entries": listed}
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"no such directory: {folder}")
    fd, temp = tempfile.mkstemp(prefix=".tegula-bundle-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            _add(tar, _MANIFEST, json.dumps(manifest, indent=1).encode(), time.time())
            for e, data in files:
                _add(tar, f"entries/{e.key}.bin", data, e.last_used)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    return manifest


def _add(tar, name, data, mtime):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(mtime)
    info.mode = 0o600
    tar.addfile(info, io.BytesIO(data))


def _refuse(path, why):
    raise _tegula.CacheError(f"{path}: {why}")


def _read_bundle(path):
    """(manifest, {key: bytes}) of the bundle at `path`, after checking its every member; raises CacheError."""
    try:
        tar = tarfile.open(path, mode="r:gz")
    except FileNotFoundError:
        raise
    except (tarfile.TarError, OSError, EOFError) as e:
        _refuse(path, f"not a tegula cache bundle (a .tgz made by `tegula cache export`): {e}")
    manifest, files = None, {}
    with tar:
        try:
            members = tar.getmembers()
        except (tarfile.TarError, OSError, EOFError) as e:
            _refuse(path, f"damaged bundle: {e}")
        for m in members:
            name = m.name
            if name == _MANIFEST:
                key = None
            else:
                match = _ENTRY.fullmatch(name)
                if not match:
                    _refuse(path, f"refusing a bundle with the member {name!r} (only {_MANIFEST} and "
                                  "entries/<64 hex digits>.bin belong in one)")
                key = match.group(1)
            if not m.isfile():
                _refuse(path, f"refusing a bundle whose member {name!r} is not a plain file")
            if (key is None and manifest is not None) or key in files:
                _refuse(path, f"refusing a bundle with two members named {name!r}")
            if key is None and m.size > _MAX_MANIFEST_BYTES:
                _refuse(path, f"the manifest is too large ({m.size} bytes)")
            try:
                data = tar.extractfile(m).read()
            except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
                _refuse(path, f"damaged bundle: {e}")
            if key is None:
                manifest = data
            else:
                files[key] = data
    if manifest is None:
        _refuse(path, f"no {_MANIFEST}: not a tegula cache bundle")
    try:
        manifest = json.loads(manifest)
    except (ValueError, UnicodeDecodeError) as e:
        _refuse(path, f"the manifest is not valid JSON: {e}")
    return manifest, files


def _check_manifest(path, manifest, files):
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        _refuse(path, "not a tegula cache bundle (its manifest names no tegula-cache-bundle format)")
    if manifest.get("format_version") != BUNDLE_FORMAT_VERSION:
        _refuse(path, f"bundle format version {manifest.get('format_version')!r}; this tegula reads version "
                      f"{BUNDLE_FORMAT_VERSION}")
    ours = _tegula_version()
    if manifest.get("tegula") != ours:
        _refuse(path, f"the bundle was made by tegula {manifest.get('tegula')}, this is tegula {ours}; "
                      "export it again with this version")
    nvrtc = _nvrtc_version()
    if manifest.get("nvrtc") != nvrtc:
        _refuse(path, f"the bundle was compiled with NVRTC {manifest.get('nvrtc')}, this process has NVRTC {nvrtc}; "
                      "its entries would never be used")
    listed = manifest.get("entries")
    if not isinstance(listed, list):
        _refuse(path, "the manifest has no entry list")
    seen = set()
    for e in listed:
        key = e.get("key") if isinstance(e, dict) else None
        if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{64}", key) or key in seen:
            _refuse(path, f"the manifest lists a bad or repeated key: {key!r}")
        seen.add(key)
        data = files.get(key)
        if data is None:
            _refuse(path, f"the manifest lists entry {key} but the bundle does not hold it")
        if e.get("size") != len(data) or e.get("sha256") != hashlib.sha256(data).hexdigest():
            _refuse(path, f"entry {key} does not match its size and sha256 in the manifest (damaged bundle)")
        if _tegula.cache_check_entry(data) is None:
            _refuse(path, f"entry {key} is damaged (its checksum does not match)")
    extra = set(files) - seen
    if extra:
        _refuse(path, f"the bundle holds entry {sorted(extra)[0]}, which its manifest does not list")


def cache_import(path) -> dict:
    """Installs the entries of a bundle made by cache_export. The whole bundle is checked first (its members'
    names, its manifest's tegula and NVRTC versions, every entry's size, sha256 and checksum) and nothing is
    installed when any check fails (CacheError); each entry is then written as the cache writes its own (temp file
    and rename). Returns {"installed": n, "present": entries already there, byte for byte, "entries": total}."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no such file: {path}")
    manifest, files = _read_bundle(path)
    _check_manifest(path, manifest, files)
    info = _tegula.cache_info()
    if not info["enabled"]:
        raise _tegula.CacheError(f"the compile cache at {info['directory']} is disabled: {info['disabled_reason']}")
    installed = present = 0
    for e in manifest["entries"]:
        key = e["key"]
        data = files[key]
        if _tegula.cache_read_entry(key) == data:
            present += 1
        elif _tegula.cache_install_entry(key, data):
            installed += 1
        else:  # checked above; only a bug gets here
            raise _tegula.CacheError(f"{path}: entry {key} could not be installed")
    return {"installed": installed, "present": present, "entries": len(manifest["entries"])}


__all__ = ["CacheEntry", "cache_clear", "cache_components", "cache_entries", "cache_export", "cache_import",
           "cache_info", "cache_prune"]
