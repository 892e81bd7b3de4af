"""The compile cache's tools, through `tegula cache` in fresh processes (the cache reads its directory and limit
once per process): entries listed with their component, name and arch (format-1 entries as unknown), size by
component, clear by component, LRU prune (a hit in another process refreshes an entry), the automatic limit,
export/import bundles and everything import refuses; the tegula.core cache_* functions behind them."""
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import time

import pytest
from child_process import child_env, run_python

# Programs compiled in a child process: (kernel name, value, arch).
PROGRAMS = (("first", 1, 90), ("second", 2, 80))
COMPILE = (
    "import tegula.core as tc\n"
    "for name, value, arch in {programs!r}:\n"
    "    src = 'extern \"C\" __global__ void %s(float* y) {{ y[0] = %d; }}' % (name, value)\n"
    "    p = tc.Program(src, options=tc.ProgramOptions(arch=arch))\n"
    "    p.compile('cubin')\n"
    "    print(name, p.last_compile['cache'], p.last_compile['key'])\n"
)


def entry_v2(component, name, arch, payload):
    """An entry file in format 2 (jit/cache_entry.hpp), written here independently of the C++ encoder."""
    meta = b"".join(struct.pack("<Q", len(f)) + f for f in (component.encode(), name.encode(), arch.encode()))
    digest = hashlib.sha256(struct.pack("<I", len(meta)) + meta + payload).digest()
    return b"TGLC" + struct.pack("<IIQ", 2, len(meta), len(payload)) + digest + meta + payload


def entry_v1(payload):
    """An entry as tegula wrote them before entries recorded their maker (format 1)."""
    return b"TGLC" + struct.pack("<IQ", 1, len(payload)) + hashlib.sha256(payload).digest() + payload


def key_of(text):
    return hashlib.sha256(text.encode()).hexdigest()


SYNTHETIC = {  # key: (component, name, arch, file bytes)
    key_of("tile"): ("tile", "softmax", "sm_90a", entry_v2("tile", "softmax", "sm_90a", b"tile payload" * 50)),
    key_of("array"): ("array", "tegula_array_k1", "sm_90",
                      entry_v2("array", "tegula_array_k1", "sm_90", b"array payload" * 20)),
    key_of("old"): ("unknown", "", "", entry_v1(b"an entry from before")),
}


def tegula(cache_dir, *words, **env):
    return subprocess.run([sys.executable, "-m", "tegula", *words], capture_output=True, text=True,
                          env=child_env(TEGULA_CACHE_DIR=cache_dir, **env), timeout=120)


def ok(cache_dir, *words, **env):
    proc = tegula(cache_dir, *words, **env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def refused(proc, text):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tegula cache: ") and text in lines[0], proc.stderr
    return lines[0]


def compile_programs(cache_dir, programs=PROGRAMS, **env):
    out = run_python(COMPILE.format(programs=programs), {"TEGULA_CACHE_DIR": cache_dir, **env}).stdout
    return {name: (outcome, key) for name, outcome, key in (line.split() for line in out.splitlines())}


def path_of(cache_dir, key):
    return os.path.join(cache_dir, "v1", key[:2], key + ".bin")


def populate(cache_dir):
    """Two Program entries (compiled) and the synthetic tile, array and format-1 entries; returns {name: key}."""
    keys = {name: key for name, (_, key) in compile_programs(cache_dir).items()}
    for key, (_, _, _, data) in SYNTHETIC.items():
        os.makedirs(os.path.dirname(path_of(cache_dir, key)), mode=0o700, exist_ok=True)
        with open(path_of(cache_dir, key), "wb") as f:
            f.write(data)
    return keys


def listed(cache_dir, *words):
    """{key: (component, arch, name)} from `tegula cache ls`."""
    out = ok(cache_dir, "cache", "ls", *words).splitlines()
    rows = {}
    for line in out[1:-1]:
        key, component, arch, size, unit, day, clock, name = line.split(None, 7)
        rows[key] = (component, arch, name)
    return rows, out[-1]


def test_ls_shows_component_name_and_arch_and_filters(cache_dir):
    keys = populate(cache_dir)
    rows, footer = listed(cache_dir)
    assert rows[keys["first"]] == ("program", "sm_90", "first")
    assert rows[keys["second"]] == ("program", "sm_80", "second")
    assert rows[key_of("tile")] == ("tile", "sm_90a", "softmax")
    assert rows[key_of("array")] == ("array", "sm_90", "tegula_array_k1")
    assert rows[key_of("old")] == ("unknown", "-", "-")
    assert footer.startswith("5 entries") and cache_dir in footer
    rows, footer = listed(cache_dir, "--component", "tile")
    assert list(rows) == [key_of("tile")] and footer.startswith("1 tile entries")
    rows, _ = listed(cache_dir, "--component", "unknown")
    assert list(rows) == [key_of("old")]
    assert ok(cache_dir, "cache", "ls", "--component", "cub").startswith("0 cub entries")


def test_size_is_given_in_all_and_by_component(cache_dir):
    populate(cache_dir)
    sizes = {}
    for root, _, files in os.walk(os.path.join(cache_dir, "v1")):
        for f in files:
            sizes[f[:64]] = os.path.getsize(os.path.join(root, f))
    lines = ok(cache_dir, "cache", "size").splitlines()
    assert int(lines[0].split()[0]) == sum(sizes.values()) and "in 5 entries" in lines[0] and "limit 4.0 GiB" in lines[0]
    by = {line.split()[0]: (int(line.split()[1]), line) for line in lines[1:]}
    assert set(by) == {"program", "tile", "array", "unknown"}
    assert by["tile"][0] == sizes[key_of("tile")] and "1 entries" in by["tile"][1]
    assert "2 entries" in by["program"][1]


def test_clear_by_component(cache_dir):
    keys = populate(cache_dir)
    assert "removed 2 program entries" in ok(cache_dir, "cache", "clear", "--component", "program")
    rows, _ = listed(cache_dir)
    assert set(rows) == set(SYNTHETIC) and keys["first"] not in rows
    assert "removed 3 entries" in ok(cache_dir, "cache", "clear")
    assert listed(cache_dir)[0] == {}


def test_prune_removes_least_recently_used_and_a_hit_counts_as_a_use(cache_dir):
    keys = populate(cache_dir)
    order = [key_of("old"), keys["first"], key_of("tile"), keys["second"], key_of("array")]  # oldest first
    now = time.time()
    for age, key in zip((500, 400, 300, 200, 100), order):
        os.utime(path_of(cache_dir, key), (now - age, now - age))
    # A new process compiles `first` again: a disk hit, which makes it the most recently used.
    assert compile_programs(cache_dir, PROGRAMS[:1])["first"][0] == "disk"
    assert os.path.getmtime(path_of(cache_dir, keys["first"])) > now - 60
    keep = {keys["first"], key_of("array")}
    fits = sum(os.path.getsize(path_of(cache_dir, k)) for k in keep)
    out = ok(cache_dir, "cache", "prune", "--max-size", str(fits))
    assert out.startswith("removed 3 entries")
    assert set(listed(cache_dir)[0]) == keep
    assert ok(cache_dir, "cache", "prune", "--max-size", "1G").startswith("removed 0 entries")
    assert ok(cache_dir, "cache", "prune", "--max-size", "0").startswith("removed 2 entries")


def test_the_automatic_limit_keeps_the_cache_small(cache_dir):
    programs = tuple((f"k{i}", i, 90) for i in range(8))
    compile_programs(cache_dir, programs, TEGULA_CACHE_MAX_SIZE="10K")
    total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(cache_dir) for f in fs)
    assert 0 < total <= 10 * 1024
    rows, _ = listed(cache_dir)
    assert ("program", "sm_90", "k7") in rows.values()  # the newest entry stays
    assert "limit 10.0 KiB" in ok(cache_dir, "cache", "size", TEGULA_CACHE_MAX_SIZE="10K")
    assert "limit none" in ok(cache_dir, "cache", "size", TEGULA_CACHE_MAX_SIZE="unlimited")
    assert "limit none" in ok(cache_dir, "cache", "size", TEGULA_CACHE_MAX_SIZE="0")
    proc = tegula(cache_dir, "cache", "size", TEGULA_CACHE_MAX_SIZE="lots")
    assert proc.returncode == 0 and "limit 4.0 GiB" in proc.stdout
    assert "TEGULA_CACHE_MAX_SIZE='lots' is not a size" in proc.stderr


def test_export_import_round_trip(cache_dir, tmp_path):
    keys = populate(cache_dir)
    before, _ = listed(cache_dir)
    bundle = str(tmp_path / "warm.tgz")
    out = ok(cache_dir, "cache", "export", bundle)
    assert out.startswith("exported 5 entries") and "sm_80, sm_90, sm_90a" in out
    with tarfile.open(bundle) as tar:
        names = tar.getnames()
        manifest = json.load(tar.extractfile("manifest.json"))
    assert names[0] == "manifest.json" and len(names) == 6
    assert manifest["format"] == "tegula-cache-bundle" and manifest["arches"] == ["sm_80", "sm_90", "sm_90a"]
    assert {e["key"]: e["component"] for e in manifest["entries"]}[key_of("tile")] == "tile"
    import tegula

    assert manifest["tegula"] == tegula.__version__
    # Into an empty cache (a new container): the same entries, metadata and bytes, and Program hits them.
    fresh = str(tmp_path / "fresh")
    os.mkdir(fresh, 0o700)
    out = ok(fresh, "cache", "import", bundle)
    assert out.startswith("imported 5 entries") and "(0 already present)" in out
    assert listed(fresh)[0] == before
    for key in before:
        with open(path_of(fresh, key), "rb") as a, open(path_of(cache_dir, key), "rb") as b:
            assert a.read() == b.read()
    assert os.stat(path_of(fresh, keys["first"])).st_mode & 0o077 == 0
    assert compile_programs(fresh)["second"][0] == "disk"
    assert "imported 0 entries" in ok(fresh, "cache", "import", bundle)  # all already there
    # One component only.
    tiles = str(tmp_path / "tiles.tgz")
    assert ok(cache_dir, "cache", "export", tiles, "--component", "tile").startswith("exported 1 entries")
    with tarfile.open(tiles) as tar:
        assert [e["name"] for e in json.load(tar.extractfile("manifest.json"))["entries"]] == ["softmax"]


def rewrite(src, dst, edit):
    """Copies bundle `src` to `dst` with edit(name, data) -> [(TarInfo, data)] applied to each member."""
    with tarfile.open(src) as tin, tarfile.open(dst, "w:gz") as tout:
        for m in tin.getmembers():
            for info, data in edit(m, tin.extractfile(m).read()):
                tout.addfile(info, io.BytesIO(data) if data is not None else None)


def member(name, data, kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    info.type = kind
    info.linkname = link
    return info, data if kind == tarfile.REGTYPE else None


def with_manifest(change):
    def edit(m, data):
        if m.name != "manifest.json":
            return [(m, data)]
        manifest = json.loads(data)
        change(manifest)
        return [member("manifest.json", json.dumps(manifest).encode())]
    return edit


def add(*extra):
    def edit(m, data):
        return [(m, data)] + (list(extra) if m.name == "manifest.json" else [])
    return edit


def damage_entry(m, data):
    if m.name.startswith("entries/") and m.name.endswith(key_of("tile") + ".bin"):
        data = data[:-1] + bytes([data[-1] ^ 1])
    return [(m, data)]


def damage_entry_and_manifest(src):
    """The tile entry damaged and the manifest's sha256 updated to match: only the entry's own checksum tells."""
    def edit(m, data):
        if m.name == "manifest.json":
            manifest = json.loads(data)
            for e in manifest["entries"]:
                if e["key"] == key_of("tile"):
                    bad = SYNTHETIC[key_of("tile")][3][:-1] + bytes([SYNTHETIC[key_of("tile")][3][-1] ^ 1])
                    e["sha256"] = hashlib.sha256(bad).hexdigest()
            return [member("manifest.json", json.dumps(manifest).encode())]
        return damage_entry(m, data)
    return edit


def drop_entry(m, data):
    return [] if m.name.endswith(key_of("array") + ".bin") else [(m, data)]


CASES = {
    "traversal": (add(member("../evil.bin", b"x")), "'../evil.bin'"),
    "absolute": (add(member("/tmp/evil.bin", b"x")), "'/tmp/evil.bin'"),
    "entry traversal": (add(member("entries/../../" + key_of("x") + ".bin", b"x")), "member"),
    "odd name": (add(member("entries/notakey.bin", b"x")), "'entries/notakey.bin'"),
    "symlink": (add(member("entries/" + key_of("link") + ".bin", b"", tarfile.SYMTYPE, "/etc/passwd")),
                "not a plain file"),
    "directory": (add(member("entries/" + key_of("dir") + ".bin", b"", tarfile.DIRTYPE)), "not a plain file"),
    "other tegula": (with_manifest(lambda m: m.update(tegula="0.0.1")), "made by tegula 0.0.1"),
    "other nvrtc": (with_manifest(lambda m: m.update(nvrtc="11.2")), "compiled with NVRTC 11.2"),
    "not a bundle": (with_manifest(lambda m: m.update(format="something")), "not a tegula cache bundle"),
    "format version": (with_manifest(lambda m: m.update(format_version=99)), "bundle format version 99"),
    "damaged entry": (damage_entry, "does not match its size and sha256"),
    "damaged entry and manifest": (None, "is damaged (its checksum does not match)"),
    "missing entry": (drop_entry, "does not hold it"),
    "unlisted entry": (add(member("entries/" + key_of("extra") + ".bin", entry_v1(b"x"))), "does not list"),
    "bad key": (with_manifest(lambda m: m["entries"][0].update(key="../x")), "bad or repeated key"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_import_refuses_and_installs_nothing(cache_dir, tmp_path, case):
    populate(cache_dir)
    good = str(tmp_path / "good.tgz")
    ok(cache_dir, "cache", "export", good)
    bad = str(tmp_path / "bad.tgz")
    edit, text = CASES[case]
    rewrite(good, bad, edit or damage_entry_and_manifest(good))
    fresh = str(tmp_path / "fresh")
    os.mkdir(fresh, 0o700)
    line = refused(tegula(fresh, "cache", "import", bad), text)
    assert bad in line
    assert listed(fresh)[0] == {}  # not even the good entries of the bundle
    assert not os.path.exists(os.path.join(tmp_path, "evil.bin")) and not os.path.exists("/tmp/evil.bin")


def test_import_refuses_what_is_no_bundle(cache_dir, tmp_path):
    text = tmp_path / "notes.tgz"
    text.write_text("hello")
    refused(tegula(cache_dir, "cache", "import", str(text)), "not a tegula cache bundle")
    plain = tmp_path / "plain.tgz"
    with tarfile.open(plain, "w:gz") as tar:
        info, data = member("entries/" + key_of("y") + ".bin", entry_v1(b"y"))
        tar.addfile(info, io.BytesIO(data))
    refused(tegula(cache_dir, "cache", "import", str(plain)), "no manifest.json")
    cut = tmp_path / "cut.tgz"
    populate(cache_dir)
    ok(cache_dir, "cache", "export", str(tmp_path / "whole.tgz"))
    cut.write_bytes((tmp_path / "whole.tgz").read_bytes()[:200])
    refused(tegula(cache_dir, "cache", "import", str(cut)), str(cut))


@pytest.mark.parametrize("words, text", [
    (("ls", "--component", "kernels"), "unknown cache component 'kernels' (one of program, tile, array, cub"),
    (("clear", "--component", "Tile"), "unknown cache component 'Tile'"),
    (("prune", "--max-size", "5X"), "not a size: '5X'"),
    (("prune", "--max-size", "-1"), "not a size: '-1'"),
    (("import", "nothere.tgz"), "no such file: nothere.tgz"),
    (("export", "/nonexistent/dir/b.tgz"), "no such directory: /nonexistent/dir"),
])
def test_cache_command_errors_are_one_line(cache_dir, words, text):
    refused(tegula(cache_dir, "cache", *words), text)


def test_python_api(cache_dir, tmp_path):
    populate(cache_dir)
    code = (
        "import tegula, tegula.core as tc\n"
        "assert tegula.cache_info is tc.cache_info and tegula.cache_import is tc.cache_import\n"
        "info = tc.cache_info()\n"
        "assert info['entries'] == 5 and info['by_component']['program']['entries'] == 2, info\n"
        "assert info['enabled'] and info['max_size'] == 4 << 30, info\n"
        "assert tc.cache_components() == ('program', 'tile', 'array', 'cub', 'other', 'unknown')\n"
        "e = tc.cache_entries('tile')\n"
        "assert len(e) == 1 and e[0].name == 'softmax' and e[0].arch == 'sm_90a' and e[0].size > 0, e\n"
        "all_ = tc.cache_entries()\n"
        "assert [x.last_used for x in all_] == sorted(x.last_used for x in all_)\n"
        "for bad, err in (('1.5Q', ValueError), (-1, ValueError), (None, TypeError), (True, TypeError)):\n"
        "    try:\n"
        "        tc.cache_prune(bad)\n"
        "    except err:\n"
        "        pass\n"
        "    else:\n"
        "        raise AssertionError(bad)\n"
        "try:\n"
        "    tc.cache_entries('nope')\n"
        "except ValueError as ex:\n"
        "    assert 'program, tile' in str(ex)\n"
        f"m = tc.cache_export({str(tmp_path / 'b.tgz')!r}, component='array')\n"
        "assert [x['name'] for x in m['entries']] == ['tegula_array_k1']\n"
        "assert tc.cache_clear('array') == 1\n"
        f"assert tc.cache_import({str(tmp_path / 'b.tgz')!r}) == {{'installed': 1, 'present': 0, 'entries': 1}}\n"
        "r = tc.cache_prune('1K')\n"
        "assert r['size'] <= 1024 and r['removed'] >= 3, r\n"
        "try:\n"
        f"    tc.cache_import({str(tmp_path / 'nothere.tgz')!r})\n"
        "except FileNotFoundError:\n"
        "    pass\n"
        "print('ok')\n"
    )
    assert run_python(code, {"TEGULA_CACHE_DIR": cache_dir}).stdout.strip() == "ok"
