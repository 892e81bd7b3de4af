"""The compile cache under concurrency: many processes and threads compiling into one directory."""
import glob
import os
import subprocess
import sys
import threading

import tegula.core as tc
from child_process import child_env

CHILD = (
    "import tegula.core as tc\n"
    "for i in range(3):\n"
    "    src = 'extern \"C\" __global__ void k%d(float* y) { y[0] = %d.0f; }' % (i, i)\n"
    "    tc.Program(src, options=tc.ProgramOptions(arch=90)).compile('cubin')\n"
    "print('ok')\n"
)


def test_eight_processes_share_one_empty_cache_dir(cache_dir):
    env = child_env(TEGULA_CACHE_DIR=cache_dir)
    procs = [subprocess.Popen([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(8)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    assert all(o[0].strip() == "ok" and "warning" not in o[1].lower() for o in outs), outs
    entries = glob.glob(os.path.join(cache_dir, "v1", "*", "*.bin"))
    assert len(entries) == 3  # one entry per kernel, however many writers raced
    leftovers = [f for f in glob.glob(os.path.join(cache_dir, "v1", "*", "*")) if not f.endswith(".bin")]
    assert leftovers == []  # no temp files left behind


def test_compiles_from_several_threads_at_once():
    errors, results = [], {}

    def work(t):
        try:
            for i in range(4):
                src = f'extern "C" __global__ void t{t}_{i}(float* y) {{ y[0] = {t * 10 + i}.0f; }}'
                obj = tc.Program(src, options=tc.ProgramOptions(arch=90)).compile("ptx")
                results[(t, i)] = obj.code
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    assert len(results) == 24
    assert all(f".entry t{t}_{i}".encode() in code for (t, i), code in results.items())


def test_an_unwritable_cache_still_compiles(cache_dir):
    code = ("import tegula.core as tc\n"
            "p = tc.Program('extern \"C\" __global__ void k(float* y) { y[0] = 9.0f; }', "
            "options=tc.ProgramOptions(arch=90))\n"
            "p.compile('ptx'); print(p.last_compile['cache'])\n")
    os.makedirs(os.path.join(cache_dir, "v1"), mode=0o700)
    for d in range(256):  # a plain file where each shard directory should be: every write fails, even as root
        open(os.path.join(cache_dir, "v1", f"{d:02x}"), "w").close()
    env = child_env(TEGULA_CACHE_DIR=cache_dir)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "compiled", proc.stderr
    assert "warning" in proc.stderr.lower() and proc.stderr.lower().count("warning") == 1, proc.stderr
