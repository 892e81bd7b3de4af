"""The float math ops (tan, asin, ..., log1p, expm1, trunc, rint): the interpreter against NumPy,
and their generated CUDA compiles with NVRTC (no GPU needed)."""
import linecache

import numpy as np
import pytest

import tegula.core as tc
import tegula.tile as tt
from tegula import _tegula

OPS = {"tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
       "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "log10": np.log10, "log1p": np.log1p,
       "expm1": np.expm1, "trunc": np.trunc, "rint": np.rint}


def _compiled(name, src):
    """The tt.kernel `k` of generated source `src` (the front end reads the source through linecache)."""
    filename = f"<math_op_{name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"tt": tt}
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - a generated test kernel
    return ns["k"]


def _kernel(name):
    return _compiled(name, f"@tt.kernel\ndef k(x, out, T: tt.Constant[int]):\n"
                           f"    tt.store(out, index=(0,), tile=tt.{name}(tt.load(x, index=(0,), shape=(T,))))\n")


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_math_op(name, dtype):
    rng = np.random.default_rng()
    lo, hi = {"acosh": (1.05, 4.0), "asin": (-0.95, 0.95), "acos": (-0.95, 0.95), "atanh": (-0.95, 0.95),
              "log10": (0.01, 5.0), "log1p": (-0.9, 5.0)}.get(name, (-3.0, 3.0))
    x = rng.uniform(lo, hi, 100).astype(dtype)
    x[:4] = [0.5, -0.5, 1.5, -2.5] if name == "rint" else x[:4]  # ties round to even
    out = np.full_like(x, np.nan)
    k = _kernel(name)
    tt.launch(k, grid=1, args=(x, out, 100), interpret=True)
    ref = OPS[name](x.astype(np.float64))
    tol = 2e-3 if dtype == np.float16 else 1e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out, ref, rtol=tol, atol=tol)
    ir = k.compile((x, out, 100), interpret=True).ir
    _, source, _, _ = _tegula.generate_cuda(ir, 90, [(True, True)] * 2)
    try:
        tc.Program(source, name=f"{name}.cu").compile(target_type="ptx")
    except tc.DriverNotFoundError as e:
        pytest.skip(f"NVRTC is not available: {e}")


BINARY = {"atan2": np.arctan2, "hypot": np.hypot, "copysign": np.copysign}


def _binary_kernel(name):
    return _compiled(name, f"@tt.kernel\ndef k(x, y, out, T: tt.Constant[int]):\n"
                           f"    a = tt.load(x, index=(0,), shape=(T,))\n"
                           f"    tt.store(out, index=(0,), tile=tt.{name}(a, tt.load(y, index=(0,), shape=(T,))))\n")


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_binary_math_op(name, dtype):
    rng = np.random.default_rng()
    x = rng.uniform(-3, 3, 100).astype(dtype)
    y = rng.uniform(-3, 3, 100).astype(dtype)
    x[:6], y[:6] = [0, -0.0, 0, 1, -1, np.inf], [0, 0, -0.0, 0, -0.0, 1]  # signed zeros and the axes
    out = np.full_like(x, np.nan)
    k = _binary_kernel(name)
    tt.launch(k, grid=1, args=(x, y, out, 100), interpret=True)
    ref = BINARY[name](x.astype(np.float64), y.astype(np.float64))
    tol = 2e-3 if dtype == np.float16 else 1e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out, ref, rtol=tol, atol=tol)
    assert np.array_equal(np.signbit(out), np.signbit(ref.astype(dtype)))
    ir = k.compile((x, y, out, 100), interpret=True).ir
    _, source, _, _ = _tegula.generate_cuda(ir, 90, [(True, True)] * 3)
    try:
        tc.Program(source, name=f"{name}.cu").compile(target_type="ptx")
    except tc.DriverNotFoundError as e:
        pytest.skip(f"NVRTC is not available: {e}")


def test_binary_math_op_rejects_ints():
    k = _binary_kernel("atan2")
    x = np.arange(8, dtype=np.int32)
    with pytest.raises(Exception, match="float"):
        tt.launch(k, grid=1, args=(x, x, x.copy(), 8), interpret=True)
