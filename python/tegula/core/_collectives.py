"""Collectives across the GPUs of this host through NCCL (dlopen'd; cpp/tegula/libs/nccl): one process drives
every GPU, one rank per GPU.

    comm = tegula.core.Communicator()            # every GPU of this host (or Communicator([0, 1]))
    parts = [tnp.asarray(x, device=f"cuda:{d}") for d in comm.devices]
    total = comm.all_reduce(parts)               # a list: on each GPU, the elementwise sum of all parts

Each call takes one array per rank (tegula arrays, or any GPU array with __cuda_array_interface__, on the rank's
GPU, the same dtype and shape) and returns new tegula arrays, one per rank. The arrays go to C++
(cpp/tegula/libs/collective_arrays.hpp), which checks them, materialises the inputs and runs the collectives on
each GPU's array stream, after the work that produced their inputs and before what reads their outputs; the calls
of all ranks go out as one NCCL group, so one thread issues them without deadlock. Peer access between the GPUs is enabled when the
communicator is made.
"""
from __future__ import annotations

from .. import _tegula
from ._interop import from_cuda_array_interface, has_cai


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
        return _tegula.nccl_all_reduce(self._comms, _arrays(arrays, "all_reduce"), op)

    def all_gather(self, arrays):
        """On every rank, all ranks' arrays stacked along a new first axis (rank order)."""
        return _tegula.nccl_all_gather(self._comms, _arrays(arrays, "all_gather"))

    def reduce_scatter(self, arrays, op="sum"):
        """Rank r gets part r (of `size` equal parts along the first axis) of the reduction of all ranks' arrays."""
        return _tegula.nccl_reduce_scatter(self._comms, _arrays(arrays, "reduce_scatter"), op)

    def broadcast(self, arrays, root=0):
        """On every rank, a copy of rank `root`'s array (the other ranks' arrays give only shape and dtype)."""
        return _tegula.nccl_broadcast(self._comms, _arrays(arrays, "broadcast"), int(root))


def _arrays(arrays, what):
    """The ranks' arrays as tegula arrays: tegula's own, or a zero-copy view of a foreign GPU array."""
    out = []
    for rank, a in enumerate(arrays):
        if isinstance(a, _tegula.ndarray):
            out.append(a)
        elif has_cai(a):
            out.append(from_cuda_array_interface(a))
        else:
            raise TypeError(f"{what}: rank {rank}'s argument is a {type(a).__name__}, not a GPU array (a tegula array "
                            "or one with __cuda_array_interface__)")
    return out
