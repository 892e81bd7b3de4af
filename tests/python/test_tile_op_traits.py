"""The tile front end's op categories and float loop dtypes come from the C++ core (ops.def traits and
array/promotion through the bindings), not from lists of its own."""
import numpy as np
import pytest

import tegula.tile as tt
from tegula import _tegula
from tegula.numpy import _ufuncs
from tegula.tile import _emit, _ops

INTS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def test_traits_cover_every_op():
    traits = _tegula.op_traits()
    assert {"exp", "add", "eq", "where", "load", "store", "sum", "cumsum", "for", "yield", "mma"} <= set(traits)
    for op, t in traits.items():
        assert t["category"] in {"source", "memory", "unary", "binary", "comparison", "select", "shape", "mma",
                                 "reduction", "scan", "debug", "control"}, op
        assert t["float_math"] == (t["dtypes"] == "floating"), op
        assert t["side_effects"] == (t["effect"] == "writes"), op
    assert {op for op, t in traits.items() if t["side_effects"]} == {
        "store", "scatter", "atomic_add", "atomic_max", "atomic_min", "atomic_cas", "print", "assert"}
    assert traits["eq"]["result"] == "boolean" and traits["sum"]["result"] == "accumulate"
    assert traits["and"]["int_only"] and not traits["add"]["int_only"]


def test_emit_float_only_is_the_bindings():
    traits = _tegula.op_traits()
    assert _emit.OP_TRAITS == traits
    assert _emit._FLOAT_ONLY == {op for op, t in traits.items() if t["float_math"]}
    assert {"exp", "sqrt", "floor", "rint", "atan2"} <= _emit._FLOAT_ONLY
    assert not {"neg", "abs", "not", "add"} & _emit._FLOAT_ONLY
    assert not hasattr(_ops, "FLOAT_ONLY")  # no second list in the tt.* namespace
    # every tt.* unary the front end maps names for is classified by the core
    for op in _ops.UNARY.values():
        assert traits[op]["category"] == "unary", op


@pytest.mark.parametrize("name", INTS + ["float16", "bfloat16", "float32", "float64"])
def test_float_loop_is_promotions(name):
    want = {"bool": "float16", "int8": "float16", "uint8": "float16", "int16": "float32",
            "uint16": "float32"}.get(name, "float64" if name in INTS else name)
    assert _tegula.float_loop(name) == want
    assert _emit._float_for(name) == want
    if name in INTS:
        assert _ufuncs._float_loop(name) == want


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.bool_])
def test_float_math_of_int_tiles_computes_in_float_loop(dtype):
    @tt.kernel
    def k(x, out, T: tt.Constant[int]):
        tt.store(out, index=(0,), tile=tt.sqrt(tt.load(x, index=(0,), shape=(T,))).astype(tt.float64))

    x = np.array([0, 1, 4, 9] if dtype is not np.bool_ else [0, 1, 1, 0], dtype=dtype)
    out = np.zeros(4, np.float64)
    tt.launch(k, grid=1, args=(x, out, 4), interpret=True)
    np.testing.assert_allclose(out, np.sqrt(x), rtol=1e-3)
    ir = str(k.compile((x, out, 4), interpret=True).ir)
    assert "sqrt %" in ir and _tegula.float_loop(np.dtype(dtype).name) in ir
