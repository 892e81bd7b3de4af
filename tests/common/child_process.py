"""Running code in a fresh interpreter that sees the same tegula (shared by the CPU and GPU suites)."""
import os
import subprocess
import sys


def child_env(**extra):
    """This process's environment with its sys.path as PYTHONPATH, plus `extra` variables."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(extra)
    return env


def run_python(code, env_extra=None, check=True, timeout=120):
    """Runs `code` in a fresh interpreter; returns the CompletedProcess (check: fail on a non-zero exit)."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=child_env(**(env_extra or {})), timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"subprocess failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc
