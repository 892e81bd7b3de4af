"""numpy.exceptions for code that names them through the drop-in import. AxisError is both NumPy's and tegula's
(a ValueError and an IndexError), so `except numpy.exceptions.AxisError` catches what tegula.numpy raises; the
warnings and the rest are NumPy's own."""
import numpy as _np
from numpy.exceptions import (ComplexWarning, DTypePromotionError, ModuleDeprecationWarning,  # noqa: F401
                              RankWarning, TooHardError, VisibleDeprecationWarning)

from tegula import _tegula as _t


class AxisError(_np.exceptions.AxisError, _t.AxisError):
    """An axis argument is out of range (numpy.exceptions.AxisError and tegula.AxisError at once)."""


if not issubclass(_t.AxisError, _np.exceptions.AxisError):  # once per process: the extension raises this one now
    _t._use_axis_error(AxisError)
AxisError = _t.AxisError
