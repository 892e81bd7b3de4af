"""pytest plugin for the device runs (scripts/gpu_check.sh): each test that takes 2 s or more is written to
$TEGULA_SLOW_LOG as it ends (flushed), so a run cut short by its time limit still says where the time went."""
import os

_LOG = os.environ.get("TEGULA_SLOW_LOG")


def pytest_runtest_logreport(report):
    if _LOG and report.when == "call" and report.duration >= 2.0:
        with open(_LOG, "a") as f:
            f.write(f"{report.duration:7.1f} s  {report.nodeid}\n")
