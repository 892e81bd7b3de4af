"""Collectives across the GPUs of this host through NCCL (dlopen'd; cpp/tegula/libs/nccl): one process drives
every GPU, one rank per GPU.

    comm = tegula.core.Communicator()            # every GPU of this host (or Communicator([0, 1]))
    parts = [tnp.asarray(x, device=f"cuda:{d}") for d in comm.devices]
    total = comm.all_reduce(parts)               # a list: on each GPU, the elementwise sum of all parts

Each call takes one array per rank (tegula arrays, or any GPU array with __cuda_array_interface__, on the rank's
GPU, the same dtype and shape) and returns new tegula arrays, one per rank. The collectives run on each GPU's array
stream, after the work that produced their inputs and before what reads their outputs; the calls of all ranks go
out as one NCCL group, so one thread issues them without deadlock. Peer access between the GPUs is enabled when the
communicator is made.
"""
from __future__ import annotations

from .. import _tegula


class Communicator:
    """NCCL communicators over GPUs of this host: `devices` (ordinals or tegula.core.Device; default all)."""

    def __init__(self, devices=None):
        if devices is None:
            devices = list(range(_tegula.device_count()))
        self.devices = [d.device_id if hasattr(d, "device_id") else int(d) for d in devices]
        self._comms = _tegula.nccl_init_all(self.devices)

    @property
    def size(self):
        return len(self.devices)

    def __repr__(self):
        return f"<tegula.core.Communicator over GPUs {self.devices}>"

    # ---- the collectives ---------------------------------------------------------------------------------------
    def all_reduce(self, arrays, op="sum"):
        """On every rank, the elementwise reduction (sum, prod, max, min, avg) of all ranks' arrays."""
        ins = self._inputs(arrays, "all_reduce")
        outs = [_empty(a.shape, a._dtype_name, d) for a, d in zip(ins, self.devices)]
        self._group(lambda c, a, o: c.all_reduce(a._data_ptr, o._data_ptr, a.size, a._dtype_name, op, None),
                    ins, outs, op)
        return outs

    def all_gather(self, arrays):
        """On every rank, all ranks' arrays stacked along a new first axis (rank order)."""
        ins = self._inputs(arrays, "all_gather")
        outs = [_empty((self.size,) + a.shape, a._dtype_name, d) for a, d in zip(ins, self.devices)]
        self._group(lambda c, a, o: c.all_gather(a._data_ptr, o._data_ptr, a.size, a._dtype_name, None), ins, outs)
        return outs

    def reduce_scatter(self, arrays, op="sum"):
        """Rank r gets part r (of `size` equal parts along the first axis) of the reduction of all ranks' arrays."""
        ins = self._inputs(arrays, "reduce_scatter")
        first = ins[0].shape[0] if ins[0].ndim else 0
        if ins[0].ndim == 0 or first % self.size:
            raise ValueError(f"reduce_scatter: the first axis ({first if ins[0].ndim else 'none, a 0-d array'}) "
                             f"must split into {self.size} equal parts, one per rank")
        shape = (first // self.size,) + ins[0].shape[1:]
        outs = [_empty(shape, a._dtype_name, d) for a, d in zip(ins, self.devices)]
        self._group(lambda c, a, o: c.reduce_scatter(a._data_ptr, o._data_ptr, o.size, a._dtype_name, op, None),
                    ins, outs, op)
        return outs

    def broadcast(self, arrays, root=0):
        """On every rank, a copy of rank `root`'s array (the other ranks' arrays give only shape and dtype)."""
        if not 0 <= int(root) < self.size:
            raise ValueError(f"root {root} is not a rank of 0..{self.size - 1}")
        ins = self._inputs(arrays, "broadcast")
        outs = [_empty(a.shape, a._dtype_name, d) for a, d in zip(ins, self.devices)]
        self._group(lambda c, a, o: c.broadcast(a._data_ptr, o._data_ptr, a.size, a._dtype_name, int(root), None),
                    ins, outs)
        return outs

    # ---- helpers -----------------------------------------------------------------------------------------------
    def _inputs(self, arrays, what):
        import tegula.numpy as tnp

        arrays = list(arrays)
        if len(arrays) != self.size:
            raise ValueError(f"{what}: {len(arrays)} arrays for {self.size} ranks (one array per GPU, in the order "
                             f"{self.devices})")
        out = []
        for rank, (a, d) in enumerate(zip(arrays, self.devices)):
            a = a if isinstance(a, tnp.ndarray) else tnp.asarray(a)
            if a._device_id != d:
                where = "the CPU" if a._device_id < 0 else f"GPU {a._device_id}"
                raise ValueError(f"{what}: rank {rank}'s array lies on {where}, not on GPU {d}")
            _tegula.nccl_dtype(a._dtype_name)  # TypeError for dtypes NCCL lacks
            a = tnp.ascontiguousarray(a)
            a._materialize()
            out.append(a)
        first = out[0]
        for rank, a in enumerate(out[1:], 1):
            if a.shape != first.shape or a._dtype_name != first._dtype_name:
                raise ValueError(f"{what}: rank {rank}'s array is {a._dtype_name}{list(a.shape)}, rank 0's "
                                 f"{first._dtype_name}{list(first.shape)}: every rank passes the same shape and dtype")
        return out

    def _group(self, call, ins, outs, op=None):
        if op is not None:
            _tegula.nccl_op(op)  # ValueError before anything is issued
        for o in outs:
            o._prepare_write()
        _tegula.nccl_group_start()
        try:
            for c, a, o in zip(self._comms, ins, outs):
                call(c, a, o)
        finally:
            _tegula.nccl_group_end()


def _empty(shape, dtype, device):
    import tegula.numpy as tnp

    r = tnp.empty(shape, dtype=dtype, device=f"cuda:{device}")
    r._materialize()
    return r
