"""Compatibility re-exports: tegula.numpy's functions, which live in one module per concept
(_creation, _ufuncs, _reductions, _nanfunctions, _manipulation, _selection, _sort, _repeat, _pad, _dtypes; helpers
in _common). Nothing inside tegula.numpy imports it but the ndarray methods (_ndarray, the top of the package).
`from . import _functions as F; F.empty(...)` keeps working, private helpers (F._arr, F._finish) included."""
from __future__ import annotations

from . import _common, _creation, _dtypes, _manipulation, _matmul, _nanfunctions, _pad, _reductions, _selection, _ufuncs
from ._repeat import repeat  # noqa: F401
from ._sort import (argpartition, argsort, lexsort, median, nanmedian, nanpercentile, nanquantile,  # noqa: F401
                    partition, percentile, quantile, searchsorted, sort, unique)

for _m in (_common, _creation, _manipulation, _selection, _ufuncs, _reductions, _nanfunctions, _pad, _dtypes, _matmul):
    globals().update({k: v for k, v in vars(_m).items() if not k.startswith("__")})
del _m
