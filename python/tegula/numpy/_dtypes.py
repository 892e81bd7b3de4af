"""tegula.numpy dtype queries (result_type, promote_types, can_cast, isscalar: the first three by the C++
promotion table, cpp/tegula/array/promotion.hpp) and NumPy's scalar type names: the abstract
kinds (`np.issubdtype(x.dtype, np.floating)`) and the C-named aliases of the dtypes tegula supports. They are
NumPy's own objects, as tegula's float32, int64, ... are. Types tegula has no arrays of (longdouble, strings,
datetimes, object) are not exported."""
from __future__ import annotations

import numpy as _np

from ._core import _tegula, dtype_name, ndarray, np_dtype as _np_dtype

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


def _operand(x):
    """What array/promotion takes for one operand: a dtype name (arrays, NumPy scalars and dtypes: strong), or the
    Python bool/int/float/complex itself (weak, NEP 50)."""
    if isinstance(x, ndarray):
        return x._dtype_name
    if isinstance(x, (_np.ndarray, _np.generic)):
        return dtype_name(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        return x
    return dtype_name(x)


def result_type(*arrays_and_dtypes):
    """np.result_type by the C++ promotion table (cpp/tegula/array/promotion.hpp, the one authority: NEP 50)."""
    return _np_dtype(_tegula.result_type(*[_operand(x) for x in arrays_and_dtypes]))


def promote_types(type1, type2):
    """np.promote_types: the smallest dtype both cast to safely (the C++ table; bfloat16 included)."""
    return _np_dtype(_tegula.result_type(dtype_name(type1), dtype_name(type2)))


def can_cast(from_, to, casting="safe"):
    """np.can_cast by the C++ table; NumPy 2 refuses Python scalars (their answer depended on the value)."""
    if isinstance(from_, (bool, int, float, complex)) and not isinstance(from_, _np.generic):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because the result used to "
                        "depend on the value.\nThis change was part of adopting NEP 50, we may explicitly allow "
                        "them again in the future.")
    return _tegula.can_cast(_operand(from_), dtype_name(to), casting)


def isscalar(element):
    return _np.isscalar(element)
