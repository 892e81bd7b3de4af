"""Every NPBench program (bench/npbench_suite.py: NPBench's own NumPy code with only its import changed to
tegula.numpy) at preset S on the CPU interpreter, validated against plain NumPy as NPBench validates. A program
that stops running or validating fails CI here. Skipped, saying why, where NPBench is not there ($TEGULA_NPBENCH,
.npbench in the checkout, or ../shared/npbench beside it)."""
import os
import sys
import warnings

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import npbench_suite as S  # noqa: E402

import tegula.numpy as tnp  # noqa: E402

ROOT = S.root()
NAMES = S.names(ROOT) if ROOT else []
pytestmark = pytest.mark.skipif(ROOT is None, reason="NPBench is not here: set TEGULA_NPBENCH, or put it in "
                                                     ".npbench or ../shared/npbench")


def test_all_54_programs_are_there():
    assert len(NAMES) == 54, NAMES


@pytest.mark.parametrize("name", NAMES or ["(none)"])
def test_program_validates_on_the_interpreter(name):
    program = S.Program(name, ROOT)
    data = program.data("S")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want, _ = S.run(program, "numpy", data, np.copy)
        got, _ = S.run(program, "tegula", data, lambda a: tnp.asarray(a, device="cpu"))
        got = [S.to_host(g) for g in got]
    for g in got:
        assert not isinstance(g, np.ndarray) or g.dtype != object
    why = S.validate(program, want, got)
    assert why is None, f"{name} at preset S: {why}"
