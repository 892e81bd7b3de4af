"""Reductions of complex arrays the array engine has no complex form of: prod and cumprod (pairwise products and a
doubling scan of element-wise complex multiplies, log2(n) fused steps each), and max/min/argmax/argmin with their
nan* forms (NumPy's lexicographic order: real part, then imaginary part; a value with a NaN part propagates, as
the first one met). The multiplication order differs from NumPy's sequential loop, so products can differ by a
few ulp."""
from __future__ import annotations

import math

import numpy as _np

from . import _core
from ._common import _arr
from ._scan import scan_by_doubling
from . import _ufuncs
from ._creation import ones
from ._manipulation import concatenate, moveaxis
from ._selection import take_along_axis


def _to_last(a, axis):
    """a with the reduced axes moved last and merged into one: (array of shape rest + (n,), rest shape, the
    normalised axes). axis None reduces everything."""
    nd = a.ndim
    axes = list(range(nd)) if axis is None else ([axis] if isinstance(axis, (int, _np.integer)) else list(axis))
    norm = []
    for ax in axes:
        if not -nd <= ax < nd:
            raise _core._tegula.AxisError(f"axis {ax} is out of bounds for array of dimension {nd}")
        norm.append(ax % nd)
    if len(set(norm)) != len(norm):
        raise ValueError("duplicate value in 'axis'")
    moved = moveaxis(a, norm, list(range(nd - len(norm), nd))) if norm else a
    rest = moved.shape[:nd - len(norm)]
    return moved.reshape(rest + (math.prod(moved.shape[nd - len(norm):]),)), rest, sorted(norm)


def _keep(r, a_shape, axes, keepdims):
    if not keepdims:
        return r
    shape = tuple(1 if k in axes else s for k, s in enumerate(a_shape))
    return r.reshape(shape)


def _is_nan(z):
    return _ufuncs.isnan(z.real) | _ufuncs.isnan(z.imag)


def prod(a, axis=None, keepdims=False, initial=None, where=True):
    a = _arr(a)
    if where is not True:
        a = _ufuncs.where(_arr(where, a), a, 1)
    x, rest, axes = _to_last(a, axis)
    n = x.shape[-1]
    if n == 0:
        r = ones(rest, a._dtype_name, device=_core.device_of(a))
    else:
        while n > 1:  # multiply neighbours pairwise until one column is left
            if n % 2:
                x = concatenate([x, ones(rest + (1,), a._dtype_name, device=_core.device_of(a))], axis=-1)
                n += 1
            x = _core.settled(x[..., 0::2] * x[..., 1::2])
            n //= 2
        r = x[..., 0] * 1  # NumPy's reduction starts from the identity 1+0j: prod([inf+0.5j]) is inf+nanj
    if initial is not None:
        r = r * initial
    return _keep(r, a.shape, axes, keepdims)


def cumprod(a, axis=None):
    """Inclusive products along axis (flattened for None) by doubling: step d multiplies each element by the
    running product d places before it."""
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    elif a.ndim == 0:  # NumPy ravels a 0-d array before its scan too
        a = a.reshape(1)
    return scan_by_doubling(a, axis, lambda later, earlier: later * earlier)


def argextreme(a, axis, want_max, skip_nan=False):
    """The index of the first lexicographic maximum (minimum) along one axis (flattened for None). A value with a
    NaN part wins at once (NumPy), unless skip_nan: then NaN values never win and an all-NaN slice gives 0."""
    a = _arr(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    if not -a.ndim <= axis < a.ndim:
        raise _core._tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    re, im = a.real, a.imag
    nan = _is_nan(a)
    worst = -_np.inf if want_max else _np.inf
    re_ok = _ufuncs.where(nan, worst, re)
    best_re = re_ok._reduce("max" if want_max else "min", axis, True)  # real, no NaN: the engine's
    cand = (re_ok == best_re) & ~nan
    im_ok = _ufuncs.where(cand, im, worst)
    best_im = im_ok._reduce("max" if want_max else "min", axis, True)
    sel = cand & (im_ok == best_im)
    idx = sel._reduce("argmax", axis, False)
    if skip_nan:
        return idx
    return _ufuncs.where(nan.any(axis=axis), nan._reduce("argmax", axis, False), idx)


def extreme(a, axis, keepdims, want_max, skip_nan=False, initial=None, where=True):
    """max/min (nanmax/nanmin with skip_nan: NaN values skipped) of a complex array."""
    a = _arr(a)
    if where is not True or initial is not None:
        raise NotImplementedError("max/min of complex arrays with where= or initial= is not supported yet")
    x, rest, axes = _to_last(a, axis)
    if x.shape[-1] == 0:
        raise ValueError(f"zero-size array to reduction operation {'maximum' if want_max else 'minimum'} which has "
                         "no identity")
    idx = argextreme(x, -1, want_max, skip_nan)
    r = take_along_axis(x, idx[..., None], axis=-1)[..., 0]
    if skip_nan:  # an all-NaN slice gives its first value, as NumPy's fmax/fmin reduction does
        r = _ufuncs.where(_is_nan(x).all(axis=-1), x[..., 0], r)
    return _keep(r, a.shape, axes, keepdims)


__all__ = []
