"""Dtype rules have one authority, the C++ promotion table (cpp/tegula/array/promotion.hpp, bound in
bindings/bind_promotion.cpp): tnp.result_type, tnp.can_cast, ufunc out= checks and concatenate ask it, it agrees
with NumPy 2 (NEP 50) on every pair of dtypes NumPy has and every casting rule, and tegula.numpy asks host NumPy
for none of it."""
import itertools
import pathlib

import numpy as np
import pytest

import tegula.numpy as tnp
from tegula import _tegula

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
SCALARS = [True, 3, -3, 2.5, 1 + 2j]


@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, repeat=2)))
def test_result_type_of_two_dtypes_is_numpys(a, b):
    assert tnp.result_type(a, b) == np.result_type(a, b)
    assert _tegula.result_type(a, b) == np.result_type(a, b).name


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("s", SCALARS, ids=repr)
def test_python_scalars_are_weak(a, s):
    assert tnp.result_type(a, s) == np.result_type(np.empty(0, a), s)
    assert tnp.result_type(tnp.zeros(2, dtype=a), s) == np.result_type(np.zeros(2, a), s)


def test_scalars_alone_and_numpy_scalars_strong():
    assert tnp.result_type(1, 2.0) == np.float64 and tnp.result_type(True) == np.bool_
    assert tnp.result_type(1, 1j) == np.complex128
    assert tnp.result_type(np.float32(1), 2.0) == np.float32          # a NumPy scalar is strong
    assert tnp.result_type(np.int8(1), np.uint8(1)) == np.int16
    assert tnp.result_type("bfloat16", 1.0) == "bfloat16" and tnp.result_type("bfloat16", "float32") == np.float32


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_is_numpys(casting):
    for a, b in itertools.product(DTYPES, repeat=2):
        assert tnp.can_cast(a, b, casting) == np.can_cast(a, b, casting), (a, b, casting)


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match="does not support dtype"):
        _tegula.result_type("float128")
    with pytest.raises(TypeError, match="dtype names and Python"):
        _tegula.result_type(object())
    with pytest.raises(ValueError, match="at least one"):
        _tegula.result_type()
    with pytest.raises(ValueError):
        tnp.can_cast("int8", "int16", "sometimes")
    with pytest.raises(TypeError, match="Python ints"):
        tnp.can_cast(3, "int16")


def test_no_host_numpy_promotion_in_tegula_numpy():
    root = pathlib.Path(__file__).resolve().parents[2] / "python" / "tegula" / "numpy"
    found = [f"{p.name}:{i}" for p in root.rglob("*.py") for i, line in enumerate(p.read_text().splitlines(), 1)
             if any(s in line for s in ("_np.result_type", "_np.can_cast", "_np.promote_types"))]
    assert not found, f"dtype rules asked of host NumPy: {found}"


@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, repeat=2)))
def test_promote_types_is_numpys(a, b):
    assert tnp.promote_types(a, b) == np.promote_types(a, b)
