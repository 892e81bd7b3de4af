"""tegula.torch on the GPU: a tile kernel as a torch operator under torch.compile (inductor) equals eager; tile
launches given torch tensors and no stream run on torch's current stream (a side stream's pending matmul is
waited for); tegula arrays and torch tensors share memory."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
if not torch.cuda.is_available():
    pytest.skip("torch has no CUDA device", allow_module_level=True)

import tegula.numpy as tnp  # noqa: E402
import tegula.tile as tt  # noqa: E402
import tegula.torch as ttorch  # noqa: E402
from tile_kernels import softmax as row_softmax  # noqa: E402


@tt.kernel
def scale(x, out, T: tt.Constant[int]):
    b = tt.bid(0)
    tt.store(out, index=(b,), tile=tt.load(x, index=(b,), shape=(T,)) * 2.0)


@ttorch.custom_op("tegula_gpu_test::softmax", fake=lambda x: torch.empty_like(x))
def softmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    ttorch.launch(row_softmax, (x.shape[0],), (x, out, x.shape[1]))
    return out


def test_custom_op_under_torch_compile():
    x = torch.randn(512, 1024, device="cuda")

    def f(t):
        return softmax(t * 3) * 2 + 1

    eager = f(x)
    compiled = torch.compile(f, fullgraph=True)(x)
    torch.testing.assert_close(compiled, eager)
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=1))


def test_launch_follows_torchs_current_stream():
    side = torch.cuda.Stream()
    a = torch.randn(4096, 4096, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        prod = (a @ a).reshape(-1)[: 1 << 20].contiguous()  # queued on the side stream, takes a while
        out = torch.empty_like(prod)
        tt.launch(scale, grid=((1 << 20) // 1024,), args=(prod, out, 1024))  # no stream: torch's current one
        done = out.clone()
    side.synchronize()
    torch.testing.assert_close(done, prod * 2)


def test_zero_copy_both_ways():
    t = torch.arange(1000, dtype=torch.float32, device="cuda")
    a = tnp.asarray(t)
    a[:10] = -1.0
    tnp.synchronize()
    assert t[:10].tolist() == [-1.0] * 10
    back = torch.as_tensor(a, device="cuda")
    assert back.data_ptr() == t.data_ptr()
    np.testing.assert_array_equal(back.cpu().numpy(), t.cpu().numpy())


def test_bfloat16_and_unsupported_tensors():
    """torch publishes bfloat16 through __cuda_array_interface__ as raw 2-byte items: tnp.asarray still sees
    bfloat16 (zero-copy); a dtype tegula.numpy lacks (float8) is a clear TypeError."""
    t = torch.randn(64, 32, device="cuda").to(torch.bfloat16)
    a = tnp.asarray(t)
    assert a._dtype_name == "bfloat16" and a.shape == (64, 32)
    np.testing.assert_array_equal(a.astype("float32").get(), t.float().cpu().numpy())
    f8 = torch.zeros(8, device="cuda").to(torch.float8_e4m3fn)
    with pytest.raises(TypeError, match="float8_e4m3fn"):
        tnp.asarray(f8)
