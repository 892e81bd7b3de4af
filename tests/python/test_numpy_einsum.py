"""einsum against numpy.einsum: explicit and implicit outputs, ellipses, diagonals, chains of contractions,
outer and elementwise products, and NumPy's errors."""
import numpy as np
import pytest

import tegula.numpy as tnp

RNG = np.random.default_rng(2)
A, B, C = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 5)), RNG.standard_normal((5, 3))
V, S = RNG.standard_normal(4), RNG.standard_normal((4, 4))
T, U = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 4, 5))

CASES = [("ij,jk->ik", A, B), ("ij,jk", A, B), ("ij,jk,kl->il", A, B, C), ("ii->i", S), ("ii", S), ("ij->ji", A),
         ("ij->", A), ("i,i->", V, V), ("i,j->ij", V, V), ("bij,bjk->bik", T, U), ("...ij,...jk->...ik", T, U),
         ("ij,j->i", A, V), ("ijk->kji", T), ("bij->bj", T), ("ij,ij->ij", A, A), ("ij,kj->ik", A, A),
         ("i...->...", T), ("ji,jk->ik", S, B), ("bij,jk->bik", T, RNG.standard_normal((4, 2))), ("ijk,ijk->", T, T)]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_einsum(case):
    sub, *ops = case
    got = tnp.einsum(sub, *[tnp.asarray(o) for o in ops])
    want = np.einsum(sub, *ops)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12)


def test_errors():
    with pytest.raises(ValueError, match="more operands"):
        tnp.einsum("ij->i", tnp.asarray(A), tnp.asarray(B))
    with pytest.raises(ValueError, match="never appeared"):
        tnp.einsum("ij->k", tnp.asarray(A))
    with pytest.raises(ValueError, match="too many subscripts"):
        tnp.einsum("ijk", tnp.asarray(A))
