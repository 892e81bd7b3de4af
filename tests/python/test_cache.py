"""The on-disk compile cache across processes: hits, corruption, unsafe directories, the CLI."""
import glob
import os
import uuid

from child_process import run_python

COMPILE = (
    "import tegula.core as tc\n"
    "src = 'extern \"C\" __global__ void k(float* y) {{ y[0] = {value}; }}'\n"
    "p = tc.Program(src, options=tc.ProgramOptions(arch=90))\n"
    "obj = p.compile('cubin')\n"
    "assert obj.code[:4] == b'\\x7fELF'\n"
    "print(p.last_compile['cache'])\n"
)


def compile_in_new_process(cache_dir, value):
    proc = run_python(COMPILE.format(value=value), {"TEGULA_CACHE_DIR": cache_dir})
    return proc.stdout.split()[-1], proc.stderr


def entries(cache_dir):
    return glob.glob(os.path.join(cache_dir, "v1", "*", "*.bin"))


def test_second_process_hits_the_disk(cache_dir):
    value = f"{uuid.uuid4().int % 1000}.0f"
    assert compile_in_new_process(cache_dir, value)[0] == "compiled"
    assert compile_in_new_process(cache_dir, value)[0] == "disk"
    assert len(entries(cache_dir)) == 1
    assert os.stat(cache_dir).st_mode & 0o777 == 0o700


def test_truncated_and_flipped_entries_are_rebuilt(cache_dir):
    assert compile_in_new_process(cache_dir, "1.0f")[0] == "compiled"
    (path,) = entries(cache_dir)
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)
    assert compile_in_new_process(cache_dir, "1.0f")[0] == "compiled"
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        data[-10] ^= 0x40
        f.seek(0)
        f.write(data)
    assert compile_in_new_process(cache_dir, "1.0f")[0] == "compiled"
    assert compile_in_new_process(cache_dir, "1.0f")[0] == "disk"


def test_world_writable_cache_is_refused_but_compiles_work(cache_dir):
    os.chmod(cache_dir, 0o777)
    outcome, stderr = compile_in_new_process(cache_dir, "2.0f")
    assert outcome == "compiled"
    assert "writable" in stderr and cache_dir in stderr
    assert entries(cache_dir) == []


def test_disabled_cache(cache_dir):
    proc = run_python(COMPILE.format(value="3.0f"), {"TEGULA_CACHE_DIR": cache_dir, "TEGULA_DISABLE_CACHE": "1"})
    assert proc.stdout.split()[-1] == "compiled"
    assert entries(cache_dir) == []


def test_cli_cache_commands(cache_dir):
    compile_in_new_process(cache_dir, "4.0f")
    env = {"TEGULA_CACHE_DIR": cache_dir}
    ls = run_python("from tegula.cli import main; main(['cache', 'ls'])", env).stdout
    assert "1 entries" in ls
    size = run_python("from tegula.cli import main; main(['cache', 'size'])", env).stdout
    assert int(size.split()[0]) == os.path.getsize(entries(cache_dir)[0]) and "program" in size
    cleared = run_python("from tegula.cli import main; main(['cache', 'clear'])", env).stdout
    assert "removed 1 entries" in cleared and entries(cache_dir) == []


def test_cli_info_runs():
    out = run_python("import sys; from tegula.cli import main; sys.exit(main(['info']))").stdout
    assert "tegula" in out and "NVRTC:" in out and "CUDA driver:" in out and "compile cache:" in out
