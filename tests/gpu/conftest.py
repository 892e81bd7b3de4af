"""GPU suite: skipped, with the reason, where no CUDA device is present; shared fixtures."""
import os
import sys

import numpy as np
import pytest

import tegula.core as tc

_INFO = tc.driver_info()
HAS_GPU = bool(_INFO["available"] and _INFO.get("device_count", 0) > 0)
REASON = "no CUDA GPU: " + (_INFO["error"].splitlines()[0] if _INFO["error"] else "the driver reports 0 devices")
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "common"))  # kernels and helpers shared with the CPU suite


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason=REASON)
    for item in items:
        if str(item.fspath).startswith(_HERE):
            item.add_marker(skip)


@pytest.fixture
def dev():
    d = tc.Device(0)
    d.set_current()
    return d


@pytest.fixture
def stream(dev):
    s = dev.create_stream()
    yield s
    s.sync()


@pytest.fixture
def rng():
    return np.random.default_rng()
