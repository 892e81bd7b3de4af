"""Set operations on arrays (isin, intersect1d, union1d, setdiff1d, setxor1d), as NumPy's: built from unique (a
sort), searchsorted and masks, so they run where those run (CUB on the GPU). Results are sorted; NaNs are never
equal to anything, as in NumPy's sorting methods."""
from __future__ import annotations

import numpy as _np

from . import _core
from ._common import _arr, _arrays_on_one_device
from ._creation import zeros
from ._manipulation import concatenate
from ._sort import searchsorted, sort, unique
from ._ufuncs import minimum


def _member(values, sorted_unique):
    """values (flat) found in the sorted, duplicate-free sorted_unique: a bool array of values' length."""
    n = sorted_unique.shape[0]
    if n == 0:
        return zeros(values.shape, "bool", device=_core.device_of(values))
    at = minimum(searchsorted(sorted_unique, values), n - 1)
    return sorted_unique[at] == values


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements`, in element's shape."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e, t = _arrays_on_one_device([element, test_elements])
    t = t.reshape(-1)
    found = _member(e.reshape(-1), unique(t)).reshape(e.shape)
    return ~found if invert else found


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both; with return_indices, where each first occurs in ar1 and in ar2."""
    a, b = _arr(ar1).reshape(-1), _arr(ar2).reshape(-1)
    common = concatenate([a[:0], b[:0]]).dtype  # NumPy's result: the two dtypes' common one
    a, b = a.astype(common), b.astype(common)
    if not return_indices:
        ua, ub = unique(a), unique(b)
        return ua[_member(ua, ub)]
    ua, ia = unique(a, return_index=True)
    ub, ib = unique(b, return_index=True)
    mask = _member(ua, ub)
    values = ua[mask]
    return values, ia[mask], ib[searchsorted(ub, values)]


def union1d(ar1, ar2):
    return unique(concatenate([_arr(ar1).reshape(-1), _arr(ar2).reshape(-1)]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ar1 that are not in ar2 (ar1 as given, in order, with assume_unique)."""
    a = _arr(ar1).reshape(-1)
    if not assume_unique:
        a = unique(a)
    b = unique(_arr(ar2, a).reshape(-1))
    common = concatenate([a[:0], b[:0]]).dtype  # compared in the common dtype; the result keeps ar1's
    return a[~_member(a.astype(common), b.astype(common))]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the two."""
    a, b = _arr(ar1).reshape(-1), _arr(ar2).reshape(-1)
    aux = sort(concatenate([a if assume_unique else unique(a), b if assume_unique else unique(b)]))
    if aux.shape[0] == 0:
        return aux
    edge = _arr(_np.array([True]), aux)
    differs = concatenate([edge, aux[1:] != aux[:-1], edge])  # NaN differs from NaN: each NaN stays, as NumPy's
    return aux[differs[1:] & differs[:-1]]


__all__ = ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]
