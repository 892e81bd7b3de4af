"""Host copies of small arrays uploaded from the host. A read back (x.item(), int(x[i]), x.get()) of memory that
nothing has written since its upload is answered from the copy: no synchronisation, no device-to-host copy (spmv's
`A_col[A_row[i]:A_row[i + 1]]` reads two bounds per row, each a synchronisation otherwise). Uploaded integer arrays
also note their bounds (_value_ranges), so index arrays taken from them (spmv's `x[cols]`) skip the bounds check.

A copy holds while the memory's write count is what it was after the upload; every write path counts (kernels,
out=, tile launches, and a DLPack or CUDA-array-interface export, which may let another library write later), so
a copy is never consulted after anything could have written the memory. Copies are bounded in size and number."""
from __future__ import annotations

from collections import OrderedDict

import numpy as _np

_COPIES = OrderedDict()  # memory serial -> (write count, flat NumPy copy of all of the memory)
_MAX_BYTES = 4 << 20  # an array larger than this keeps no copy
_KEPT_BYTES = 64 << 20  # all copies together (least recently uploaded or read dropped first)
_BOUNDS_MAX_BYTES = 16 << 20  # integer arrays up to this size note their bounds (NumPy's min and max on the host)
_kept = 0


def uploaded(a, x):
    """a was just made from the C-order NumPy array x (its memory holds exactly x's elements)."""
    global _kept
    if x.ndim == 0:  # a scalar made an array: read back from the device, if ever
        return
    if x.dtype.kind in "iu" and 0 < x.nbytes <= _BOUNDS_MAX_BYTES:
        from . import _value_ranges

        _value_ranges.note(a, x.min(), x.max())
    if x.nbytes > _MAX_BYTES or x.dtype.kind not in "biufc" or x.dtype.hasobject:
        return
    copy = x.reshape(-1).copy()  # the caller may write x afterwards
    _COPIES[a._serial] = (a._writes, copy)
    _kept += copy.nbytes
    while _kept > _KEPT_BYTES and _COPIES:
        _, (_, old) = _COPIES.popitem(last=False)
        _kept -= old.nbytes


def read(a, dtype):
    """a's values as a new NumPy array of `dtype` from the copy of its memory, or None (no copy, or written)."""
    global _kept
    if a._pending:
        return None
    serial = a._serial
    entry = _COPIES.get(serial)
    if entry is None:
        return None
    writes, copy = entry
    if writes != a._writes:
        del _COPIES[serial]
        _kept -= copy.nbytes
        return None
    if copy.dtype != dtype:  # a view as another dtype (a complex array's parts, a bit view)
        return None
    _COPIES.move_to_end(serial)
    item = copy.itemsize
    view = _np.ndarray(a.shape, dtype, buffer=copy, offset=a._offset * item,
                       strides=tuple(s * item for s in a._strides))
    return view.copy()
