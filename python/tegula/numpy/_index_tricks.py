"""NumPy's index tricks: mgrid, ogrid, r_ and c_ build tegula arrays on the default device (arange, linspace and
concatenate run there); s_, index_exp and ndindex are NumPy's own (they make index tuples and walk shapes, with
no arrays). ndenumerate, and iterating over a broadcast object, walk host copies (one synchronisation)."""
from __future__ import annotations

import math

import numpy as _np
from numpy import index_exp, ndindex, s_  # noqa: F401 - NumPy's: no arrays involved

from . import _value_ranges
from ._core import ndarray
from ._creation import arange, array, linspace
from ._dtypes import result_type
from ._host_utils import _host
from ._manipulation import broadcast_shapes, broadcast_to, concatenate, stack

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "ndindex", "ndenumerate", "broadcast"]


def _is_complex_step(step):
    return isinstance(step, (complex, _np.complexfloating))


def _range(k):
    """A slice as NumPy's index tricks read it: (start, stop, step, points, spacing). A complex step asks for
    abs(step) points from start to stop inclusive (linspace); a real one is arange's step."""
    start = 0 if k.start is None else k.start
    step = 1 if k.step is None else k.step
    if k.stop is None:
        raise ValueError("a slice in an index trick needs a stop")
    if _is_complex_step(step):
        points = int(abs(step))
        spacing = (k.stop - start) / float(points - 1) if points != 1 else 1
        return start, k.stop, step, points, spacing
    return start, k.stop, step, int(math.ceil((k.stop - start) / (step * 1.0))), step


def _slice_array(k):
    """The 1-D array a slice stands for in r_/c_ and a one-slice mgrid/ogrid."""
    start, stop, step, points, _ = _range(k)
    if _is_complex_step(step):
        return linspace(start, stop, num=points)
    return arange(start, stop, step)


class _Grid:
    """mgrid (dense: one (n1, ..., nk) array per slice, stacked) and ogrid (sparse: a tuple of arrays shaped to
    broadcast against each other)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step, points, spacing = _range(key)
            if _is_complex_step(step):
                return arange(0, points, 1, dtype="float64") * spacing + start
            return arange(start, stop, step)
        key = tuple(key)
        if not all(isinstance(k, slice) for k in key):
            raise TypeError(f"{'ogrid' if self.sparse else 'mgrid'} takes slices, got {key!r}")
        ranges = [_range(k) for k in key]
        typ = result_type(*[v for r in ranges for v in r[:3]])
        if typ.kind == "c":  # a complex step counts points; the grid is real
            typ = _np.dtype("float64")
        shape = tuple(r[3] for r in ranges)
        axes = []
        for d, (start, _, _, points, spacing) in enumerate(ranges):
            at = [1] * len(shape)
            at[d] = points
            axes.append((arange(points, dtype=typ) * spacing + start).astype(typ).reshape(at))
        if self.sparse:
            return tuple(axes)
        if not axes:
            return arange(0, dtype=typ)
        grid = stack([broadcast_to(a, shape) for a in axes])
        if typ.kind in "iu" and grid.size:  # each grid's bounds: index arrays made of it skip the bounds check
            for d, (start, _, _, points, spacing) in enumerate(ranges):
                ends = (start, start + (points - 1) * spacing)
                _value_ranges.note(grid[d], min(ends), max(ends))
        return grid

    def __len__(self):
        return 0


class _Concatenator:
    """r_ and c_: slices (arange/linspace), scalars and arrays concatenated along an axis, after an optional first
    string 'axis[,ndmin[,trans1d]]' (NumPy's directives; 'r'/'c' ask for np.matrix, which tegula has not)."""

    def __init__(self, axis, ndmin, trans1d, name):
        self.axis, self.ndmin, self.trans1d, self.name = axis, ndmin, trans1d, name

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, types = [], []
        for i, item in enumerate(key):
            if isinstance(item, str):
                if i != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError(f"{self.name}['{item}', ...] makes an np.matrix, which tegula.numpy "
                                              "does not have")
                parts = item.split(",")
                try:  # as NumPy reads them: 'axis', 'axis,ndmin' and 'axis,ndmin,trans1d' (more parts: the first two)
                    if len(parts) == 1:
                        axis = int(item)
                    else:
                        axis, ndmin = int(parts[0]), int(parts[1])
                        if len(parts) == 3:
                            trans1d = int(parts[2])
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                continue
            if isinstance(item, slice):
                obj = _slice_array(item)
                if ndmin > 1:
                    obj = array(obj, copy=False, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
                types.append(obj.dtype)
            elif isinstance(item, (bool, int, float, complex, _np.generic)):
                obj = item
                types.append(item)
            else:
                given = item.ndim if isinstance(item, ndarray) else _np.ndim(item)
                obj = array(item, copy=False, ndmin=ndmin)
                if trans1d != -1 and given < ndmin:
                    k2, k1 = ndmin - given, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(ndmin))
                    obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
                types.append(obj.dtype)
            objs.append(obj)
        if not objs:
            return concatenate((), axis=axis)  # NumPy's ValueError: nothing to concatenate
        dtype = result_type(*types)
        objs = [array(o, dtype=dtype, copy=False, ndmin=ndmin) for o in objs]
        return concatenate(objs, axis=axis)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)
r_ = _Concatenator(0, 1, -1, "r_")
c_ = _Concatenator(-1, 2, 0, "c_")


def ndenumerate(arr):
    """NumPy's ndenumerate over a host copy of `arr` (one synchronisation): (index, value) pairs."""
    return _np.ndenumerate(_host(arr))


class broadcast:
    """NumPy's broadcast object: the shape the arguments broadcast to (shape, nd, ndim, size, numiter), NumPy's
    ValueError when they do not; iterating it walks host copies of the arguments (tuples of NumPy scalars)."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError(f"Need at most 64 array objects, got {len(args)}")  # NumPy's limit (NPY_MAXARGS)
        self._args = args
        self.shape = broadcast_shapes(*[a.shape if isinstance(a, ndarray) else _np.shape(a) for a in args])
        self.nd = self.ndim = len(self.shape)
        self.size = math.prod(self.shape)
        self.numiter = len(args)
        self.index = 0

    def __iter__(self):
        for item in _np.broadcast(*[_host(a) for a in self._args]):
            self.index += 1
            yield item

    def reset(self):
        self.index = 0
