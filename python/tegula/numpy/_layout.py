"""Memory order (order='C'/'F'/'A'/'K') of tegula.numpy arrays, with no engine support needed: an F-ordered
array is a C-ordered array of the reversed shape, transposed (a view); any axis order likewise.

A pending array (a lazy expression) is C-ordered once computed, so its layout is read without computing it.
"""
from __future__ import annotations

from ._core import _tegula, ndarray

_ORDERS = ("C", "F", "A", "K")

def parse_order(order, allowed="CFAK", default="C"):
    """order as one of 'C', 'F', 'A', 'K' (NumPy accepts lower case; None is `default`), with NumPy's errors."""
    if order is None:
        return default
    o = order.upper() if isinstance(order, str) else order
    if o not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if o not in allowed:
        if allowed == "CF":
            raise ValueError("only 'C' or 'F' order is permitted")
        raise ValueError(f"order {o!r} is not permitted for reshaping")
    return o

def _strides_of(a):
    """a's strides in elements (NumPy arrays: in bytes, which orders the same), or None for a pending array."""
    if isinstance(a, ndarray):
        return None if a._pending else a._strides
    return a.strides

def _dense(shape, strides, innermost_first):
    """NumPy's contiguity rule over the axes in `innermost_first`: each axis longer than 1 has the stride of
    the ones inside it; axes of extent 1 do not count; an empty array is contiguous."""
    if 0 in shape:
        return True
    expect = 1
    for i in innermost_first:
        if shape[i] != 1:
            if strides[i] != expect:
                return False
            expect *= shape[i]
    return True

def c_contiguous(a):
    if not isinstance(a, ndarray):
        return a.flags.c_contiguous
    strides = _strides_of(a)
    return strides is None or _dense(a.shape, strides, reversed(range(a.ndim)))

def f_contiguous(a):
    if not isinstance(a, ndarray):
        return a.flags.f_contiguous
    strides = _strides_of(a)
    if strides is None:  # computed in C order: F-contiguous only with at most one axis longer than 1
        return 0 in a.shape or sum(d != 1 for d in a.shape) <= 1
    return _dense(a.shape, strides, range(a.ndim))

def memory_perm(a, order):
    """a's axes from outermost to innermost for the layout `order` asks for, NumPy's rules: 'C' and 'F'
    themselves; 'A' F where a is F- and not C-contiguous; 'K' a's own order (C- or F-contiguous as they are,
    else by descending absolute stride, ties in axis order, as NumPy sorts them)."""
    nd = len(a.shape)
    c, f = list(range(nd)), list(range(nd))[::-1]
    if order == "C" or nd < 2:
        return c
    if order == "F":
        return f
    if c_contiguous(a):
        return c
    if f_contiguous(a):
        return f
    if order == "A":
        return c
    strides = _strides_of(a)
    return sorted(range(nd), key=lambda i: -abs(strides[i]))

def iteration_perm(a):
    """a's axes, outermost first, in the order NumPy's iterator reads a's memory for order='K' (ravel,
    flatten): an insertion sort by absolute stride in which an axis of stride 0 or extent 1 passes others."""
    nd = len(a.shape)
    if nd < 2 or c_contiguous(a):
        return list(range(nd))
    if f_contiguous(a):
        return list(range(nd))[::-1]
    strides = [0 if d == 1 else s for d, s in zip(a.shape, _strides_of(a))]
    perm = list(range(nd))[::-1]  # innermost first, as the iterator keeps it
    for i0 in range(1, nd):
        pos = i0
        for i1 in range(i0 - 1, -1, -1):
            s0, s1 = strides[perm[i0]], strides[perm[i1]]
            if s0 != 0 and s1 != 0:
                if abs(s1) <= abs(s0):
                    break
                pos = i1
        perm.insert(pos, perm.pop(i0))
    return perm[::-1]


def empty_in(shape, dtype, device_id, perm):
    """An uninitialised array of `shape` whose memory runs over the axes in `perm` (outermost first)."""
    shape = tuple(shape)
    base = _tegula.array_empty(tuple(shape[p] for p in perm), dtype, device_id)
    if perm == sorted(perm):
        return base
    inverse = [0] * len(perm)
    for j, p in enumerate(perm):
        inverse[p] = j
    return base._transpose(inverse)

def in_layout(value, perm, device_id=None):
    """`value` (a tegula array, maybe pending) copied into memory ordered as `perm`."""
    out = empty_in(value.shape, value._dtype_name, value._device_id if device_id is None else device_id, perm)
    out._assign(value)
    return out

def has_layout(a, perm):
    """a's memory is dense and ordered as perm (a pending array is C-ordered)."""
    if perm == list(range(len(a.shape))):
        return c_contiguous(a)
    if perm == list(range(len(a.shape)))[::-1]:
        return f_contiguous(a)
    return not a._pending and c_contiguous(a._transpose(list(perm)))

class Flags:
    """The memory-layout flags NumPy's ndarray.flags reports (a pending array: as it will be, C-ordered)."""

    __slots__ = ("c_contiguous", "f_contiguous")

    def __init__(self, a):
        self.c_contiguous = c_contiguous(a)
        self.f_contiguous = f_contiguous(a)

    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.f_contiguous or self.c_contiguous)
    contiguous = property(lambda self: self.c_contiguous)
    writeable = aligned = property(lambda self: True)

    def __getitem__(self, key):
        names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
                 "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous", "FNC": "fnc",
                 "FORC": "forc", "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned"}
        if key not in names:
            raise KeyError("Unknown flag")
        return getattr(self, names[key])

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                "  WRITEABLE : True\n  ALIGNED : True")
