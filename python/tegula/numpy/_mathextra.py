"""NumPy's mathematical functions that are compositions of tegula.numpy's ufuncs and reductions: cbrt, gcd, lcm,
divmod, modf, frexp, ldexp, heaviside, sinc, i0, isposinf, isneginf, ptp, nancumsum/nancumprod, ediff1d,
gradient, trapezoid, interp, unwrap, average, cov, corrcoef, array_equiv, sort_complex, matvec/vecmat and the
polynomial helpers (polyval, polyfit, poly, roots, polyadd, polysub, polymul, polyder, polyint)."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from ._common import _arr, _axis
from ._special import i0  # noqa: F401  (exported here: __all__)
from . import _ufuncs
from ._array_api import nextafter
from ._common import _is_py_scalar, _no_complex
from ._construct import vander
from ._convolve import convolve
from ._creation import arange, zeros
from ._dtypes import result_type
from ._manipulation import broadcast_arrays, concatenate, moveaxis
from ._matmul import matmul, outer
from ._reductions import allclose, cumprod, cumsum
from ._sort import searchsorted, sort
from ._ufuncs import _float_loop, conjugate


# ---- element-wise -------------------------------------------------------------------------------
def _floating(x, name):
    """x as a tegula array of a floating type: integers and booleans in NumPy's float loop dtype for them (bool
    and 8-bit integers float16, 16-bit float32, wider float64); complex x is NumPy's TypeError for the float-only
    ufunc `name`."""
    _no_complex(name, x)
    x = _arr(x)
    return x if x._dtype_name.startswith(("float", "bfloat")) else x.astype(_float_loop(x._dtype_name))


def cbrt(x):
    """The real cube root: |x| ** (1/3) with x's sign, refined by one Newton step (NumPy's cbrt is libm's)."""
    x = _floating(x, "cbrt")
    ax = _ufuncs.abs(x)
    y = ax ** (1.0 / 3.0)
    safe = _ufuncs.where(y > 0, y, 1.0)
    y = _ufuncs.where((y > 0) & _ufuncs.isfinite(y), y - (y * y * y - ax) / (3.0 * safe * safe), y)
    return _ufuncs.copysign(y, x)


def gcd(x1, x2):
    """Greatest common divisor of integers (Euclid's steps on the whole array until every pair is done)."""
    a, b = _arr(x1), _arr(x2)
    for t in (a, b):
        if not t._dtype_name.startswith(("int", "uint", "bool")):
            raise TypeError("ufunc 'gcd' did not contain a loop with signature matching types")

    dt = _np.dtype(result_type(a, b)).name
    a, b = _ufuncs.abs(a.astype(dt)), _ufuncs.abs(b.astype(dt))
    a, b = _broadcast(a, b)
    a, b = a.copy(), b.copy()
    while bool((b != 0).any()):
        nz = b != 0
        r = _ufuncs.where(nz, a % _ufuncs.where(nz, b, 1), 0)
        a, b = _core.settled(_ufuncs.where(nz, b, a), r)
    return a


def _broadcast(a, b):
    return broadcast_arrays(a, b)


def lcm(x1, x2):
    a, b = _arr(x1), _arr(x2)
    g = gcd(a, b)

    dt = _np.dtype(result_type(a, b)).name
    return _ufuncs.where(g == 0, 0, _ufuncs.abs(a.astype(dt) // _ufuncs.where(g == 0, 1, g) * b.astype(dt)))


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    return _ufuncs.floor_divide(x1, x2), _ufuncs.remainder(x1, x2)


def modf(x):
    x = _floating(x, "modf")
    whole = _ufuncs.trunc(x)
    frac = _ufuncs.where(_ufuncs.isinf(x), _ufuncs.copysign(0.0, x), x - whole)
    return _ufuncs.copysign(frac, x), whole


def frexp(x):
    """(mantissa in [0.5, 1), exponent) with x = m * 2**e; 0, inf and NaN give (x, 0) as NumPy."""
    x = _floating(x, "frexp")
    ax = _ufuncs.abs(x)
    finite = _ufuncs.isfinite(x) & (x != 0)
    e = _ufuncs.where(finite, _ufuncs.floor(_ufuncs.log2(_ufuncs.where(finite, ax, 1.0))) + 1.0, 0.0)
    m = _ufuncs.where(finite, x / _ufuncs.exp2(e), x)
    # log2 can round across a power of two: bring m into [0.5, 1)
    big = finite & (_ufuncs.abs(m) >= 1.0)
    m, e = _ufuncs.where(big, m * 0.5, m), _ufuncs.where(big, e + 1.0, e)
    small = finite & (_ufuncs.abs(m) < 0.5)
    m, e = _ufuncs.where(small, m * 2.0, m), _ufuncs.where(small, e - 1.0, e)
    return m, e.astype("int32")


def ldexp(x1, x2):
    x = _floating(x1, "ldexp")
    # a Python int exponent is an integer (next to a float array a weak scalar would turn float)
    e = _arr(_np.asarray(x2) if isinstance(x2, int) and not isinstance(x2, bool) else x2, x)
    if e._dtype_name.startswith(("float", "complex")):
        raise TypeError("ufunc 'ldexp' not supported for the input types, and the inputs could not be safely coerced")
    half = (e // 2).astype(x._dtype_name)  # in two steps, so 2**e alone never overflows while the product fits
    return x * _ufuncs.exp2(half) * _ufuncs.exp2(e.astype(x._dtype_name) - half)


def heaviside(x1, x2):
    """NumPy's float loops (ee, ff, dd): the operands' promoted dtype (Python scalars weak), integers and bools
    in their float loop dtype."""
    for v in (x1, x2):
        _no_complex("heaviside", v)
    a = x1 if _is_py_scalar(x1) else _arr(x1)
    b = x2 if _is_py_scalar(x2) else _arr(x2, a if not _is_py_scalar(a) else None)
    names = [v._dtype_name for v in (a, b) if not _is_py_scalar(v)]
    if "bfloat16" in names:
        rt = "bfloat16" if all(n == "bfloat16" or n.startswith(("int", "uint", "bool")) for n in names) else \
            "float32"
    else:
        rt = _np.dtype(result_type(a, b)).name
        rt = rt if rt.startswith("float") else _float_loop(rt)
    x = _arr(a).astype(rt) if _is_py_scalar(a) or a._dtype_name != rt else a
    return _ufuncs.where(_ufuncs.isnan(x), x, _ufuncs.where(x < 0, 0.0, _ufuncs.where(x > 0, 1.0, b))).astype(rt)


def sinc(x):
    x = _arr(x)
    if not x._dtype_name.startswith(("float", "complex", "bfloat")):
        x = x.astype("float64")
    y = math.pi * _ufuncs.where(x == 0, 1.0e-20, x)
    return _ufuncs.sin(y) / y


def bitwise_count(x):
    """The number of 1 bits in |x| (NumPy's bitwise_count), as uint8: a SWAR popcount in the unsigned type."""
    x = _arr(x)
    name = x._dtype_name
    if not name.startswith(("int", "uint", "bool")):
        raise TypeError("ufunc 'bitwise_count' not supported for the input types, and the inputs could not be "
                        "safely coerced to any supported types according to the casting rule ''safe''")
    if name == "bool":
        return x.astype("uint8")
    bits = 8 * x.itemsize
    # |INT_MIN| wraps to INT_MIN: as the same-width unsigned type it is 2**(bits-1), whose one bit is right
    u = (_ufuncs.abs(x) if name.startswith("int") else x).astype(f"uint{bits}").astype("uint64")
    m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
    u = u - ((u >> 1) & m1)
    u = (u & m2) + ((u >> 2) & m2)
    u = (u + (u >> 4)) & m4
    u = (u * 0x0101010101010101) >> 56
    return u.astype("uint8")


def spacing(x):
    """The distance from x to the next representable value away from zero (negative for negative x), as
    NumPy's: nextafter(x, +-inf) - x; NaN for inf and NaN."""
    x = _floating(x, "spacing")
    away = _ufuncs.where(_ufuncs.signbit(x), -_np.inf, _np.inf).astype(x._dtype_name)
    r = _ufuncs.where(_ufuncs.isfinite(x), nextafter(x, away) - x, _np.nan)
    r = _ufuncs.where(x == 0, nextafter(_ufuncs.abs(x), _np.inf), r)  # NumPy: +0 and -0 both give the smallest positive value
    if x._dtype_name == "float16":  # NumPy's float16 loop: a negative x gets the (positive) gap below |x|
        m = _ufuncs.abs(x)
        r = _ufuncs.where((x < 0) & _ufuncs.isfinite(x), m - nextafter(m, _np.float16(0)), r)
    return r


def isposinf(x):
    x = _arr(x)
    return _ufuncs.isinf(x) & ~_ufuncs.signbit(x)


def isneginf(x):
    x = _arr(x)
    return _ufuncs.isinf(x) & _ufuncs.signbit(x)


# ---- reductions and differences -----------------------------------------------------------------
def ptp(a, axis=None, out=None, keepdims=False):
    a = _arr(a)
    r = a.max(axis=axis, keepdims=keepdims) - a.min(axis=axis, keepdims=keepdims)
    if out is not None:
        out[...] = r
        return out
    return r


def nancumsum(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    return cumsum(_ufuncs.where(_ufuncs.isnan(a), 0, a) if a._dtype_name.startswith(("float", "complex")) else a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    a = _arr(a)
    return cumprod(_ufuncs.where(_ufuncs.isnan(a), 1, a) if a._dtype_name.startswith(("float", "complex")) else a, axis, dtype,
                   out)


def ediff1d(ary, to_end=None, to_begin=None):
    a = _arr(ary).reshape(-1)
    parts = [a[1:] - a[:-1]]
    if to_begin is not None:
        parts.insert(0, _arr(_np.asarray(to_begin), a).reshape(-1).astype(parts[0]._dtype_name))
    if to_end is not None:
        parts.append(_arr(_np.asarray(to_end), a).reshape(-1).astype(parts[0]._dtype_name))
    return concatenate(parts) if len(parts) > 1 else parts[0]


def gradient(f_, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order one-sided ones at the edges; uniform
    spacing per axis (a scalar per axis) or coordinates (a 1-D array per axis), as NumPy's."""
    y = _arr(f_)
    if not y._dtype_name.startswith(("float", "complex")):
        y = y.astype("float64")
    axes = list(range(y.ndim)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    axes = [_axis(a, y.ndim) for a in axes]
    if len(varargs) == 0:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    out = []
    for ax, h in zip(axes, spacing):
        m = moveaxis(y, ax, 0)
        n = m.shape[0]
        if n < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        if _np.ndim(h) == 0:
            h = float(h)
            inner = (m[2:] - m[:-2]) / (2.0 * h)
            if edge_order == 1:
                first, last = (m[1:2] - m[:1]) / h, (m[-1:] - m[-2:-1]) / h
            else:
                first = (-1.5 * m[:1] + 2.0 * m[1:2] - 0.5 * m[2:3]) / h
                last = (0.5 * m[-3:-2] - 2.0 * m[-2:-1] + 1.5 * m[-1:]) / h
        else:
            x = _np.asarray(h.get() if isinstance(h, _core.ndarray) else h, dtype=_np.float64)
            if x.ndim != 1 or x.shape[0] != n:
                raise ValueError("when 1d, distances must match the length of the corresponding dimension")
            dx = _np.diff(x)
            d1, d2 = dx[:-1], dx[1:]
            shape = (n - 2,) + (1,) * (m.ndim - 1)
            a_ = _arr((-d2 / (d1 * (d1 + d2))).reshape(shape), m)
            b_ = _arr(((d2 - d1) / (d1 * d2)).reshape(shape), m)
            c_ = _arr((d1 / (d2 * (d1 + d2))).reshape(shape), m)
            inner = a_ * m[:-2] + b_ * m[1:-1] + c_ * m[2:]
            if edge_order == 1:
                first, last = (m[1:2] - m[:1]) / dx[0], (m[-1:] - m[-2:-1]) / dx[-1]
            else:
                e1, e2 = dx[0], dx[1]
                a0, b0, c0 = -(2 * e1 + e2) / (e1 * (e1 + e2)), (e1 + e2) / (e1 * e2), -e1 / (e2 * (e1 + e2))
                first = a0 * m[:1] + b0 * m[1:2] + c0 * m[2:3]
                e1, e2 = dx[-2], dx[-1]
                a1, b1, c1 = e2 / (e1 * (e1 + e2)), -(e2 + e1) / (e1 * e2), (2 * e2 + e1) / (e2 * (e1 + e2))
                last = a1 * m[-3:-2] + b1 * m[-2:-1] + c1 * m[-1:]
        g = concatenate([first, inner, last]) if n > 2 else concatenate([first, last])
        out.append(moveaxis(g, 0, ax))
    return out[0] if len(out) == 1 else tuple(out)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = _arr(y)

    m = moveaxis(y, axis, -1)
    if x is None:
        return ((m[..., 1:] + m[..., :-1]) * 0.5).sum(axis=-1) * dx
    xv = _arr(x, y)
    d = xv[..., 1:] - xv[..., :-1] if xv.ndim == 1 else moveaxis(xv, axis, -1)[..., 1:] - moveaxis(xv, axis, -1)[..., :-1]
    return (d * (m[..., 1:] + m[..., :-1]) * 0.5).sum(axis=-1)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the increasing points (xp, fp) at x, as NumPy's (left/right past the
    ends, or the periodic extension with period)."""
    xa = _arr(x)
    xpa, fpa = _arr(xp, xa), _arr(fp, xa)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError("Data points must be 1D sequences")
    if xpa.shape[0] != fpa.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xpa.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    cplx = fpa._dtype_name.startswith("complex")
    xv = xa.astype("float64")
    xpv = xpa.astype("float64")
    fpv = fpa.astype("complex128" if cplx else "float64")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        xv = xv % period
        xpv = xpv % period
        from ._manipulation import concatenate
        from ._sort import argsort

        order = argsort(xpv)
        xpv, fpv = xpv[order], fpv[order]
        xpv = concatenate([xpv[-1:] - period, xpv, xpv[:1] + period])
        fpv = concatenate([fpv[-1:], fpv, fpv[:1]])
    n = xpv.shape[0]
    if n == 1:
        r = _ufuncs.where(xv < xpv[0], fpv[0] if left is None else left, _ufuncs.where(xv > xpv[0], fpv[0] if right is None
                                                                            else right, fpv[0]))
        return r + 0 * xv
    j = _ufuncs.minimum(_ufuncs.maximum(searchsorted(xpv, xv.reshape(-1), side="right") - 1, 0), n - 2).reshape(xv.shape)
    x0, x1, y0, y1 = xpv[j], xpv[j + 1], fpv[j], fpv[j + 1]
    dxp = x1 - x0
    slope = (y1 - y0) / _ufuncs.where(dxp == 0, 1.0, dxp)
    r = _ufuncs.where(dxp == 0, y0, y0 + slope * (xv - x0))
    r = _ufuncs.where(xv == x1, y1, r)  # exactly at a point: its value
    lo = fpv[0] if left is None else left
    hi = fpv[-1] if right is None else right
    r = _ufuncs.where(xv < xpv[0], lo, _ufuncs.where(xv > xpv[-1], hi, r))
    return r


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    p = _arr(p)
    if not p._dtype_name.startswith("float"):
        p = p.astype("float64")
    m = moveaxis(p, axis, -1)
    dd = m[..., 1:] - m[..., :-1]
    if discont is None:
        discont = period / 2
    high = period / 2
    ddmod = (dd + high) % period - high
    ddmod = _ufuncs.where((ddmod == -high) & (dd > 0), high, ddmod)
    correct = _ufuncs.where(_ufuncs.abs(dd) < discont, 0.0, ddmod - dd)
    out = concatenate([m[..., :1], m[..., 1:] + cumsum(correct, axis=-1)], axis=-1)
    return moveaxis(out, -1, axis)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = _arr(a)
    if axis is not None:  # NumPy's "axis: " AxisError before anything else
        for ax in (axis,) if isinstance(axis, (int, _np.integer)) else axis:
            _axis(ax, a.ndim, "axis: ")
    if weights is None:
        avg = a.mean(axis=axis, keepdims=keepdims)
        if avg.size == 0:  # NumPy's a.size / avg.size
            raise ZeroDivisionError("division by zero")
        scl = avg * 0 + a.size // avg.size
    else:
        w = _arr(weights, a)
        if w.shape != a.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if w.ndim != 1:
                raise TypeError("1D weights expected when shapes of a and weights differ.")
            if w.shape[0] != a.shape[axis]:
                raise ValueError("Length of weights not compatible with specified axis.")
            shape = [1] * a.ndim
            shape[axis % a.ndim] = w.shape[0]
            w = w.reshape(shape)
        scl = (w + 0 * a).sum(axis=axis, keepdims=keepdims)
        if bool((scl == 0).any()):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = (a * w).sum(axis=axis, keepdims=keepdims) / scl
    return (avg, scl.astype(avg._dtype_name)) if returned else avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    x = _arr(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = x.reshape(1, -1) if x.ndim < 2 else x
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yy = _arr(y, x)
        yy = yy.reshape(1, -1) if yy.ndim < 2 else yy
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = concatenate([x, yy], axis=0)
    dt = dtype or ("float64" if not x._dtype_name.startswith(("float", "complex")) else x._dtype_name)
    x = x.astype(_np.dtype(dt).name)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = _arr(fweights, x).astype("float64")
    if aweights is not None:
        aw = _arr(aweights, x).astype("float64")
        w = aw if w is None else w * aw
    if w is None:
        avg = x.mean(axis=1, keepdims=True)
        fact = x.shape[1] - ddof
        xc = x - avg
    else:
        wsum = w.sum()
        avg = (x * w).sum(axis=1, keepdims=True) / wsum
        if ddof == 0:
            fact = wsum
        elif aweights is None:
            fact = wsum - ddof
        else:
            fact = wsum - ddof * (w * _arr(aweights, x).astype("float64")).sum() / wsum
        xc = x - avg
    xw = xc if w is None else xc * w

    c = xw @ (conjugate(xc).T if xc._dtype_name.startswith("complex") else xc.T)
    c = c / fact
    return c.reshape(()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = c.diagonal().copy()
    sd = _ufuncs.sqrt(d.real if d._dtype_name.startswith("complex") else d)
    c = c / sd[:, None] / sd[None, :]
    if not c._dtype_name.startswith("complex"):
        c = _ufuncs.clip(c, -1, 1)
    return c


def array_equiv(a1, a2):
    a, b = _arr(a1), _arr(a2)
    try:
        _np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return False
    return bool((a == b).all())


def sort_complex(a):
    a = _arr(a)
    r = sort(a)
    if r._dtype_name.startswith("complex"):
        return r
    return r.astype("complex64" if r._dtype_name in ("float32", "float16", "int8", "uint8", "int16", "uint16",
                                                        "bool") else "complex128")


def matvec(x1, x2):
    return matmul(_arr(x1), _arr(x2)[..., None])[..., 0]


def vecmat(x1, x2):
    a = _arr(x1)
    a = conjugate(a) if a._dtype_name.startswith("complex") else a
    return matmul(a[..., None, :], _arr(x2))[..., 0, :]


# ---- polynomials (NumPy's legacy numpy.poly* functions; highest power first) --------------------
def polyval(p, x):
    pa = _arr(p)
    xa = _arr(x, pa)
    y = xa * 0 + (pa[0] if pa.shape[0] else 0)
    for i in range(1, pa.shape[0]):
        y = y * xa + pa[i]
    return y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least squares through tegula.numpy.linalg.lstsq on the scaled Vandermonde matrix (as NumPy's)."""
    deg = int(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    xa = _arr(x).astype("float64")
    ya = _arr(y, xa).astype("float64")
    if xa.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if xa.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if ya.ndim not in (1, 2):
        raise TypeError("expected 1D or 2D array for y")
    if xa.shape[0] != ya.shape[0]:
        raise TypeError("expected x and y to have same length")
    lhs = vander(xa, deg + 1)
    rhs = ya
    if w is not None:
        wa = _arr(w, xa).astype("float64")
        lhs = lhs * wa[:, None]
        rhs = rhs * (wa if rhs.ndim == 1 else wa[:, None])
    if rcond is None:
        rcond = xa.shape[0] * _np.finfo(_np.float64).eps
    from . import linalg  # a submodule, loaded at first use (tegula.numpy's import does not load it)

    scale = _ufuncs.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, sv = linalg.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    order = deg + 1
    if rank != order and not full:
        import warnings

        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, sv, rcond
    if not cov:
        return c
    base = linalg.inv(lhs.T @ lhs) / outer(scale, scale)
    if cov == "unscaled":
        fac = 1.0
    else:
        if xa.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (xa.shape[0] - order)
    return c, (base * fac if ya.ndim == 1 else base[:, :, None] * fac)


def poly(seq_of_zeros):
    a = _arr(seq_of_zeros)
    if a.ndim == 2 and a.shape[0] == a.shape[1] and a.shape[0] != 0:
        from . import linalg

        a = linalg.eigvals(a) if hasattr(linalg, "eigvals") else None
        if a is None:
            raise NotImplementedError("poly of a matrix needs eigvals")
    elif a.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    _on_the_host("poly")
    z = _np.asarray(a.get() if isinstance(a, _core.ndarray) else a)
    c = _np.ones(1, dtype=z.dtype if z.dtype.kind == "c" else _np.float64)
    for r in z:
        c = _np.convolve(c, _np.array([1, -r], dtype=c.dtype), mode="full")
    if c.dtype.kind == "c" and _np.all(_np.sort(z[z.imag > 0]) == _np.sort(_np.conjugate(z[z.imag < 0]))):
        c = c.real.copy()
    return _arr(c, a)


def _on_the_host(name):
    """Says once per function that it runs on the host through NumPy (tegula has no GPU path for it)."""
    if name not in _HOST_SAID:
        import warnings

        from tegula.tile import PerformanceWarning

        _HOST_SAID.add(name)
        warnings.warn(f"tegula.numpy.{name} runs on the host through NumPy (a small dense eigenproblem or loop with "
                      "no GPU path here); the result is copied back", PerformanceWarning, stacklevel=3)


_HOST_SAID = set()


def roots(p):
    """The roots of p: the eigenvalues of its companion matrix, found on the host by NumPy (said once)."""
    pa = _arr(p)
    if pa.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    _on_the_host("roots")
    return _arr(_np.roots(pa.get()), pa)


def _poly_pad(a, b):
    a, b = _arr(a), _arr(b)
    a, b = _arr(_np.atleast_1d(a.get()) if a.ndim == 0 else a), _arr(_np.atleast_1d(b.get()) if b.ndim == 0 else b)
    n = max(a.shape[0], b.shape[0])
    pad = lambda v: concatenate([zeros((n - v.shape[0],), v._dtype_name, device=_core.device_of(v)), v]) \
        if v.shape[0] < n else v  # noqa: E731
    return pad(a), pad(b)


def polyadd(a1, a2):
    a, b = _poly_pad(a1, a2)
    return a + b


def polysub(a1, a2):
    a, b = _poly_pad(a1, a2)
    return a - b


def polymul(a1, a2):
    return convolve(_arr(a1), _arr(a2))


def polydiv(u, v):
    """(quotient, remainder) of the polynomial division u / v, as NumPy's (floats; the remainder's leading
    near-zero coefficients dropped)."""
    ua, va = _arr(u), _arr(v)
    dt = "complex128" if ua._dtype_name.startswith("complex") or va._dtype_name.startswith("complex") else "float64"
    w = ua.astype(dt).reshape(-1)
    d = va.astype(dt).reshape(-1)
    m, n = w.shape[0] - 1, d.shape[0] - 1
    scale = 1.0 / d[0]
    q = zeros((max(m - n + 1, 1),), dt, device=_core.device_of(w))
    r = w.copy()
    for k in range(0, m - n + 1):
        c = scale * r[k]
        q[k] = c
        r[k:k + n + 1] = r[k:k + n + 1] - c * d
    while r.shape[0] > 1 and bool(allclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    return q, r


def polyder(p, m=1):
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    pa = _arr(p)
    for _ in range(m):
        n = pa.shape[0] - 1
        if n <= 0:
            return pa[:0] * 0 if n < 0 else (pa[:1] * 0)
        pa = pa[:-1] * arange(n, 0, -1, dtype="float64" if not pa._dtype_name.startswith(("int", "uint")) else
                               pa._dtype_name, device=_core.device_of(pa))
    return pa


def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = _np.zeros(m) if k is None else _np.atleast_1d(_np.asarray(k, dtype=_np.float64))
    if ks.shape[0] == 1 and m > 1:
        ks = _np.full(m, ks[0])
    if ks.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    pa = _arr(p).astype("float64")
    for i in range(m):
        n = pa.shape[0]
        pa = concatenate([pa / arange(n, 0, -1, dtype="float64", device=_core.device_of(pa)),
                          _arr(_np.array([ks[i]]), pa)])
    return pa


__all__ = ["bitwise_count", "spacing", "cbrt", "gcd", "lcm", "divmod", "modf", "frexp", "ldexp", "heaviside", "sinc", "i0", "isposinf",
           "isneginf", "ptp", "nancumsum", "nancumprod", "ediff1d", "gradient", "trapezoid", "interp", "unwrap",
           "average", "cov", "corrcoef", "array_equiv", "sort_complex", "matvec", "vecmat", "polyval", "polyfit",
           "poly", "roots", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint"]
