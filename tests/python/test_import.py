"""`import tegula` is lazy: no CUDA library, no numpy, no extension until first use."""
from child_process import run_python


def test_import_loads_nothing_heavy():
    out = run_python(
        "import sys, tegula\n"
        "print('numpy' in sys.modules, 'tegula._tegula' in sys.modules, 'tegula.core' in sys.modules)"
    ).stdout.split()
    assert out == ["False", "False", "False"]


def test_submodule_and_errors_load_on_first_use():
    out = run_python(
        "import tegula\n"
        "core = tegula.core\n"
        "print(core.__name__, tegula.CUDAError.__name__, issubclass(tegula.CUDAError, tegula.TegulaError),"
        " issubclass(tegula.TegulaError, RuntimeError))"
    ).stdout.split()
    assert out == ["tegula.core", "CUDAError", "True", "True"]


def test_unknown_attribute():
    import pytest
    import tegula

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tegula.nope
