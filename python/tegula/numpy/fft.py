"""tegula.numpy.fft: NumPy's FFT functions over cuFFT on the GPU (plans cached per shape) and NumPy's pocketfft on
the host for arrays of the CPU interpreter. NumPy 2's dtype rule: float32/complex64 stay single precision, other
inputs compute in double precision. N-dimensional transforms run as one 1-D transform per axis."""
from __future__ import annotations

import math
import operator

import numpy as _np

from . import _core
from ._common import _arr
from ._creation import arange, zeros
from ._manipulation import concatenate, moveaxis, roll

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _scale(norm, n, inverse):
    """The factor NumPy applies: 1/n on the backward transform by default, 1/sqrt(n) both ways for ortho."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm in (None, "backward")) == inverse:
        return 1.0 / n
    return 1.0


def _complex_dtype(name):
    return "complex64" if name in ("float32", "complex64", "float16", "bfloat16") else "complex128"


def _real_dtype(name):
    return "float32" if name in ("float32", "complex64", "float16", "bfloat16") else "float64"


def _resize_last(x, n):
    """x with its last axis cut or zero-padded to n."""
    m = x.shape[-1]
    if n == m:
        return x
    if n < m:
        return x[..., :n]

    y = zeros(x.shape[:-1] + (n,), x._dtype_name, device=_core.device_of(x))
    y[..., :m] = x
    return y


def _axis(a, axis):
    if not -a.ndim <= axis < a.ndim:
        from ._core import _tegula

        raise _tegula.AxisError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return axis % a.ndim


def _run(x, kind, n, inverse, out_len, dtype_out):
    """One cuFFT call over the last axis of x (already the right dtype and length), or NumPy on the host."""
    if x._device_id < 0:
        h = x.get()
        r = (_np.fft.ifft(h, n, norm="forward") if inverse else _np.fft.fft(h, n, norm="backward")) if kind == "c2c" \
            else _np.fft.rfft(h, n, norm="backward") if kind == "r2c" else _np.fft.irfft(h, n, norm="forward")
        return _core.as_array(r.astype(dtype_out), -1)
    return _cufft(x, kind, n, inverse)


def _cufft(x, kind, n, inverse):
    """One cuFFT call over the last axis of x into a new array (cpp/tegula/libs/fft_arrays.hpp); a c2r input is the
    caller's own copy, which cuFFT may overwrite."""
    return _core._tegula.fft_last_axis(x, kind, n, inverse, overwrite_input=kind == "c2r")


def _into(r, out):
    """The result r, or out (the caller's array) holding it."""
    if out is None:
        return r
    out._assign(r)
    return out


def _c2c(a, n, axis, norm, inverse, out=None):
    _check_norm(norm)
    a = _arr(a)
    fast = _c2c_fast(a, n, axis, norm, inverse, out)
    if fast is not None:
        return fast
    ax = _axis(a, axis)
    n = a.shape[ax] if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    dt = _complex_dtype(a._dtype_name)
    x = _resize_last(moveaxis(a, ax, -1).astype(dt, copy=False), n)
    r = _run(x, "c2c", n, inverse, n, dt)
    s = _scale(norm, n, inverse)
    if s != 1.0:
        r = r * _np.dtype(_real_dtype(dt)).type(s)
    r = moveaxis(r, -1, ax)
    return _into(r, out)


def _on_gpu(a):
    return a._device_id >= 0


def _c2c_fast(a, n, axis, norm, inverse, out):
    """The common case without the general path's views and checks (each costs microseconds before cuFFT starts):
    a C-contiguous complex GPU array transformed along its last axis at its own length, with no scaling to apply."""
    if out is not None or not _on_gpu(a) or a._dtype_name not in ("complex64", "complex128") or a.ndim == 0:
        return None
    last = a.shape[-1]
    if (n is not None and n != last) or last < 1 or axis not in (-1, a.ndim - 1) or not a._c_contiguous:
        return None
    if (norm or "backward") != ("forward" if inverse else "backward"):
        return None  # a scale to apply: the general path
    return _core._tegula.fft_last_axis(a, "c2c", last, inverse)


def fft(a, n=None, axis=-1, norm=None, out=None):
    return _c2c(a, n, axis, norm, False, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return _c2c(a, n, axis, norm, True, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    _check_norm(norm)
    a = _arr(a)
    if a._dtype_name.startswith("complex"):
        raise TypeError("rfft takes real input; use fft for complex arrays")
    ax = _axis(a, axis)
    n = a.shape[ax] if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    rt = _real_dtype(a._dtype_name)
    x = _resize_last(moveaxis(a, ax, -1).astype(rt, copy=False), n)
    r = _run(x, "r2c", n, False, n // 2 + 1, _complex_dtype(rt))
    s = _scale(norm, n, False)
    if s != 1.0:
        r = r * _np.dtype(rt).type(s)
    r = moveaxis(r, -1, ax)
    return _into(r, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    _check_norm(norm)
    a = _arr(a)
    ax = _axis(a, axis)
    n = 2 * (a.shape[ax] - 1) if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    dt = _complex_dtype(a._dtype_name)
    x = _resize_last(moveaxis(a, ax, -1).astype(dt), n // 2 + 1)  # a copy: cuFFT overwrites a C2R input
    r = _run(x, "c2r", n, True, n, _real_dtype(dt))
    s = _scale(norm, n, True)
    if s != 1.0:
        r = r * _np.dtype(_real_dtype(dt)).type(s)
    r = moveaxis(r, -1, ax)
    return _into(r, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The FFT of a signal with Hermitian symmetry: irfft of the conjugate, scaled as NumPy does."""
    a = _arr(a)
    ax = _axis(a, axis)
    n = 2 * (a.shape[ax] - 1) if n is None else operator.index(n)
    swap = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
    _check_norm(norm)
    return irfft(a.conj(), n, axis, swap[norm], out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    swap = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
    _check_norm(norm)
    r = rfft(a, n, axis, swap[norm]).conj()
    return _into(r, out)


def _axes_sizes(a, s, axes):
    if axes is None:
        axes = list(range(a.ndim)) if s is None else list(range(a.ndim - len(s), a.ndim))
    axes = [_axis(a, x) for x in axes]
    if s is None:
        s = [a.shape[x] for x in axes]
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    return list(s), axes


def fftn(a, s=None, axes=None, norm=None, out=None):
    a = _arr(a)
    s, axes = _axes_sizes(a, s, axes)
    r = a
    for n, ax in zip(s, axes):
        r = fft(r, n, ax, norm)
    return _into(r, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    a = _arr(a)
    s, axes = _axes_sizes(a, s, axes)
    r = a
    for n, ax in zip(s, axes):
        r = ifft(r, n, ax, norm)
    return _into(r, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return ifftn(a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    a = _arr(a)
    s, axes = _axes_sizes(a, s, axes)
    r = rfft(a, s[-1], axes[-1], norm)
    for n, ax in zip(s[:-1], axes[:-1]):
        r = fft(r, n, ax, norm)
    return _into(r, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    a = _arr(a)
    if s is None:
        _, axes_ = _axes_sizes(a, None, axes)
        s = [a.shape[x] for x in axes_[:-1]] + [2 * (a.shape[axes_[-1]] - 1)]
        axes = axes_
    s, axes = _axes_sizes(a, s, axes)
    r = a
    for n, ax in zip(s[:-1], axes[:-1]):
        r = ifft(r, n, ax, norm)
    r = irfft(r, s[-1], axes[-1], norm)
    return _into(r, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return irfftn(a, s, axes, norm, out)


def fftfreq(n, d=1.0, *, device=None, dtype=None):
    if not isinstance(n, (int, _np.integer)):
        raise ValueError("n should be an integer")
    n = int(n)
    if n < 1:
        raise ValueError(f"n should be a positive integer, got {n}")
    pos = arange(0, (n - 1) // 2 + 1, dtype="int64", device=device)
    neg = arange(-(n // 2), 0, dtype="int64", device=device)
    r = concatenate([pos, neg]) * (1.0 / (n * d))
    return r.astype(dtype) if dtype is not None else r


def rfftfreq(n, d=1.0, *, device=None, dtype=None):
    if not isinstance(n, (int, _np.integer)):
        raise ValueError("n should be an integer")
    n = int(n)
    if n < 1:
        raise ValueError(f"n should be a positive integer, got {n}")
    r = arange(0, n // 2 + 1, dtype="int64", device=device) * (1.0 / (n * d))
    return r.astype(dtype) if dtype is not None else r


def fftshift(x, axes=None):
    x = _arr(x)
    axes = list(range(x.ndim)) if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return roll(x, [x.shape[a] // 2 for a in axes], axes)


def ifftshift(x, axes=None):
    x = _arr(x)
    axes = list(range(x.ndim)) if axes is None else ([axes] if isinstance(axes, int) else list(axes))
    return roll(x, [-(x.shape[a] // 2) for a in axes], axes)
