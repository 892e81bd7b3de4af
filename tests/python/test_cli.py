"""The `tegula` command's own errors and argument placement: one line on stderr and exit code 2 for a missing
file, a bad --args or a missing option value; `tegula profile SCRIPT --trace FILE` (the README's form) writes the
trace; `tegula cache ls | head` ends without a traceback."""
import json
import os
import subprocess
import sys

import pytest
from child_process import child_env

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = """import sys
import tegula.numpy as np
print("argv", sys.argv[1:])
print(float((np.arange(10.0) * 2).sum()))
"""


def tegula(*words, cwd=None, **kw):
    return subprocess.run([sys.executable, "-m", "tegula", *words], capture_output=True, text=True, cwd=cwd,
                          env=child_env(TEGULA_INTERPRET="1", PYTHONWARNINGS="ignore"), timeout=120, **kw)


def one_line_error(proc, command, text):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert "Traceback" not in proc.stderr
    assert lines[-1].startswith(f"tegula {command}") and text in lines[-1], proc.stderr


def test_profile_takes_its_options_after_the_script(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(SCRIPT)
    trace = tmp_path / "t.json"
    proc = tegula("profile", str(script), "--trace", str(trace), "a", "--limit", "5", "b", "--", "--trace", "z")
    assert proc.returncode == 0, proc.stderr
    assert "argv ['a', 'b', '--trace', 'z']" in proc.stdout and "90.0" in proc.stdout
    assert json.loads(trace.read_text())["traceEvents"]
    proc = tegula("profile", f"--trace={tmp_path / 'u.json'}", str(script))
    assert proc.returncode == 0 and (tmp_path / "u.json").exists()


@pytest.mark.parametrize("words, command, text", [
    (("profile", "nothere.py"), "profile", "no such file: nothere.py"),
    (("profile", "s.py", "--limit"), "profile", "--limit needs a value"),
    (("explain", "nothere.py:k"), "explain", "no such file: nothere.py"),
    (("explain", "nothere.tir"), "explain", "no such file: nothere.tir"),
    (("explain", "nocolon"), "explain", "expected FILE.tir or FILE.py:KERNEL"),
    (("explain", os.path.join(ROOT, "examples/tile/softmax.py") + ":softmax", "--args", "float32[4,8]"), "explain",
     "takes 3 arguments but 1 were given"),
    (("explain", os.path.join(ROOT, "examples/tile/softmax.py") + ":nosuch"), "explain", "has no 'nosuch'"),
])
def test_command_errors_are_one_line_and_exit_2(tmp_path, words, command, text):
    (tmp_path / "s.py").write_text(SCRIPT)
    one_line_error(tegula(*words, cwd=tmp_path), command, text)


def test_cache_ls_into_a_closed_pipe(tmp_path):
    env = child_env(TEGULA_CACHE_DIR=str(tmp_path), TEGULA_INTERPRET="1")
    ls = subprocess.Popen([sys.executable, "-m", "tegula", "cache", "ls"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env)
    ls.stdout.close()  # the reader is gone before ls writes: its first print meets a closed pipe
    err = ls.stderr.read().decode()
    assert ls.wait(timeout=120) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err
