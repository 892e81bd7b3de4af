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
