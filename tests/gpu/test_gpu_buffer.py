"""Buffers: pool allocation, host and device copies, fill, close, borrowing, DLPack and CAI export."""
import numpy as np
import pytest

import tegula.core as tc
from gpu_util import from_gpu, spin


def test_round_trip_of_random_bytes(stream, rng):
    data = rng.integers(0, 256, size=(64 << 20) + 13, dtype=np.uint8)
    buf = tc.Buffer.from_host(data, stream=stream)
    assert buf.size == data.nbytes and buf.owned and not buf.closed
    assert np.array_equal(from_gpu(buf, np.uint8, data.size, stream), data)
    assert buf.copy_to_host(stream=stream) == data.tobytes()


def test_device_copies_fill_and_offsets(stream, rng):
    x = rng.standard_normal(1 << 20).astype(np.float32)
    a = tc.Buffer.from_host(x, stream=stream)
    b = tc.Buffer.allocate(a.size, stream=stream)
    b.fill(0xAB, stream=stream)
    assert (from_gpu(b, np.uint8, b.size, stream) == 0xAB).all()
    b.copy_from(a, stream=stream)
    assert np.array_equal(from_gpu(b, np.float32, x.size, stream), x)
    c = tc.Buffer.allocate(a.size, stream=stream)
    a.copy_to(c, stream=stream)
    assert np.array_equal(from_gpu(c, np.float32, x.size, stream), x)
    b.copy_from_host(np.full(4, 9, dtype=np.uint8), stream=stream, offset=8)
    got = from_gpu(b, np.uint8, 16, stream)
    assert list(got[8:12]) == [9, 9, 9, 9]


def test_bad_buffer_use(stream):
    a = tc.Buffer.allocate(64, stream=stream)
    with pytest.raises(ValueError, match="sizes differ"):
        a.copy_from(tc.Buffer.allocate(32, stream=stream), stream=stream)
    with pytest.raises(ValueError, match="do not fit"):
        a.copy_from_host(np.zeros(65, np.uint8), stream=stream)
    with pytest.raises(ValueError, match="do not fit"):
        a.copy_from_host(np.zeros(8, np.uint8), stream=stream, offset=60)
    with pytest.raises(ValueError, match="byte"):
        a.fill(256, stream=stream)
    with pytest.raises(TypeError, match="host buffer"):
        a.copy_from_host([1, 2, 3], stream=stream)
    with pytest.raises(TypeError, match="writable"):
        a.copy_to_host(b"immutable", stream=stream)
    a.close()
    assert a.closed and a.handle == 0 and "closed" in repr(a)
    with pytest.raises(ValueError, match="closed"):
        a.copy_to_host(stream=stream)
    a.close()  # closing twice is harmless


def test_zero_size_and_borrowed(stream, dev):
    z = tc.Buffer.allocate(0, stream=stream)
    assert z.size == 0 and z.copy_to_host(stream=stream) == b""
    owner = tc.Buffer.allocate(256, stream=stream)
    view = tc.Buffer.from_pointer(owner.handle + 128, 128, owner=owner)
    assert not view.owned and view.size == 128 and view.device == dev
    view.fill(3, stream=stream)
    got = from_gpu(owner, np.uint8, 256, stream)
    assert (got[128:] == 3).all()


def test_pool_reuses_memory(dev, stream):
    used0, _ = dev.pool_info()
    bufs = [tc.Buffer.allocate(1 << 24, stream=stream) for _ in range(4)]
    used1, reserved1 = dev.pool_info()
    assert used1 - used0 >= 4 << 24 and reserved1 >= used1
    del bufs
    stream.sync()
    assert dev.pool_info()[0] <= used0 + (1 << 20)


def test_out_of_memory_raises_memory_error_and_recovers(dev, stream):
    held = []
    with pytest.raises(MemoryError, match="out of GPU memory"):
        for _ in range(64):  # 64 x 16 GiB is far beyond any GPU
            held.append(tc.Buffer.allocate(16 << 30, stream=stream))
    assert len(held) >= 1
    held.clear()
    stream.sync()
    dev.trim_pool(0)
    b = tc.Buffer.allocate(1 << 20, stream=stream)  # the next allocation works
    b.fill(1, stream=stream)
    assert (from_gpu(b, np.uint8, 16, stream) == 1).all()


def test_out_of_memory_in_arrays_then_kernels_still_run():
    """tegula.numpy: an allocation far beyond the GPU raises MemoryError (after the pool's cached blocks were freed
    and the allocation retried); a fused kernel and a tile kernel run right after."""
    import tegula.numpy as tnp
    import tegula.tile as tt

    x = tnp.asarray(np.arange(1 << 20, dtype=np.float32), device="cuda")
    y = (x * 2 + 1).sum()  # leave cached blocks in the pool
    float(y)
    with pytest.raises(MemoryError, match="out of GPU memory"):
        tnp.empty((1 << 40,), dtype="float32", device="cuda")._materialize()
    assert float((x * 2 + 1).sum()) == float(y)

    @tt.kernel
    def twice(a, out, T: tt.Constant[int]):
        b = tt.bid(0)
        tt.store(out, index=(b,), tile=tt.load(a, index=(b,), shape=(T,)) * 2.0)

    out = tnp.empty_like(x)
    tt.launch(twice, grid=((1 << 20) // 1024,), args=(x, out, 1024))
    np.testing.assert_array_equal(out.get(), np.arange(1 << 20, dtype=np.float32) * 2)


def test_cuda_array_interface(stream):
    b = tc.Buffer.allocate(100, stream=stream)
    cai = b.__cuda_array_interface__
    assert cai["shape"] == (100,) and cai["typestr"] == "|u1" and cai["data"] == (b.handle, False)
    assert cai["version"] == 3 and cai["stream"] == stream.handle


def test_dlpack_export_to_torch_and_cupy(stream, rng):
    data = rng.integers(0, 256, size=4096, dtype=np.uint8)
    b = tc.Buffer.from_host(data, stream=stream)
    assert b.__dlpack_device__() == (2, 0)
    torch = pytest.importorskip("torch")
    t = torch.from_dlpack(b)
    assert t.dtype == torch.uint8 and t.shape == (4096,) and t.data_ptr() == b.handle
    assert np.array_equal(t.cpu().numpy(), data)
    cupy = pytest.importorskip("cupy")
    c = cupy.from_dlpack(b)
    assert int(c.data.ptr) == b.handle and np.array_equal(cupy.asnumpy(c), data)
    del t, c  # the consumers' deleters run; the buffer stays valid
    assert b.copy_to_host(stream=stream) == data.tobytes()
    with pytest.raises(ValueError, match="stream=0"):
        b.__dlpack__(stream=0)


def test_small_uploads_do_not_wait_for_the_stream(stream, rng):
    # Uploads of at most 64 KiB go through pinned slots: queued behind a ~100 ms kernel, they return
    # while it still runs, the source may change at once, and 100 of them (more than the 32 slots)
    # each land where they should, in stream order.
    spin(stream, 200_000_000)
    sizes = [int(n) for n in rng.integers(1, 64 << 10, size=100)] + [64 << 10]
    datas = [rng.integers(0, 256, size=n, dtype=np.uint8) for n in sizes]
    bufs = []
    for d in datas:
        src = d.copy()
        bufs.append(tc.Buffer.from_host(src, stream=stream))
        src[:] = 0  # the source changes right after the call: the upload already holds its bytes
        if len(bufs) == 3:
            assert not stream.is_done, "a small upload waited for the kernel queued before it"
    b = tc.Buffer.allocate(16, stream=stream)
    src = np.arange(16, dtype=np.uint8)
    b.copy_from_host(src, stream=stream)
    src[:] = 99
    for buf, d in zip(bufs, datas):
        assert np.array_equal(from_gpu(buf, np.uint8, d.size, stream), d)
    assert list(from_gpu(b, np.uint8, 16, stream)) == list(range(16))


def test_uploads_larger_than_a_slot_wait_and_arrive(stream, rng):
    spin(stream, 20_000_000)
    data = rng.integers(0, 256, size=(64 << 10) + 1, dtype=np.uint8)
    buf = tc.Buffer.from_host(data, stream=stream)
    assert stream.is_done  # the pageable path waits for the stream before returning
    assert np.array_equal(from_gpu(buf, np.uint8, data.size, stream), data)
