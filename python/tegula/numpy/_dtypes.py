"""tegula.numpy dtype queries: result_type, can_cast, isscalar."""
from __future__ import annotations

import numpy as _np

from ._core import ndarray


def result_type(*arrays_and_dtypes):
    conv = [(_np.empty(0, a._dtype_name) if isinstance(a, ndarray) else a) for a in arrays_and_dtypes]
    return _np.result_type(*conv)


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def isscalar(element):
    return _np.isscalar(element)
