"""tegula.numpy.fft on the GPU through cuFFT against numpy.fft in float64."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(9)


@pytest.mark.parametrize("dtype,tol", [("complex64", 1e-5), ("complex128", 1e-12)])
@pytest.mark.parametrize("shape,axis,n", [((1 << 20,), -1, None), ((64, 1000), 1, None), ((300, 17), 0, 400),
                                          ((8, 9, 10), 1, 5)])
def test_c2c(dtype, tol, shape, axis, n):
    x = (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    g = tnp.asarray(x, device="cuda")
    for f in ("fft", "ifft"):
        got = getattr(tnp.fft, f)(g, n=n, axis=axis)
        assert got.dtype == dtype
        ref = getattr(np.fft, f)(x.astype(np.complex128), n=n, axis=axis)
        assert np.linalg.norm(got.get() - ref) / np.linalg.norm(ref) < tol


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-5), ("float64", 1e-12)])
def test_r2c_c2r_and_nd(dtype, tol):
    x = RNG.standard_normal((33, 250)).astype(dtype)
    g = tnp.asarray(x, device="cuda")
    r = tnp.fft.rfft(g, norm="ortho")
    ref = np.fft.rfft(x.astype(np.float64), norm="ortho")
    assert np.linalg.norm(r.get() - ref) / np.linalg.norm(ref) < tol
    back = tnp.fft.irfft(r, n=250, norm="ortho").get()
    assert np.abs(back - x).max() < 1e3 * tol
    f2 = tnp.fft.fft2(g).get()
    ref2 = np.fft.fft2(x.astype(np.float64))
    assert np.linalg.norm(f2 - ref2) / np.linalg.norm(ref2) < tol


@pytest.mark.parametrize("kind", ["fft", "ifft", "rfft", "irfft", "fft2", "irfftn"])
def test_inputs_are_left_alone(kind):
    """The transforms read their input in place where cuFFT preserves it (C2C, R2C) and copy it where cuFFT
    overwrites it (C2R): the caller's array never changes."""
    shape = (16, 4096)
    real = kind == "rfft"
    x = RNG.standard_normal(shape) if real else RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
    x = x.astype(np.float32 if real else np.complex64)
    g = tnp.asarray(x, device="cuda")
    getattr(tnp.fft, kind)(g).get()
    np.testing.assert_array_equal(g.get(), x)
