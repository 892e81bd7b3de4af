"""tegula.torch on the CPU: a tile kernel registered as a torch operator (custom_op with its fake implementation)
gives the same result eagerly and under torch.compile, and CPU tensors run on the interpreter with a warning.
Skipped without PyTorch; tests/gpu/test_gpu_torch.py runs the CUDA side (streams, inductor)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch to run these)")

import tegula.torch as ttorch  # noqa: E402
from tile_kernels import softmax as row_softmax  # noqa: E402


@ttorch.custom_op("tegula_test::softmax", fake=lambda x: torch.empty_like(x))
def softmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    ttorch.launch(row_softmax, (x.shape[0],), (x, out, x.shape[1]))
    return out


def test_custom_op_eager_and_compiled():
    x = torch.randn(16, 64)
    with pytest.warns(RuntimeWarning, match="CPU interpreter") if not ttorch._SAID_CPU else _nothing():
        eager = softmax(x)
    np.testing.assert_allclose(eager.numpy(), torch.softmax(x, dim=1).numpy(), rtol=1e-5, atol=1e-6)

    def f(t):
        return softmax(t * 2) + 1

    compiled = torch.compile(f, backend="aot_eager", fullgraph=True)
    np.testing.assert_allclose(compiled(x).numpy(), f(x).numpy(), rtol=1e-6)
    assert torch.ops.tegula_test.softmax.default is not None


def test_fake_is_required_for_ops_returning_tensors():
    with pytest.raises(ValueError, match="fake="):
        @ttorch.custom_op("tegula_test::nofake")
        def nofake(x: torch.Tensor) -> torch.Tensor:
            return x
    with pytest.raises(ValueError, match="namespace::op"):
        ttorch.custom_op("bad", lambda x: x, fake=lambda x: x)

    @ttorch.custom_op("tegula_test::inplace", mutates_args=("out",))
    def double_into(x: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(x * 2)

    o = torch.empty(3)
    double_into(torch.ones(3), o)
    assert o.tolist() == [2.0, 2.0, 2.0]


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False
