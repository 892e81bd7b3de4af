"""What the front end's names are bound to while translating a kernel: IR values or Python statics."""
from __future__ import annotations


class Tile:
    """An IR tile value (rank 0 is a scalar)."""

    __slots__ = ("id", "dtype", "shape")

    def __init__(self, id_, dtype, shape):
        self.id, self.dtype, self.shape = id_, dtype, tuple(shape)

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return f"Tile(%{self.id}: {self.dtype}{list(self.shape)})"


class Array:
    """A kernel array parameter: global memory with run-time shape and strides."""

    __slots__ = ("id", "dtype", "ndim", "name")

    def __init__(self, id_, dtype, ndim, name):
        self.id, self.dtype, self.ndim, self.name = id_, dtype, ndim, name


class ArrayShape:
    """`x.shape` of an array: x.shape[i] is a run-time int64 (a `dim` op), built on first use."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array


class BoundMethod:
    """`tile.sum` before it is called: the op and its receiver."""

    __slots__ = ("op", "receiver")

    def __init__(self, op, receiver):
        self.op, self.receiver = op, receiver


def is_static_number(v) -> bool:
    return isinstance(v, (bool, int, float)) and not isinstance(v, Tile)
