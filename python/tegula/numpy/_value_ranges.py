"""What the NumPy layer knows of an integer array's values without reading them back: the bounds [lo, hi] of all of
a memory's elements, noted where they are made (mgrid, indices) and carried by what only moves elements (a boolean
compaction x[mask], a gather a[idx]). A note names the memory by its serial and holds while its write count is
unchanged, so any write (a kernel, out=, a DLPack or CUDA-array-interface consumer) drops it.

Its use: an index array whose bounds fit the axis needs no bounds check, so a fancy assignment such as mandelbrot's
`N[Xi[I], Yi[I]] = i + 1` (Xi, Yi from mgrid, compacted each iteration) launches no reduction and does not stop
to read its result back. Bounds are never guessed: an array with no note is checked as before."""
from __future__ import annotations

from collections import OrderedDict

_KNOWN = OrderedDict()  # memory serial -> (write count, [(first, end, lo, hi): elements [first, end) in [lo, hi]])
_KEPT = 512  # the most recent memories (a note of freed memory is never matched again: serials are not reused)


def _span(a):
    """[first, end): the memory elements a (a materialised view) can reach."""
    lo = hi = a._offset
    for n, s in zip(a.shape, a._strides):
        if n == 0:
            return lo, lo
        lo, hi = lo + min(0, (n - 1) * s), hi + max(0, (n - 1) * s)
    return lo, hi + 1


def note(a, lo, hi):
    """Every element of a (a materialised integer array or view, written already) holds a value in [lo, hi]: noted
    for the memory elements a spans (all of them for a fresh array; one of mgrid's stacked grids for a view)."""
    if a._pending or a._dtype_name not in _INTEGER or a.size == 0:
        return
    first, end = _span(a)
    if end - first != a.size:  # a view with gaps: its span holds other elements
        return
    entry = _KNOWN.get(a._serial)
    regions = entry[1] if entry is not None and entry[0] == a._writes else []
    regions = [r for r in regions if r[1] <= first or r[0] >= end] + [(first, end, int(lo), int(hi))]
    _KNOWN[a._serial] = (a._writes, sorted(regions))
    _KNOWN.move_to_end(a._serial)
    while len(_KNOWN) > _KEPT:
        _KNOWN.popitem(last=False)


def bounds(a):
    """(lo, hi) bounding every value of a, or None when unknown (no note covers all that a spans) or written
    since."""
    if a._pending or a._dtype_name not in _INTEGER:
        return None
    entry = _KNOWN.get(a._serial)
    if entry is None:
        return None
    if entry[0] != a._writes:
        del _KNOWN[a._serial]
        return None
    first, end = _span(a)
    lo = hi = None
    at = first
    for r_first, r_end, r_lo, r_hi in entry[1]:
        if r_end <= at or r_first >= end:
            continue
        if r_first > at:  # a gap no note covers
            return None
        lo, hi = (r_lo, r_hi) if lo is None else (min(lo, r_lo), max(hi, r_hi))
        at = r_end
    return (lo, hi) if lo is not None and at >= end else None


def within(a, n):
    """True when every value of a is known to index an axis of n elements (-n <= value < n)."""
    b = bounds(a)
    return b is not None and -n <= b[0] and b[1] < n


class kept:
    """Around a launch that only reads `arrays` (a tile launch counts every array argument as written, since it
    cannot tell): their notes, taken before, hold after."""

    def __init__(self, *arrays):
        self.notes = [(a, _KNOWN[a._serial][1]) for a in arrays if bounds(a) is not None]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            for a, regions in self.notes:
                _KNOWN[a._serial] = (a._writes, regions)
        return False


_INTEGER = frozenset(("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"))
