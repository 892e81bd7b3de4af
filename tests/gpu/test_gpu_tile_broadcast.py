"""Broadcasts of bool and int tiles between thread layouts ((TR, 1) & (1, TC)) and the indexing kernel at
wide tiles: the GPU against the interpreter.

History: with few rows and wide columns (TR x TC = 8 x 128, 16 x 64, 4 x 256) the GPU once had garbage in the
columns >= TR. The generated source is right (a CPU run of it with threads as std::threads agrees with the
interpreter) and `-Xptxas -O0` fixed it on the H200: ptxas -O3 miscompiled a pattern where threads read
register slots they never wrote (unowned groups). Those slots are now zero-initialised, and these cases pass."""
import numpy as np
import pytest

import tegula.tile as tt
from tegula.numpy import _index_kernels as K

torch = pytest.importorskip("torch")


@tt.kernel
def mask2d(out, n: tt.int64, m: tt.int64, TR: tt.Constant[int], TC: tt.Constant[int]):
    rows = tt.arange(TR).astype(tt.int64)
    cols = tt.arange(TC).astype(tt.int64)
    ok = tt.broadcast_to(tt.expand_dims(rows < n, 1), (TR, TC)) & tt.broadcast_to(tt.expand_dims(cols < m, 0), (TR, TC))
    v = tt.broadcast_to(tt.expand_dims(rows, 1), (TR, TC)) * 1000 + tt.broadcast_to(tt.expand_dims(cols, 0), (TR, TC))
    tt.store(out, index=(0, 0), tile=tt.where(ok, v, -1))


@pytest.mark.parametrize("tr,tc", [(8, 128), (16, 64), (4, 256), (64, 16), (1, 1024), (32, 32)])
def test_bool_broadcast_and(tr, tc):
    ref = np.zeros((tr, tc), np.int64)
    tt.launch(mask2d, grid=1, args=(ref, tr - 3, tc - 5, tr, tc), interpret=True)
    out = torch.full((tr, tc), 7, dtype=torch.int64, device="cuda")
    tt.launch(mask2d, grid=1, args=(out, tr - 3, tc - 5, tr, tc))
    np.testing.assert_array_equal(out.cpu().numpy(), ref)


@pytest.mark.parametrize("tr,tc", [(8, 128), (16, 64), (64, 16)])
def test_indexed_gather_wide_tiles(tr, tc):
    rng = np.random.default_rng()
    base = rng.standard_normal(5000).astype(np.float32)
    idx = rng.integers(0, 40, 37).astype(np.int64) * 100
    R, Q = 37, 300
    ref = np.full((R, Q), np.nan, np.float32)
    args = lambda b, i, v: (b, i, i, i, v, 0, 1, -(-Q // tc), tr, tc, False, False, False)  # noqa: E731
    grid = -(-R // tr) * -(-Q // tc)
    tt.launch(K.indexed, grid=grid, args=args(base, idx, ref), interpret=True)
    np.testing.assert_array_equal(ref, base[idx[:, None] + np.arange(Q)[None, :]])
    bt, it = torch.as_tensor(base, device="cuda"), torch.as_tensor(idx, device="cuda")
    out = torch.full((R, Q), float("nan"), device="cuda")
    tt.launch(K.indexed, grid=grid, args=args(bt, it, out))
    np.testing.assert_array_equal(out.cpu().numpy(), ref)
