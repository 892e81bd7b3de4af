"""tegula.core.Communicator on the GPUs of this machine (NCCL, one process, one rank per GPU) against NumPy: every
collective and reduction, stream order with pending inputs, and the errors. With one GPU the group has one rank
(each collective is then a copy); the multi-rank test needs two GPUs or more."""
import numpy as np
import pytest

import tegula.core as tc
import tegula.numpy as tnp

RNG = np.random.default_rng(21)


def _gpu_count():
    try:
        return tc.device_count()
    except tc.DriverNotFoundError:
        return 0  # no driver: conftest skips every test here, with its reason


N_GPUS = _gpu_count()


@pytest.fixture(scope="module")
def comm():
    return tc.Communicator()


def _parts(comm, shape, dtype):
    xs = [(RNG.standard_normal(shape) * 10).astype(dtype) for _ in comm.devices]
    return xs, [tnp.asarray(x, device=f"cuda:{d}") for x, d in zip(xs, comm.devices)]


@pytest.mark.parametrize("op,ref", [("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_all_reduce(comm, op, ref, dtype):
    xs, parts = _parts(comm, (1000, 37), dtype)
    for r, d in zip(comm.all_reduce(parts, op=op), comm.devices):
        assert r._device_id == d and r._dtype_name == dtype
        np.testing.assert_allclose(r.get(), ref(np.stack(xs), axis=0), rtol=1e-5)


def test_gather_scatter_broadcast_avg(comm):
    xs, parts = _parts(comm, (comm.size * 64, 5), "float32")
    for g in comm.all_gather(parts):
        np.testing.assert_array_equal(g.get(), np.stack(xs))
    total = np.sum(np.stack(xs), axis=0)
    for rank, s in enumerate(comm.reduce_scatter(parts)):
        np.testing.assert_allclose(s.get(), total[rank * 64:(rank + 1) * 64], rtol=1e-5)
    for b in comm.broadcast(parts, root=comm.size - 1):
        np.testing.assert_array_equal(b.get(), xs[-1])
    for a in comm.all_reduce(parts, op="avg"):
        np.testing.assert_allclose(a.get(), total / comm.size, rtol=1e-5)


def test_pending_inputs_and_inputs_left_alone(comm):
    xs, parts = _parts(comm, (1 << 20,), "float32")
    lazy = [p * 2 + 1 for p in parts]  # pending expressions: computed before NCCL reads them
    out = comm.all_reduce(lazy)
    np.testing.assert_allclose(out[0].get(), np.sum(np.stack(xs) * 2 + 1, axis=0), rtol=1e-5)
    for p, x in zip(parts, xs):
        np.testing.assert_array_equal(p.get(), x)


def test_errors(comm):
    xs, parts = _parts(comm, (8,), "float32")
    with pytest.raises(ValueError, match="arrays for"):
        comm.all_reduce(parts + parts)
    with pytest.raises(TypeError, match="complex64"):
        comm.all_reduce([p.astype("complex64") for p in parts])
    with pytest.raises(ValueError, match="'mean' is not one of"):
        comm.all_reduce(parts, op="mean")
    with pytest.raises(ValueError, match="lies on the CPU"):
        comm.all_reduce([tnp.asarray(x, device="cpu") for x in xs])
    with pytest.raises(ValueError, match="root"):
        comm.broadcast(parts, root=comm.size)
    with pytest.raises(ValueError, match="listed twice"):
        tc.Communicator([0, 0])


@pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs or more (this machine has one): the multi-rank sums")
def test_several_ranks_sum_different_data(comm):
    xs, parts = _parts(comm, (4096, 33), "float64")
    out = comm.all_reduce(parts)
    for r in out:
        np.testing.assert_allclose(r.get(), np.sum(np.stack(xs), axis=0), rtol=1e-12)
    assert tc.Device(0).can_access_peer(1) in (True, False)
