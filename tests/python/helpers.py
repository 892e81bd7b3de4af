"""Helpers for the CPU tests: running code in a fresh interpreter."""
import os
import subprocess
import sys


def run_python(code, env_extra=None, check=True):
    """Runs `code` in a fresh interpreter with the same sys.path; returns the CompletedProcess."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    if check and proc.returncode != 0:
        raise AssertionError(f"subprocess failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc
