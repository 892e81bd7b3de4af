"""Hypothesis strategies for the fuzz tests (issue #8): random tegula.numpy expressions evaluated by tegula and by
NumPy, random tile kernels written out as Python source, and mutated tile IR text for the parser.

An expression is a tree of tuples: ("in", i) an input array, ("lit", v) a Python scalar, (op, child...) an
operation. `evaluate(tree, module, inputs)` evaluates it with `module` = numpy or tegula.numpy, so both sides run
exactly the same calls."""
from __future__ import annotations

import glob
import os
import warnings

import numpy as np
import pytest
from hypothesis import strategies as st

DTYPES = ["float32", "float64", "int32", "int64", "bool"]
UNARY = ["neg", "abs", "exp_tanh", "sqrt_abs", "sin", "tanh", "square", "to_float32", "to_float64", "logical_not"]
BINARY = ["add", "sub", "mul", "truediv", "maximum", "minimum", "where_gt", "less", "equal"]
REDUCE = ["sum", "max", "min", "mean"]


def _leaf(n_inputs):
    return st.one_of(st.tuples(st.just("in"), st.integers(0, n_inputs - 1)),
                     st.tuples(st.just("lit"), st.sampled_from([2, -1, 0.5, 3.0, True])))


def expressions(n_inputs, max_leaves=6):
    """Trees of at most `max_leaves` leaves over `n_inputs` inputs, optionally ending in a reduction."""
    body = st.recursive(
        _leaf(n_inputs),
        lambda kids: st.one_of(st.tuples(st.sampled_from(UNARY), kids),
                               st.tuples(st.sampled_from(BINARY), kids, kids)),
        max_leaves=max_leaves)
    reduced = st.tuples(st.sampled_from(REDUCE), body, st.sampled_from([None, 0, -1]), st.booleans())
    return st.one_of(body, reduced)


@st.composite
def expression_cases(draw):
    """(tree, [NumPy inputs]): 1 to 3 inputs of shapes that broadcast together, dtypes mixed."""
    rows, cols = draw(st.integers(1, 33)), draw(st.integers(1, 65))
    n = draw(st.integers(1, 3))
    shapes = [(rows, cols)] + [draw(st.sampled_from([(rows, cols), (cols,), (rows, 1), (1, cols), ()]))
                               for _ in range(n - 1)]
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    inputs = []
    for shape in shapes:
        dtype = draw(st.sampled_from(DTYPES))
        if dtype == "bool":
            inputs.append(rng.random(shape) < 0.5)
        elif dtype.startswith("int"):
            inputs.append(rng.integers(-5, 6, shape).astype(dtype))
        else:
            inputs.append(rng.standard_normal(shape).astype(dtype))
    tree = draw(expressions(n))
    if tree[0] == "lit":  # a bare scalar tests nothing here
        tree = ("add", ("in", 0), tree)
    return tree, inputs


def evaluate(tree, m, inputs):
    """The value of `tree` with module `m` (numpy or tegula.numpy) over `inputs` (arrays of that module)."""
    kind = tree[0]
    if kind == "in":
        return inputs[tree[1]]
    if kind == "lit":
        return tree[1]
    if kind in REDUCE:
        x = evaluate(tree[1], m, inputs)
        axis = tree[2] if np.ndim(x) > 0 else None
        return getattr(m, kind)(x, axis=axis, keepdims=tree[3])
    args = [evaluate(t, m, inputs) for t in tree[1:]]
    if kind in UNARY:
        x = args[0]
        return {
            "neg": lambda: m.negative(x),
            "abs": lambda: m.abs(x),
            "exp_tanh": lambda: m.exp(m.tanh(x)),
            "sqrt_abs": lambda: m.sqrt(m.abs(x)),
            "sin": lambda: m.sin(x),
            "tanh": lambda: m.tanh(x),
            "square": lambda: m.square(x),
            "to_float32": lambda: m.asarray(x).astype("float32"),
            "to_float64": lambda: m.asarray(x).astype("float64"),
            "logical_not": lambda: m.logical_not(x),
        }[kind]()
    a, b = args
    return {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "truediv": lambda: a / b,
        "maximum": lambda: m.maximum(a, b),
        "minimum": lambda: m.minimum(a, b),
        "where_gt": lambda: m.where(m.greater(a, b), a, b),
        "less": lambda: m.less(a, b),
        "equal": lambda: m.equal(a, b),
    }[kind]()


def scale_of(tree, inputs):
    """A magnitude the error of `tree` is measured against: for a sum or mean, the same reduction of the absolute
    values (cancellation makes the result itself small); otherwise the result's largest finite magnitude."""
    with np.errstate(all="ignore"):
        if tree[0] in ("sum", "mean"):
            inner = np.abs(np.asarray(evaluate(tree[1], np, inputs), dtype=np.float64))
            inner = np.where(np.isfinite(inner), inner, 0)
            axis = tree[2] if inner.ndim > 0 else None
            return max(1.0, float(np.max(getattr(np, tree[0])(inner, axis=axis), initial=0)))
        v = np.asarray(evaluate(tree, np, inputs), dtype=np.float64)
        v = v[np.isfinite(v)]
        return max(1.0, float(np.max(np.abs(v), initial=0)))


# ---- tile kernels as source text ------------------------------------------------------------------------------
TILE_UNARY = {"neg": "(-{})", "exp_tanh": "tt.exp(tt.tanh({}))", "sqrt_abs": "tt.sqrt(tt.abs({}))",
              "sin": "tt.sin({})", "square": "({0} * {0})", "row_max_sub": "({0} - tt.max({0}, axis=1, keepdims=True))",
              "row_sum": "tt.sum({}, axis=1, keepdims=True)", "row_mean": "(tt.sum({}, axis=1, keepdims=True) / C)"}
TILE_BINARY = {"add": "({} + {})", "sub": "({} - {})", "mul": "({} * {})", "maximum": "tt.maximum({}, {})",
               "where_gt": "tt.where({0} > {1}, {0}, {1})"}
NP_UNARY = {"neg": lambda x: -x, "exp_tanh": lambda x: np.exp(np.tanh(x)), "sqrt_abs": lambda x: np.sqrt(np.abs(x)),
            "sin": np.sin, "square": lambda x: x * x, "row_max_sub": lambda x: x - x.max(axis=1, keepdims=True),
            "row_sum": lambda x: x.sum(axis=1, keepdims=True), "row_mean": None}  # row_mean: sum / C, see below
NP_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum,
             "where_gt": lambda a, b: np.where(a > b, a, b)}


def tile_expressions(max_leaves=5):
    leaf = st.sampled_from([("x",), ("y",), ("c",)])
    return st.recursive(leaf, lambda kids: st.one_of(st.tuples(st.sampled_from(sorted(TILE_UNARY)), kids),
                                                     st.tuples(st.sampled_from(sorted(TILE_BINARY)), kids, kids)),
                        max_leaves=max_leaves)


def tile_source(tree):
    """The expression as tile-language source over tiles a (from x), b (from y) and the scalar 0.5."""
    if tree[0] == "x":
        return "a"
    if tree[0] == "y":
        return "b"
    if tree[0] == "c":
        return "(a * 0 + 0.5)"  # a tile of 0.5s, so row reductions of it are well formed
    if tree[0] in TILE_UNARY:
        return TILE_UNARY[tree[0]].format(tile_source(tree[1]))
    return TILE_BINARY[tree[0]].format(tile_source(tree[1]), tile_source(tree[2]))


def tile_reference(tree, x, y):
    """The same expression on whole float64 NumPy arrays (row reductions see whole rows, as the tiles do)."""
    if tree[0] == "x":
        return x
    if tree[0] == "y":
        return y
    if tree[0] == "c":
        return x * 0 + 0.5
    if tree[0] == "row_mean":  # the kernel divides by C, the row length, even when the tile is already (T, 1)
        return tile_reference(tree[1], x, y).sum(axis=1, keepdims=True) / x.shape[1]
    if tree[0] in NP_UNARY:
        return NP_UNARY[tree[0]](tile_reference(tree[1], x, y))
    return NP_BINARY[tree[0]](tile_reference(tree[1], x, y), tile_reference(tree[2], x, y))


KERNEL_TEMPLATE = '''import tegula.tile as tt


@tt.kernel
def fuzz_kernel(x, y, out, T: tt.Constant[int], C: tt.Constant[int]):
    row = tt.bid(0)
    a = tt.load(x, index=(row, 0), shape=(T, C))
    b = tt.load(y, index=(row, 0), shape=(T, C))
    tt.store(out, index=(row, 0), tile=({expr} + a * 0).astype(out.dtype))
'''


def write_kernel(tmp_dir, tree, tag):
    """Writes the kernel module for `tree` and imports its fuzz_kernel (the front end reads the source file)."""
    import importlib.util

    path = os.path.join(tmp_dir, f"fuzz_kernel_{tag}.py")
    with open(path, "w") as f:
        f.write(KERNEL_TEMPLATE.format(expr=tile_source(tree)))
    spec = importlib.util.spec_from_file_location(f"fuzz_kernel_{tag}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.fuzz_kernel


# ---- tile IR text for the parser -------------------------------------------------------------------------------
IR_FILES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "ir", "*.tir")))
TOKENS = ["%0", "%x", "%undefined", "tile<float32, 4>", "tile<int32>", "array<float32, 2>", "{", "}", "(", ")", ":",
          ",", "=", "add", "load", "store", "yield", "for", "if", "func", "@f", "{axis = 0}", "-1", "1e999", "\"",
          "tile<bogus, 3>", "tile<float32, 0x4>", "\n", "  ", "//", "99999999999999999999"]


@st.composite
def mutated_ir(draw):
    """A tile IR file with a few random edits: cut a span, duplicate or drop a line, insert a token, flip a byte."""
    with open(draw(st.sampled_from(IR_FILES))) as f:
        text = f.read()
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        edit = draw(st.sampled_from(["cut", "dup", "drop", "insert", "flip"]))
        i = draw(st.integers(0, len(text) - 1))
        if edit == "cut":
            text = text[:i] + text[i + draw(st.integers(1, 40)):]
        elif edit in ("dup", "drop"):
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines = lines[:k] + ([lines[k]] * 2 if edit == "dup" else []) + lines[k + 1:]
            text = "\n".join(lines)
        elif edit == "insert":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
        else:
            text = text[:i] + chr(draw(st.integers(32, 126))) + text[i + 1:]
    return text


# ---- the checks (shared by tests/python/test_fuzz.py and tests/gpu/test_gpu_fuzz.py) ------------------------------
def check_expression(tree, inputs, device):
    """tegula.numpy on `device` gives NumPy's dtype, shape and values for `tree`, or raises NumPy's exception type."""
    import tegula.numpy as tnp

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = evaluate(tree, np, inputs)
        except Exception as e:  # noqa: BLE001 - NumPy's error is the expected behaviour
            with pytest.raises(type(e)):
                r = evaluate(tree, tnp, [tnp.asarray(x, device=device) for x in inputs])
                np.asarray(r)
            return
        got = evaluate(tree, tnp, [tnp.asarray(x, device=device) for x in inputs])
    ref = np.asarray(ref)
    got = np.asarray(got.get() if isinstance(got, tnp.ndarray) else got)
    assert got.dtype == ref.dtype, f"dtype {got.dtype} != NumPy's {ref.dtype} for {tree}"
    assert got.shape == ref.shape, f"shape {got.shape} != NumPy's {ref.shape} for {tree}"
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(got, ref, err_msg=str(tree))
        return
    # The lowest precision any intermediate had sets the tolerance: NumPy computes sin/exp/... of bool in float16,
    # and float32 intermediates carry float32 rounding into a float64 result.
    text = str(tree)
    half = ref.dtype == np.float16 or (any(x.dtype == np.bool_ for x in inputs) and
                                       any(f in text for f in ("exp_tanh", "sqrt_abs", "sin", "tanh")))
    single = ref.dtype == np.float32 or "to_float32" in text or any(x.dtype == np.float32 for x in inputs)
    rtol = 1e-2 if half else 1e-4 if single else 1e-10
    scale = scale_of(tree, inputs)
    both = np.isfinite(ref) & np.isfinite(got)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), f"NaN positions differ for {tree}"
    assert np.array_equal(np.isinf(got) & ~both, np.isinf(ref) & ~both), f"infinities differ for {tree}"
    err = np.max(np.abs(got[both].astype(np.float64) - ref[both]), initial=0)
    assert err <= rtol * scale, f"error {err} > {rtol} * {scale} for {tree}"


def check_tile_kernel(tree, rows, cols, tile_rows, tmp_dir, tag, interpret):
    import tegula.numpy as tnp
    import tegula.tile as tt

    rng = np.random.default_rng(abs(hash((str(tree), rows, cols))) % 2**32)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    y = rng.standard_normal((rows, cols)).astype(np.float32)
    k = write_kernel(tmp_dir, tree, tag)
    grid = (-(-rows // tile_rows),)
    if interpret:
        out = np.full_like(x, np.nan)
        tt.launch(k, grid=grid, args=(x, y, out, tile_rows, cols), interpret=True)
    else:
        xd, yd = tnp.asarray(x, device="cuda"), tnp.asarray(y, device="cuda")
        od = tnp.full(x.shape, np.nan, dtype="float32", device="cuda")
        tt.launch(k, grid=grid, args=(xd, yd, od, tile_rows, cols))
        out = od.get()
    with np.errstate(all="ignore"):
        ref = np.broadcast_to(tile_reference(tree, x.astype(np.float64), y.astype(np.float64)) + 0 * x, x.shape)
    finite = np.isfinite(ref)
    scale = max(1.0, float(np.max(np.abs(ref[finite]), initial=0)))
    assert np.array_equal(np.isnan(out), np.isnan(ref)), f"NaN positions differ for {tile_source(tree)}"
    err = np.max(np.abs(out[finite] - ref[finite]), initial=0)
    assert err <= 1e-4 * scale * (1 + cols / 64), f"error {err} for {tile_source(tree)}"
