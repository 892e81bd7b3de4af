"""The array VM's host side on the CPU (issue #26): which plans it runs and the programs it runs them with, the
background-compile switch, and what tegula.explain says of a first run. Its GPU kernels: tests/gpu/test_gpu_vm.py."""
import re

import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from tegula import _tegula


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def program(x):
    text, why = _tegula.array_vm_program(x)
    return text, why


def test_elementwise_expressions_have_programs(rng):
    x = tnp.asarray(rng.random(1000).astype(np.float32))
    y = tnp.asarray(rng.random(1000).astype(np.float32))
    text, why = program(tnp.exp(-x * x) * y + 0.5 * x)
    assert text is not None, why
    assert "exp float32" in text and "load x0" in text and "load x1" in text and "store out0" in text
    text, why = program(tnp.where(x > 0.5, x, y * 2).astype("float16"))
    assert text is not None and "where bool->float32" in text and "astype float32->float16" in text, text
    text, why = program((x + 1j * y) * (x - 2j))  # complex: two float parts per value, two outputs
    assert text is not None and "store out1" in text, why


def test_reductions_yield_their_input(rng):
    x = tnp.asarray(rng.random((50, 300)))
    text, why = program((x * 2).sum(axis=1))
    assert text is not None and "yield" in text, why
    text, why = program(x.max())
    assert text is not None and "yield" in text, why


def test_what_the_vm_does_not_run(rng):
    x = tnp.asarray(rng.random(1000))
    text, why = program(tnp.cumsum(x * 2))
    assert text is None and "scan" in why
    text, why = program(tnp.argmax(x * 2))
    assert text is None and "argmax" in why
    with pytest.raises(ValueError, match="not pending"):
        program(x)


def test_integer_division_keeps_its_zero_guard(rng):
    a = tnp.asarray(rng.integers(0, 9, 100))
    b = tnp.asarray(rng.integers(0, 3, 100))
    text, why = program(a // b)
    assert text is not None, why
    assert "floordiv int64" in text and "eq int64->bool" in text and "where bool->int64" in text, text


def test_background_compile_switch():
    assert _tegula.array_vm_mode() in ("first", "never", "always")
    before = bool(tnp.background_compile())
    with tnp.background_compile(False):
        assert not tnp.background_compile()
        assert _tegula.array_vm_mode() == "never"
    assert bool(tnp.background_compile()) == before
    prev = tnp.background_compile(True)
    try:
        assert _tegula.array_vm_mode() == "first"
    finally:
        tnp.background_compile(bool(prev))
    with pytest.raises(ValueError, match="'first', 'never' or 'always'"):
        _tegula.set_array_vm_mode("sometimes")
    tnp.wait_for_compiles()  # nothing in flight on the CPU: returns at once
    stats = tnp.kernel_stats()
    assert {"vm_launches", "background_starts"} <= set(stats)


def test_explain_says_what_a_first_run_does(rng):
    x = tnp.asarray(rng.random(1000))
    report = tegula.explain(tnp.sin(x) * 3 + 1)
    text = str(report)
    # "first run" where x is on a GPU, "first run on a GPU" where it is on the CPU interpreter
    assert re.search(r"first run( on a GPU)?: the array VM", text), text
    assert report.vm_program and "sin float64" in report.vm_program
    report = tegula.explain(tnp.cumsum(x * 3))
    assert "does not run it" in str(report) and report.vm_program is None
    with tnp.background_compile(False):
        assert "background compilation is off" in str(tegula.explain(x * 5 + 2))


def test_vm_info_on_the_cpu():
    info = _tegula.array_vm_info()
    assert info["opcodes"] > 500 and info["table_hash"] > 0
    assert isinstance(info["image_dir"], str)


def test_audit_says_a_graph_too_large_for_one_program_runs_in_parts():
    """A graph whose ops all have VM forms but that reads more arrays than a program takes (or needs more
    instructions than it holds) runs on a GPU's first run in parts (materialize.cpp's run_first cuts its largest
    part): the audit says so, and names the limit."""
    import numpy as np

    import tegula.numpy as tnp
    from tegula import _tegula

    rng = np.random.default_rng(3)
    xs = [rng.standard_normal(300) for _ in range(30)]
    _tegula.array_vm_audit_clear()
    _tegula.set_array_vm_audit(True)
    try:
        acc = None
        for i, x in enumerate(xs):
            term = tnp.asarray(x) * (i + 1.0)
            acc = term if acc is None else acc + tnp.sin(term)
        acc._materialize()
        small = tnp.asarray(xs[0]) * 2.0 + 1.0
        small._materialize()
    finally:
        _tegula.set_array_vm_audit(False)
    outcomes = {r["outcome"] for r in _tegula.array_vm_audit()}
    _tegula.array_vm_audit_clear()
    assert "vm in parts (too large for one program: more arrays read than a VM program takes)" in outcomes, outcomes
    assert "vm" in outcomes
