"""Functions given a tegula array and host data (a list, a NumPy array) put the host data on the tegula
array's device, not on the default device. On a GPU machine the cpu cases catch host data sent to the GPU
(which fails with "arrays on different devices")."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import device, t  # noqa: F401

X = [3.0, -1.0, 2.0, 5.0]


def _same(got, want, device):
    got = got if isinstance(got, (list, tuple)) else [got]
    want = want if isinstance(want, (list, tuple)) else [want]
    for g, w in zip(got, want):
        assert g.device == tnp.asarray(0, device=device).device
        np.testing.assert_allclose(g.get(), w, rtol=1e-12)


CASES = {
    "compress": lambda m, a: m.compress([True, False, True, True], a),
    "extract": lambda m, a: m.extract([1, 0, 0, 1], a),
    "stack": lambda m, a: m.stack([[1.0, 2.0, 3.0, 4.0], a]),
    "concatenate": lambda m, a: m.concatenate([[7.0], a]),
    "broadcast_arrays": lambda m, a: m.broadcast_arrays([[1.0], [2.0]], a),
    "isin": lambda m, a: m.isin([2.0, 4.0, 5.0], a),
    "lexsort": lambda m, a: m.lexsort([[1, 0, 1, 0], a]),
    "logn": lambda m, a: m.emath.logn(2, a),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_host_data_joins_the_arrays_device(name, device):
    f = CASES[name]
    with np.errstate(all="ignore"):
        want = f(np, np.array(X))
    _same(f(tnp, t(X, device)), want, device)


def test_numpy_scalars_go_to_the_array_operands_device(monkeypatch):
    """A NumPy scalar (or a host condition) next to a tegula array is made on that array's device, not on the default
    one: the GPU suites found where(np.False_, x, np.True_) and spacing (nextafter(m, np.float16(0))) building it on
    the CPU next to GPU arrays. Here the mirror: arrays on the CPU while the default device claims a GPU (none here,
    so a scalar made there would fail)."""
    from tegula.numpy import _core

    x = tnp.asarray(np.array([False, True]), device="cpu")
    h = tnp.asarray(np.array([0.0, -0.0, 1.0, -2.5], dtype=np.float16), device="cpu")
    monkeypatch.setattr(_core, "_DEFAULT", 0)
    np.testing.assert_array_equal(tnp.where(np.False_, x, np.True_).get(),
                                  np.where(np.False_, np.array([False, True]), np.True_))
    np.testing.assert_array_equal(tnp.where([True, False], x, np.True_).get(),
                                  np.where([True, False], np.array([False, True]), np.True_))
    np.testing.assert_array_equal(tnp.spacing(h).get(), np.spacing(h.get()))
    np.testing.assert_array_equal(tnp.nextafter(h, np.float16(0)).get(), np.nextafter(h.get(), np.float16(0)))
    assert tnp.arctan2(h, np.float32(2)).device == h.device
