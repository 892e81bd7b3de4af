"""Complex functions at infinite, NaN, signed-zero and huge parts against NumPy (C99 Annex G's special-value tables,
with the signs glibc picks where the annex leaves them open): every pair of parts from the classes -inf, negative,
-0, +0, positive, +inf, NaN, and values whose squares overflow. Infinities and zeros must match with their signs,
NaN parts must be NaN; finite parts within a few ulp of NumPy's, relative to |f(z)|."""
import warnings

import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import device  # noqa: F401

SPECIAL = [-np.inf, -2.5, -0.0, 0.0, 0.5, 2.5, np.inf, np.nan]
HUGE = [1e308, -1e308, 1.7e308, 3e38, -3e38, 1e20, 711.0, 89.0, 1e-300, 1.0]
UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan", "sinh", "cosh",
         "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]
TOL = {"complex64": 3e-6, "complex128": 1e-13}


def grid(values):
    return np.array([complex(a, b) for a in values for b in values])


def mismatches(ref, got, tol, unsigned=None):
    """The indices where got is not ref: signed zeros and infinities exact (only their magnitude where `unsigned`
    is true), NaN for NaN, finite parts within tol * |ref|."""
    bad = []
    for i, (r, g) in enumerate(zip(ref, got)):
        scale = abs(r) if np.isfinite(abs(r)) else 1.0
        for a, b in ((r.real, g.real), (r.imag, g.imag)):
            if np.isnan(a):
                ok = np.isnan(b)
            elif a == 0 or np.isinf(a):
                ok = a == b and (np.signbit(a) == np.signbit(b) or (unsigned is not None and unsigned[i]))
            else:
                ok = np.isfinite(b) and abs(a - b) <= tol * max(scale, abs(a))
            if not ok:
                bad.append(i)
                break
    return bad


def check(name, z, ref, got, tol, unsigned=None):
    bad = mismatches(ref, got, tol, unsigned)
    report = "; ".join(f"{name}({z[i]}): NumPy {ref[i]}, tegula {got[i]}" for i in bad[:8])
    assert not bad, f"{len(bad)} of {len(z)} differ: {report}"


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_special_values(name, dtype, device):
    values = SPECIAL + [v for v in HUGE if dtype == "complex128" or abs(v) < 3.4e38]
    z = grid(values).astype(dtype)
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(z)
    got = tnp.asnumpy(getattr(tnp, name)(tnp.asarray(z, device=device)))
    assert got.dtype == ref.dtype
    check(name, z, ref, got, TOL[dtype])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_power_special_values(dtype, device):
    """z ** w over every pair of special values (C99 G.5.1's multiplication inside cexp(w clog z), as NumPy's
    cpow), and NumPy's own rules for z ** 0 and 0 ** w."""
    z = grid(SPECIAL).astype(dtype)
    a, b = np.repeat(z, len(z)), np.tile(z, len(z))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = np.power(a, b)
    got = tnp.asnumpy(tnp.power(tnp.asarray(a, device=device), tnp.asarray(b, device=device)))
    # Some zero and infinite parts take the sign of a NaN made inside cpow (inf - inf), which C99 leaves open: x86
    # makes negative NaNs, NVIDIA GPUs positive ones. On the GPU their signs are not compared.
    odd = ~(np.isfinite(a) & np.isfinite(b)) if device == "cuda" else None
    check("power", [f"{x}, {y}" for x, y in zip(a, b)], ref, got, TOL[dtype] * 10, odd)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_signbit_of_negative_nan(dtype, device):
    v = np.array([-np.nan, np.nan, -0.0, 0.0, -np.inf, np.inf, -1.5, 1.5], dtype=dtype)
    np.testing.assert_array_equal(tnp.asnumpy(tnp.signbit(tnp.asarray(v, device=device))), np.signbit(v))
