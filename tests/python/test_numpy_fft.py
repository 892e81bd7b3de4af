"""tegula.numpy.fft against numpy.fft: every function, norm and n (padding and truncation), axes, NumPy 2's
single-precision rule, and the errors (CPU interpreter arrays: NumPy on the host; tests/gpu checks cuFFT)."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error

RNG = np.random.default_rng(8)
X = RNG.standard_normal((6, 10)) + 1j * RNG.standard_normal((6, 10))
XR = RNG.standard_normal((5, 12))


@pytest.mark.parametrize("f", ["fft", "ifft"])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("n,axis", [(None, -1), (7, 0), (13, 1)])
def test_complex_transforms(f, norm, n, axis):
    got = getattr(tnp.fft, f)(tnp.asarray(X), n=n, axis=axis, norm=norm)
    np.testing.assert_allclose(got.get(), getattr(np.fft, f)(X, n=n, axis=axis, norm=norm), atol=1e-12)


@pytest.mark.parametrize("dtype,cdtype", [("float32", "complex64"), ("float64", "complex128"), ("int16", "complex128")])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_real_transforms_and_dtypes(dtype, cdtype, norm):
    x = (XR * 10).astype(dtype)
    r = tnp.fft.rfft(tnp.asarray(x), norm=norm)
    assert r.dtype == cdtype and r.dtype == np.fft.rfft(x, norm=norm).dtype
    np.testing.assert_allclose(r.get(), np.fft.rfft(x, norm=norm), rtol=1e-5, atol=1e-4)
    back = tnp.fft.irfft(r, n=12, norm=norm)
    np.testing.assert_allclose(back.get(), np.fft.irfft(np.fft.rfft(x, norm=norm), n=12, norm=norm), rtol=1e-5, atol=1e-4)


def test_n_dimensional_and_helpers():
    t = tnp.asarray(X)
    np.testing.assert_allclose(tnp.fft.fftn(t).get(), np.fft.fftn(X), atol=1e-10)
    np.testing.assert_allclose(tnp.fft.ifft2(t, s=(4, 12)).get(), np.fft.ifft2(X, s=(4, 12)), atol=1e-12)
    np.testing.assert_allclose(tnp.fft.fft2(t, axes=(1, 0)).get(), np.fft.fft2(X, axes=(1, 0)), atol=1e-10)
    np.testing.assert_allclose(tnp.fft.rfftn(tnp.asarray(XR)).get(), np.fft.rfftn(XR), atol=1e-10)
    np.testing.assert_allclose(tnp.fft.irfftn(tnp.asarray(np.fft.rfftn(XR))).get(), XR, atol=1e-12)
    np.testing.assert_allclose(tnp.fft.rfft2(tnp.asarray(XR), norm="ortho").get(), np.fft.rfft2(XR, norm="ortho"), atol=1e-10)
    np.testing.assert_allclose(tnp.fft.hfft(tnp.asarray(X[0])).get(), np.fft.hfft(X[0]), atol=1e-10)
    np.testing.assert_allclose(tnp.fft.ihfft(tnp.asarray(XR[0])).get(), np.fft.ihfft(XR[0]), atol=1e-12)
    np.testing.assert_allclose(tnp.fft.fftfreq(9, 0.5).get(), np.fft.fftfreq(9, 0.5))
    np.testing.assert_allclose(tnp.fft.rfftfreq(10, 2.0).get(), np.fft.rfftfreq(10, 2.0))
    np.testing.assert_allclose(tnp.fft.fftshift(t).get(), np.fft.fftshift(X))
    np.testing.assert_allclose(tnp.fft.ifftshift(t, axes=1).get(), np.fft.ifftshift(X, axes=1))


def test_errors_as_numpy():
    t = tnp.asarray(X)
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        tnp.fft.fft(t, n=0)
    with pytest.raises(ValueError, match="Invalid norm value"):
        tnp.fft.fft(t, norm="sideways")
    with pytest.raises(tnp.AxisError):
        tnp.fft.fft(t, axis=2)
    with pytest.raises(TypeError, match="real input"):
        tnp.fft.rfft(t)
    with pytest.raises(ValueError, match="different lengths"):
        tnp.fft.fftn(t, s=(3,), axes=(0, 1))
    for call in (lambda m: m.fft.fftfreq(8.5), lambda m: m.fft.hfft(m.ones(4), n=3.0),
                 lambda m: m.fft.fft(m.ones(4), n=2.5), lambda m: m.fft.fftn(m.ones((4, 4)), s=(4.0, 4))):
        assert_same_error(call)


# ---- the GPU path on CPU arrays: cpp/tegula/libs/fft_arrays.cpp runs its direct-transform reference there ----
from tegula.numpy import fft as F  # noqa: E402


def test_gpu_path_with_cufft_emulated(monkeypatch, host_memory):
    # The cuFFT branch on CPU memory: the C++ entry point checks and packs as on a GPU, its host reference computes.
    monkeypatch.setattr(F, "_run", lambda x, kind, n, inv, ol, dt: F._cufft(x, kind, n, inv))
    for norm in (None, "ortho", "forward"):
        np.testing.assert_allclose(tnp.fft.fft(tnp.asarray(X), n=13, axis=0, norm=norm).get(),
                                   np.fft.fft(X, n=13, axis=0, norm=norm), atol=1e-12)
        np.testing.assert_allclose(tnp.fft.ifft(tnp.asarray(X), axis=1, norm=norm).get(),
                                   np.fft.ifft(X, axis=1, norm=norm), atol=1e-12)
        np.testing.assert_allclose(tnp.fft.rfft(tnp.asarray(XR), n=10, norm=norm).get(), np.fft.rfft(XR, n=10, norm=norm),
                                   atol=1e-12)
        np.testing.assert_allclose(tnp.fft.irfft(tnp.asarray(np.fft.rfft(XR)), n=12, norm=norm).get(),
                                   np.fft.irfft(np.fft.rfft(XR), n=12, norm=norm), atol=1e-12)


def test_fast_c2c_path_with_cufft_emulated(monkeypatch, host_memory):
    """fft/ifft of a C-contiguous complex array along its last axis at its own length skip the general path's views
    (tegula.numpy.fft._c2c_fast): same results, the input left alone, and only where no scale is due."""
    calls = []

    real = tnp._core._tegula.fft_last_axis

    def counting(*a, **k):
        calls.append(a[3])
        return real(*a, **k)

    monkeypatch.setattr(tnp._core._tegula, "fft_last_axis", counting, raising=False)
    monkeypatch.setattr(F, "_on_gpu", lambda a: True)
    monkeypatch.setattr(F, "_run", lambda x, kind, n, inv, ol, dt: F._cufft(x, kind, n, inv))
    x = (np.random.default_rng(3).standard_normal((6, 64)) + 1j).astype(np.complex64)
    a = tnp.asarray(x)
    np.testing.assert_allclose(tnp.fft.fft(a).get(), np.fft.fft(x), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(tnp.fft.ifft(a, norm="forward").get(), np.fft.ifft(x, norm="forward"), rtol=1e-5,
                               atol=1e-4)
    np.testing.assert_allclose(tnp.fft.ifft(a).get(), np.fft.ifft(x), rtol=1e-5, atol=1e-6)  # scaled: general path
    np.testing.assert_array_equal(a.get(), x)
    assert F._c2c_fast(a, None, -1, None, False, None) is not None
    assert F._c2c_fast(a, 32, -1, None, False, None) is None  # another length
    assert F._c2c_fast(a, None, 0, None, False, None) is None  # another axis
    assert F._c2c_fast(a.T, None, -1, None, False, None) is None  # not C-contiguous
    assert F._c2c_fast(a, None, -1, None, True, None) is None  # ifft's 1/n
    assert calls
