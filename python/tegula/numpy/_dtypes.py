"""tegula.numpy dtype queries (result_type, can_cast, isscalar) and NumPy's scalar type names: the abstract
kinds (`np.issubdtype(x.dtype, np.floating)`) and the C-named aliases of the dtypes tegula supports. They are
NumPy's own objects, as tegula's float32, int64, ... are. Types tegula has no arrays of (longdouble, strings,
datetimes, object) are not exported."""
from __future__ import annotations

import numpy as _np

from ._core import ndarray

# The abstract kinds of NumPy's scalar type hierarchy.
generic, number, integer, signedinteger, unsignedinteger = (
    _np.generic, _np.number, _np.integer, _np.signedinteger, _np.unsignedinteger)
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating
# C-named aliases (int_ and intp are int64, long is int64 on LP64 systems, as in NumPy).
int_, intp, uintp, intc, uintc = _np.int_, _np.intp, _np.uintp, _np.intc, _np.uintc
byte, ubyte, short, ushort = _np.byte, _np.ubyte, _np.short, _np.ushort
long, ulong = getattr(_np, "long", _np.int_), getattr(_np, "ulong", _np.uint)  # NumPy 1.x: int_ and uint are C long
longlong, ulonglong = _np.longlong, _np.ulonglong
uint = _np.uint  # NumPy 2: uintp (uint64)
little_endian = _np.little_endian
half, single, double, csingle, cdouble = _np.half, _np.single, _np.double, _np.csingle, _np.cdouble
True_, False_ = _np.True_, _np.False_
typecodes = _np.typecodes


def result_type(*arrays_and_dtypes):
    conv = [(_np.empty(0, a._dtype_name) if isinstance(a, ndarray) else a) for a in arrays_and_dtypes]
    return _np.result_type(*conv)


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def isscalar(element):
    return _np.isscalar(element)
