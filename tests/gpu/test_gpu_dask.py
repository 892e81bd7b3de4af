"""dask.array over tegula chunks on the GPU (issue #10): the cases of tests/python/test_dask.py with every chunk on
the GPU (skipped where dask is not installed)."""
import os
import sys

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import test_dask as T  # noqa: E402

import tegula.dask as tdask  # noqa: E402
import tegula.numpy as tnp  # noqa: E402


def test_dask_reduction_and_matmul_on_the_gpu():
    d = tdask.from_array(T.H, chunks=(64, 50), device="cuda")
    assert tnp.asnumpy(d.sum().compute()) == pytest.approx(T.H.sum())
    got = (d @ d.T).compute()
    assert got.device == tnp.Device("cuda", 0)
    np.testing.assert_allclose(tnp.asnumpy(got), T.H @ T.H.T, rtol=1e-9)
    T.check(d, T.H)
