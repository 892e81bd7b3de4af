"""Advanced indexing with NumPy 2's rules (reads and writes), boolean compaction, nonzero and take.

A key holding arrays is split into a basic view of the array (its slices, ints, None and Ellipsis, with
the axes that index arrays consume kept whole) and the advanced indices: integer arrays, boolean arrays
as their nonzero() arrays, and the ints among them. Result element [p, b, q] is base[pre(p) + idx[b] +
post(q)]: idx is the broadcast index arrays' storage offset (one fused lazy int64 expression, or NumPy on
the host for list keys), pre and post the offsets of the view's other axes placed before and after the
index dimensions. One tile kernel gathers (read) or scatters (write) over the storage.
Data-dependent shapes and bounds checks need values on the host: these synchronise once, as CuPy does.
The tile IR has no complex dtypes: a complex array is indexed as its two float part views (same offsets in
float units, stride 2), one kernel per part."""
from __future__ import annotations

import math
import sys

import numpy as _np

from . import _core, _scan_engines, _value_ranges
from ._core import ndarray
from ._creation import arange, empty
from ._manipulation import broadcast_to

_VALID_INDICES = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                  "arrays are valid indices")
_NOT_INTEGER = "arrays used as indices must be of integer (or boolean) type"


# ---- launching tile kernels on either device ---------------------------------------------------
def _kernels():
    """_index_kernels (compress, expand, indexed), imported with the first of them launched (and tegula.tile with
    it): `import tegula.numpy` defines no tile kernel (tests/python/test_lazy_import.py)."""
    from . import _index_kernels

    return _index_kernels


def _launch(kernel, grid, args, device_id, written=None):
    """One tile kernel launch over tegula arrays. The launcher counts every array argument as written (it cannot
    tell); given `written`, the one array the kernel writes, what was derived from the others' contents (masks'
    compaction positions, value bounds) holds after it (_carry_over)."""
    for x in args:
        if isinstance(x, ndarray) and x._device_id != device_id:
            raise ValueError(f"arrays on different devices ({_core.device_of(x)} and "
                             f"{_core.Device('cpu') if device_id < 0 else _core.Device('cuda', device_id)}) cannot be "
                             "combined; move one with .to_device()")
    reads = [] if written is None else \
        [(x, x._writes) for x in args if isinstance(x, ndarray) and x._serial != written._serial]
    bounds = _value_ranges.kept(*(x for x, _ in reads))
    import tegula.tile as _tt  # loaded with the first tile kernel launched, not with tegula.numpy

    if device_id < 0:
        _tt.launch(kernel, grid=grid, args=tuple(host_arg(a) if isinstance(a, ndarray) else a for a in args),
                   interpret=True)
    else:
        _tt.launch(kernel, grid=grid, args=args)  # __cuda_array_interface__ flushes the readers of what it hands out
    if written is not None:
        bounds.__exit__(None, None, None)
        _carry_over(reads, written)


class _HostInterface:
    def __init__(self, a):
        self.a = a  # keeps the storage alive while the NumPy view exists
        # the kernel may write through the view: pending readers take their values first (bind_array.cpp)
        self.__array_interface__ = a._array_interface(False)


def host_view(a):
    """A zero-copy NumPy view of a CPU-device array (writes go through)."""
    if a._device_id >= 0:
        raise ValueError("host_view of a GPU array: copy it with .get()")
    return _np.asarray(_HostInterface(a))


def host_arg(a):
    """What the interpreter is handed for the CPU-device array a: its NumPy view, or for bfloat16 (no NumPy dtype) a
    kernel argument over the same memory."""
    if a._dtype_name != "bfloat16":
        return host_view(a)
    from tegula.tile import _args  # loaded with the first tile kernel launched, as tegula.tile is

    return _args.host_array_as(host_view(a._view_as("uint16")), "bfloat16")


def _tiles(n, t):
    return max(1, -(-n // t))


def _flat(a):
    return a.reshape(-1)._contiguous()


def _shape_text(shape):
    """A shape as NumPy's indexing messages print it: (2,3), (3,), ()."""
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _value_shape(value_shape, shape):
    """An assigned value's shape without the leading length-1 axes beyond the target's rank (NumPy drops them)."""
    while len(value_shape) > len(shape) and value_shape[0] == 1:
        value_shape = value_shape[1:]
    return value_shape


def _broadcasts(src, dst):
    return len(src) <= len(dst) and all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))


# ---- boolean compaction and nonzero -------------------------------------------------------------
_SCAN_ROW = 4096  # compaction scans rows of this length: a 1-D scan of a long array runs in one block (slow)


def _positions(keep):
    """Inclusive cumsum (int64: each kept element's 1-based rank) of flat bool `keep`, as one contiguous array (so
    each kernel that uses it launches once). Long inputs scan (R, _SCAN_ROW) rows in parallel, then add each row's
    exclusive prefix of row totals; the tail that fills no row scans on its own and adds the rows' total, written
    into the same array. A short input is one scan kernel; a long one on a GPU is CUB's single-pass scan (one read
    of the mask, where the rows' scan takes five kernels). Nothing is read back here."""
    if _scan_engines.cub_applies(keep, 0):
        return _scan_engines.single_pass_scan("cumsum", keep, 0)
    n = keep.size
    rows = n // _SCAN_ROW if n >= 4 * _SCAN_ROW else 0
    if not rows:
        return keep.astype("int64")._scan("cumsum", 0)._contiguous()
    main = rows * _SCAN_ROW
    scan = keep[:main].reshape((rows, _SCAN_ROW)).astype("int64")._scan("cumsum", 1)
    scan._materialize()
    totals = scan[:, _SCAN_ROW - 1]
    ends = totals._scan("cumsum", 0)
    ends._materialize()
    pos = empty((n,), "int64", device=_core.device_of(keep))
    pos[:main].reshape((rows, _SCAN_ROW))._assign(scan + (ends - totals).reshape((rows, 1)))
    if main < n:
        pos[main:] = keep[main:].astype("int64")._scan("cumsum", 0) + ends[rows - 1]
    pos._materialize()
    return pos


def _is_complex(a):
    return a._dtype_name in ("complex64", "complex128")


# The compaction positions of the last masks: x[m], y[m] and x[m] = v with one mask m (mandelbrot's
# Z[I] = Z[I]**2 + C[I]), or with masks of one value (nbody's a[a > 0] = a[a > 0] ** -1.5), scan once and read the
# count back once. An entry is found by the value keys (array/value_key.hpp) its mask had, pending and once
# materialised, each valid while its leaves' write counts are unchanged.
_MASKS = []
_MASKS_KEPT = 2


class _Mask:
    """A compacted mask: its flat bool array, its positions (_positions) and the count, and the value keys naming
    it. The complement of an entry (np.logical_not of its value: mandelbrot's I = ~I, then Z[I]) is an entry too,
    its count n - count and its positions (i + 1) - pos[i] from the entry's: no scan and no count read back. Its
    positions are computed when it is first used (pos a function until then)."""

    def __init__(self, keep, pos, count):
        self.keep, self.pos, self.count = keep, pos, count
        self.keep_writes = keep._writes  # the flat mask's own memory (the user's mask array) unchanged, too
        self.keys = []  # [key bytes, leaf arrays (held: their storages stay alive), their write counts]

    def name(self, value_key):
        if value_key is not None:
            key, leaves = value_key
            self.keys.append([key, leaves, [leaf._writes for leaf in leaves]])

    def valid_keys(self):
        """Drops the keys whose leaves were written (all of them when the mask's own memory was); True while one is
        left."""
        if self.keep._writes != self.keep_writes:
            self.keys = []
        self.keys = [k for k in self.keys if all(leaf._writes == w for leaf, w in zip(k[1], k[2]))]
        return bool(self.keys)



def _carry_over(reads, written):
    """After a launch that read `reads` ([(array, its write count before)]) and wrote `written`: a mask entry's (and a
    kept compaction's, _COMPACTED) counts of memory only read move to the new counts; a key with a leaf in `written`'s
    memory goes (m[m] = values, a[a > 0] = ...), all keys when the mask's own memory was written, and the entry with
    its last key."""
    moved = {x._serial: (before, x._writes) for x, before in reads}
    target = written._serial

    def count_serial(serial, was):
        old_new = moved.get(serial)
        return old_new[1] if old_new is not None and old_new[0] == was else was

    def count(x, was):
        return count_serial(x._serial, was)

    for e in list(_COMPACTED):  # the kept compactions: the same for what was only read (mgrid's Xi and Yi share memory)
        key, out_serial = e[0], e[2]._serial
        if key[0] == target or out_serial == target:
            _COMPACTED.remove(e)
            continue
        e[0] = (key[0], count_serial(key[0], key[1])) + key[2:]
        e[3] = count_serial(out_serial, e[3])
    for m in list(_MASKS):
        if m.keep._serial == target:
            m.keys = []
        m.keep_writes = count(m.keep, m.keep_writes)
        m.keys = [k for k in m.keys if all(leaf._serial != target for leaf in k[1])]
        for k in m.keys:
            k[2] = [count(leaf, w) for leaf, w in zip(k[1], k[2])]
        if not m.keys:
            _MASKS.remove(m)


def _mask(mask):
    """The _Mask of a bool (or truth-tested) array over all of an array's elements: found by its value, or compacted
    now (one scan, one count read back)."""
    if mask._dtype_name != "bool":
        mask = mask.astype("bool")
    pending_key = mask._value_key
    m = _entry(pending_key)
    if m is not None:
        if callable(m.pos):  # a complement, first used
            m.pos = m.pos()
        return m
    mask._materialize()  # in place: later uses of this object find the entry by its own memory
    keep = _flat(mask)
    pos = _positions(keep) if keep.size else None
    entry = _Mask(keep, pos, int(pos[pos.size - 1].item()) if keep.size else 0)
    entry.name(pending_key)
    own_key = mask._value_key
    if own_key is not None and (pending_key is None or own_key[0] != pending_key[0]):
        entry.name(own_key)
    _MASKS.insert(0, entry)
    del _MASKS[_MASKS_KEPT:]
    return entry


def _entry(value_key):
    """The valid _Mask entry named by value_key, or None."""
    if value_key is not None:
        for m in _MASKS:
            if m.valid_keys() and any(k[0] == value_key[0] for k in m.keys):
                return m
    return None


def mask_entry(x):
    """The entry of bool x's value when it was compacted (a lookup: no scan, nothing materialised), or None."""
    return _entry(x._value_key) if x._dtype_name == "bool" and _MASKS else None


def note_complement(m, r):
    """r holds logical_not of entry m's value: r's entry, from m's count and positions (no scan, no read back)."""
    if m.pos is None or callable(m.pos) or not r.size:
        return
    # materialised now: a pending r would be by the next launch that reads m's mask (it flushes that memory's
    # readers), and its key would change with it. m was found before r's op ran; r may have overwritten m's mask,
    # never its positions.
    r._materialize()
    key = r._value_key
    if key is None:
        return
    n, src = m.keep.size, m.pos  # m.pos: every kept element's 1-based rank, inclusive (_positions)

    def positions():
        pos = arange(1, n + 1, dtype="int64", device=_core.device_of(src)) - src
        pos._materialize()
        return pos

    entry = _Mask(_flat(r), positions, n - m.count)
    entry.name(key)
    _MASKS.insert(0, entry)
    del _MASKS[_MASKS_KEPT:]


# The last compactions' results, kept for a repeat of the same x[mask] while nothing else holds them (mandelbrot2's
# `N_[Xi[I], Yi[I]] = i + 1` and then `Z_[Xi[I], Yi[I]] = Z[I]`: the second pair is the first one's memory, not two
# more launches). An entry: [what x was (its memory's serial and write count, layout, dtype), the mask entry, the
# result, the result's write count]. Reused only when the result is its memory's sole owner (no view, pending
# expression or other array shares it) and was never written, so the caller gets what a new compaction would give.
_COMPACTED = []
_COMPACTED_KEPT = 4
_COMPACTED_MAX_BYTES = 64 << 20  # larger results are let go at once (holding them would keep memory the program freed)


def _compacted(x, m):
    """The kept result of x[m] (materialised flat x, mask entry m) that a new owner may take, removed from the list;
    else None."""
    key = _memory_key(x)
    for i, e in enumerate(_COMPACTED):
        if e[1] is m and e[0] == key:
            out, writes = e[2], e[3]
            del _COMPACTED[i]
            e[2] = None
            # sys.getrefcount: the local `out` and its argument (the entry let it go)
            if out._writes == writes and sys.getrefcount(out) == 2 and out._sole_owner:
                return out
            return None
    return None


def _memory_key(x):
    return (x._serial, x._writes, x._offset, x.shape, x._strides, x._dtype_name)


def compress_flat(x, keep):
    """x[keep] for flat x and bool keep of the same size: a 1-D array of the kept elements (one sync: the count,
    none for a mask of the same value compacted just before). One launch; a complex element moves as its two
    floats; none for a repeat of a compaction whose result nothing holds any more (_COMPACTED)."""
    x = _flat(x)
    if x.size == 0:
        return empty((0,), x._dtype_name, device=_core.device_of(x))
    m = _mask(keep)
    out = _compacted(x, m) if _COMPACTED and not x._pending else None
    if out is None:
        out = empty((m.count,), x._dtype_name, device=_core.device_of(x))
        if m.count:
            known = _value_ranges.bounds(x)
            _spread_packed(_kernels().compress, m, x, out, x._device_id, out)
            if known is not None:  # a subset of x's values
                _value_ranges.note(out, *known)
    # kept under x's key after the launch (the launcher counts its arguments as written)
    if not x._pending and m.count and out.nbytes <= _COMPACTED_MAX_BYTES:
        _COMPACTED.insert(0, [_memory_key(x), m, out, out._writes])
        del _COMPACTED[_COMPACTED_KEPT:]
    return out


def expand_flat(a, keep, value):
    """a[keep] = value for bool keep over all of a's elements and a 1-D value of one element per kept one (NumPy's
    boolean assignment; value already cast and of that size): each kept element takes value[its position], one
    launch, no nonzero and no sync when a mask of the same value was compacted just before. False (nothing done)
    when a's memory is not one C-order run (the general scatter then writes it)."""
    if not a._c_contiguous or a._pending:
        return False
    flat, m = a._raw_view((a.size,), (1,), a._offset), _mask(keep)
    if value.shape != (m.count,):
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign {value.size} input values to the "
                         f"{m.count} output values where the mask is true")
    if not m.count:
        return True
    value = value._contiguous() if value._pending else value
    _spread_packed(_kernels().expand, m, flat, value, a._device_id, flat)
    return True


def _spread_packed(kernel, m, spread, packed, device_id, written):
    """compress or expand under mask m: `spread` (contiguous) has the mask's size, `packed` one element per kept one.
    A complex pair is read as its float scalars (W = 2, `packed` made contiguous), so one launch moves both parts."""
    width = 1
    if _is_complex(spread):
        width, real = 2, "float32" if spread._dtype_name == "complex64" else "float64"
        spread, packed = spread._view_as(real), packed._contiguous()._view_as(real)
    T = _kernels().TILE
    _launch(kernel, _tiles(m.keep.size, T), (spread, m.keep, m.pos, packed, T, width), device_id, written)


def nonzero_flat(a):
    """Flat indices (int64) of the nonzero elements of a."""
    flat = _flat(a)
    idx = arange(flat.size, dtype="int64", device=_core.device_of(a))
    return compress_flat(idx, flat != 0)


def nonzero(a):
    a = a if isinstance(a, ndarray) else _core.as_array(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    flat = nonzero_flat(a)
    out = []
    rem = flat
    for d in reversed(a.shape[1:]):
        out.append(rem % d)
        rem = rem // d
    out.append(rem)
    return tuple(reversed(out))


# ---- the key: classification and NumPy's checks, in NumPy's order --------------------------------
def basic_key(key):
    """key with NumPy integer scalars as Python ints (what the C++ basic indexer takes), or None when it holds
    arrays or booleans (NumPy's 0-d boolean index). Keys of other types (floats, strings) raise NumPy's IndexError."""
    out = []
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, (bool, _np.bool_)):
            return None
        if isinstance(k, _np.integer):
            out.append(int(k))
        elif k is None or k is Ellipsis or isinstance(k, (int, slice)):
            out.append(k)
        elif isinstance(k, (float, complex, str, bytes, _np.generic)):
            raise IndexError(_VALID_INDICES)
        else:
            return None
    return tuple(out)


def _classify(k, device_id):
    """One key entry as (kind, value): kind is new, ell, slice, int, ints (an integer array, NumPy's or
    tegula's) or bool (a boolean array; Python and NumPy bools are 0-d ones). Sequences convert as NumPy
    converts them: an empty one is an integer index, one of floats or objects is not an index."""
    if k is None:
        return "new", None
    if k is Ellipsis:
        return "ell", None
    if isinstance(k, slice):
        return "slice", k
    if isinstance(k, (bool, _np.bool_)):
        return "bool", _np.asarray(bool(k))
    if isinstance(k, (int, _np.integer)):
        return "int", int(k)
    if isinstance(k, (float, complex, str, bytes, _np.generic)):
        raise IndexError(_VALID_INDICES)
    if isinstance(k, (list, tuple)):
        h = _np.asarray(k)
        if h.size == 0 and h.dtype.kind == "f":
            h = h.astype(_np.int64)
        if h.dtype.kind not in "biu":
            raise IndexError(_VALID_INDICES)
        k = h
    elif not isinstance(k, (ndarray, _np.ndarray)):
        if not (hasattr(k, "__cuda_array_interface__") or hasattr(k, "__array__")):
            raise IndexError(_VALID_INDICES)
        k = _core.as_array(k, device_id)
    name = k.dtype.name if isinstance(k, _np.ndarray) else k._dtype_name
    if name == "bool":
        return "bool", k
    if name.startswith(("int", "uint")):
        return "ints", k
    raise IndexError(_NOT_INTEGER)


def _consumed(kind, value):
    return value.ndim if kind == "bool" else int(kind in ("int", "slice", "ints"))


def _items(a, key, scalar_bounds=False):
    """The classified key entries, after NumPy's checks that need no values: single ellipsis, too many
    indices, boolean arrays matching the axes they consume (and with scalar_bounds, integer scalars in bounds)."""
    items = [_classify(k, a._device_id) for k in (key if isinstance(key, tuple) else (key,))]
    if sum(kind == "ell" for kind, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_consumed(kind, v) for kind, v in items)
    if used > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {used} were indexed")
    axis, out = 0, []
    for kind, v in items:
        if kind == "ell":
            axis += a.ndim - used
        if kind == "bool":
            # NumPy indexes with the mask's nonzero() index arrays: an extent of 0 matches any axis (its empty
            # index broadcasts), any other extent must equal the axis'
            for d, m in enumerate(v.shape):
                if m != a.shape[axis + d] and m != 0:
                    raise IndexError(f"boolean index did not match indexed array along axis {axis + d}; size of axis "
                                     f"is {a.shape[axis + d]} but size of corresponding boolean axis is {m}")
            if v.ndim and tuple(v.shape) != tuple(a.shape[axis:axis + v.ndim]):  # an empty mask that does not match
                out += [("ints", _np.zeros(0, _np.int64))] * v.ndim
                axis += v.ndim
                continue
        if kind == "int" and scalar_bounds and not -a.shape[axis] <= v < a.shape[axis]:
            raise IndexError(f"index {v} is out of bounds for axis {axis} with size {a.shape[axis]}")
        out.append((kind, v))
        axis += _consumed(kind, v)
    return out


def check_structure(a, key):
    """The errors NumPy raises for an index before it looks at a value to assign: too many indices, ellipses,
    boolean masks that do not match, integer scalars out of bounds (integer arrays are checked later, by the copy)."""
    _items(a, key, scalar_bounds=True)


def _device_mask(a, v):
    return v if isinstance(v, ndarray) else _core.as_array(v, a._device_id)


def _full_mask(a, items):
    """The mask when the key is one boolean array over all of a's axes (NumPy's own fast path), else None."""
    if len(items) == 1 and items[0][0] == "bool" and items[0][1].ndim == a.ndim > 0:
        return _device_mask(a, items[0][1])
    return None


def _nonzero_arrays(mask, device_id):
    """A k-d boolean index as its k integer index arrays (NumPy's on the host for host masks: no sync)."""
    if isinstance(mask, _np.ndarray):
        return list(_np.nonzero(mask))
    return list(nonzero(mask))


# ---- the plan: a basic view and the advanced indices on its axes ---------------------------------
class _Plan:
    """A key with arrays resolved against `a`: `view` is the basic view with the indexed axes whole; each of
    `arrays` is (view axis, original axis or None where no bounds check is needed, index array). The result
    shape is `before` (view axes) + bshape (the broadcast index shape) + `after` (view axes)."""

    def __init__(self, a, view, arrays, bshape, before, after):
        self.a, self.view, self.arrays, self.bshape = a, view, arrays, bshape
        self.before, self.after = before, after
        self.shape = tuple(view.shape[i] for i in before) + bshape + tuple(view.shape[i] for i in after)


def _plan(a, items):
    """The plan for classified key entries holding at least one array. Ints are advanced indices too (NumPy
    broadcasts them with the arrays); a 0-d boolean is NumPy's new axis indexed by [0] (True) or [] (False).
    The index dimensions replace the advanced entries when these are adjacent, else they go first (any other
    entry between them, even an Ellipsis of no axes, separates them, as in NumPy's consecutive check)."""
    used = sum(_consumed(kind, v) for kind, v in items)
    basic, arrays = [], []
    vpos = axis = 0
    state, insert = "none", 0  # none -> run (advanced seen) -> gap (other seen after) -> split
    for kind, v in items:
        if kind in ("int", "ints", "bool"):
            if state == "none":
                state, insert = "run", vpos
            elif state == "gap":
                state = "split"
        elif state == "run":
            state = "gap"
        if kind == "ell":
            basic += [slice(None)] * (a.ndim - used)
            vpos, axis = vpos + a.ndim - used, axis + a.ndim - used
        elif kind == "new":
            basic.append(None)
            vpos += 1
        elif kind == "slice":
            basic.append(v)
            vpos, axis = vpos + 1, axis + 1
        elif kind == "int":
            basic.append(v)
            axis += 1
        elif kind == "ints":
            basic.append(slice(None))
            arrays.append((vpos, axis, v))
            vpos, axis = vpos + 1, axis + 1
        elif v.ndim == 0:
            basic.append(None)
            arrays.append((vpos, None, _np.zeros(int(bool(v)), _np.int64)))
            vpos += 1
        else:
            basic += [slice(None)] * v.ndim
            for j, nz in enumerate(_nonzero_arrays(v, a._device_id)):
                arrays.append((vpos + j, None, nz))  # None: in range by construction, no bounds check
            vpos, axis = vpos + v.ndim, axis + v.ndim
    if a._pending:  # the kernel indexes a's storage through the view's strides: a pending array (a reshape
        a._materialize()  # that needs a copy, say) has none yet; its complex parts would be expressions, not views
    view = a._getitem_basic(tuple(basic))  # the ints' bounds checks (after the booleans', as NumPy)
    # int64 first: NumPy reports and wraps indices as intp (a uint64 2**63 is -2**63). A device array whose values
    # are known to fit its axis (_value_ranges: mgrid's, an upload's, compactions of them) takes axis None: no check
    arrays = [(p, ax, idx.astype(_np.int64, copy=False)) if isinstance(idx, _np.ndarray) else
              (p, None if ax is not None and _value_ranges.within(idx, view.shape[p]) else ax,
               idx if idx._dtype_name == "int64" else idx.astype("int64")) for p, ax, idx in arrays]
    shapes = [tuple(idx.shape) for _, _, idx in arrays]
    try:
        bshape = tuple(_np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " +
                         "".join(_shape_text(s) + " " for s in shapes)) from None
    indexed = {p for p, _, _ in arrays}
    others = [i for i in range(view.ndim) if i not in indexed]
    split = 0 if state == "split" else insert
    return _Plan(a, view, arrays, bshape, [i for i in others if i < split], [i for i in others if i >= split])


# ---- offsets ----------------------------------------------------------------------------------
def _check_bounds(plan):
    """NumPy's IndexError for the first out-of-range index (arrays in key order, each in C order). Host index
    arrays are checked by NumPy; device ones by fused reductions and one sync (none whose values _plan knew to fit:
    axis None). Nothing is checked when the index arrays broadcast to no elements, as in NumPy."""
    if math.prod(plan.bshape) == 0:
        return
    checks = []  # (axis, size, index array, its out-of-range mask), in key order
    for p, ax, idx in plan.arrays:
        if ax is not None:  # None: in range (a boolean's nonzero(), a 0-d boolean's [0], known bounds)
            n = plan.view.shape[p]
            bad = (idx < -n) | (idx >= n)
            checks.append((ax, n, idx, bad if isinstance(idx, ndarray) else _np.asarray(bad)))  # 0-d: a NumPy bool
    device = [bad for _, _, idx, bad in checks if isinstance(idx, ndarray)]
    if len({bad.shape for bad in device}) == 1:
        flags = [_or_all(device).any()]  # one reduction over the common shape
    else:
        flags = [bad.any() for bad in device]
    if not any(bad.any() for _, _, idx, bad in checks if isinstance(idx, _np.ndarray)) and \
            not (flags and bool(_or_all(flags))):
        return
    for ax, n, idx, bad in checks:  # the error path: one sync per array
        flat = bad.reshape(-1) if isinstance(bad, _np.ndarray) else bad.reshape(-1).get()
        if flat.any():
            value = _np.asarray(idx).reshape(-1)[int(_np.argmax(flat))] if not isinstance(idx, ndarray) else \
                idx.reshape(-1)[int(_np.argmax(flat))]
            raise IndexError(f"index {int(value.item())} is out of bounds for axis {ax} with size {n}")


def _or_all(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out | x
    return out


def _axes_offsets(view, axes):
    """The storage offsets of the C-order positions over view `axes` as (table, step): step when the axes
    merge into one stride (no table: the kernel multiplies), else an int64 table and step 0."""
    dims = [(view.shape[i], view._strides[i]) for i in axes if view.shape[i] != 1]
    if all(dims[j][1] == dims[j + 1][1] * dims[j + 1][0] for j in range(len(dims) - 1)):
        return None, dims[-1][1] if dims else 0
    table = None
    for j, (n, s) in enumerate(dims):
        r = arange(n, dtype="int64", device=_core.device_of(view)).reshape(
            tuple(n if k == j else 1 for k in range(len(dims)))) * s
        table = r if table is None else table + r
    return table.reshape(-1)._contiguous(), 0


def _span(view):
    """(first, count): the storage elements the view can reach, as one stride-1 run."""
    lo = hi = view._offset
    for n, s in zip(view.shape, view._strides):
        lo, hi = lo + min(0, (n - 1) * s), hi + max(0, (n - 1) * s)
    return lo, hi - lo + 1


def _index_offsets(plan, first):
    """The flat int64 storage offsets (relative to `first`) of the broadcast index positions, contiguous:
    sum_k idx_k * stride_k with negative indices wrapped. Host index arrays sum on the host; device ones in
    one lazy expression (one kernel)."""
    view, dev = plan.view, plan.a._device_id
    host = _np.int64(view._offset - first)
    device = None
    for p, _, idx in plan.arrays:
        n, s = view.shape[p], view._strides[p]
        if isinstance(idx, _np.ndarray):
            host = host + _np.where(idx < 0, idx + n, idx) * s
        else:
            term = (idx < 0)._where(idx + n, idx) * s
            device = term if device is None else device + term
    if device is None:
        return _core.as_array(_np.ascontiguousarray(_np.broadcast_to(host, plan.bshape)).reshape(-1), dev)
    off = device + (_core.as_array(host, dev) if host.ndim else int(host))
    if off.shape != plan.bshape:
        off = broadcast_to(off, plan.bshape)
    return off.reshape(-1)._contiguous()


def indexed_tiles(Q):
    """(TR, TC, column tiles) of the indexed kernel over rows of Q values. At most 16 columns: every one of the 64
    threads then owns rows of the tile; wider tiles (8 x 128) come out wrong from the GPU code generator today (the
    interpreter gets them right)."""
    TC = min(16, 1 << max(0, Q - 1).bit_length())
    return _kernels().TILE // TC, TC, _tiles(Q, TC)


def _run(plan, vals, write):
    """One launch of the indexed kernel: vals (P * B, Q) gathered from or scattered into a's storage."""
    view = plan.view
    first, count = _span(view)
    base = plan.a._raw_view((count,), (1,), first)
    idx = _index_offsets(plan, first)
    pre, pre_step = _axes_offsets(view, plan.before)
    post, post_step = _axes_offsets(view, plan.after)
    R, Q = vals.shape
    TR, TC, col_tiles = indexed_tiles(Q)
    _launch(_kernels().indexed, _tiles(R, TR) * col_tiles,
            (base, idx, idx if pre is None else pre, idx if post is None else post, vals, pre_step, post_step,
             col_tiles, TR, TC, pre is not None, post is not None, write), plan.a._device_id, base if write else vals)


def _rows_cols(plan):
    P = math.prod(plan.view.shape[i] for i in plan.before)
    Q = math.prod(plan.view.shape[i] for i in plan.after)
    return P * math.prod(plan.bshape), Q


def _part_plan(plan, k):
    """The plan over part k (0 real, 1 imaginary) of a complex array: float views, offsets in float units."""
    p = _Plan.__new__(_Plan)
    p.__dict__.update(plan.__dict__)
    p.a, p.view = plan.a._part(k), plan.view._part(k)
    return p


def _gather(plan, checked=False):
    if not checked:
        _check_bounds(plan)
    a = plan.a
    if _is_complex(a):
        return _gather(_part_plan(plan, 0), True)._complex(_gather(_part_plan(plan, 1), True))
    R, Q = _rows_cols(plan)
    out = empty((R, Q), a._dtype_name, device=_core.device_of(a))
    if R and Q:
        known = _value_ranges.bounds(a)
        _run(plan, out, False)
        if known is not None:  # elements of a
            _value_ranges.note(out, *known)
    return out.reshape(plan.shape)


def _written_value(a, value):
    """value cast (unsafe, as NumPy's setitem) to a's dtype and in memory, copied when it shares a's memory: a
    kernel that writes a must not read what it overwrites."""
    v = value if value._dtype_name == a._dtype_name else value._cast(a._dtype_name)
    v._materialize()
    return v.copy() if v._base_id == a._base_id else v


def _scatter(plan, value):
    """a[key] = value: value cast (unsafe, as NumPy's setitem) and broadcast to the result shape. A value
    that shares a's memory is copied first: the kernel must not read what it overwrites."""
    a, shape = plan.a, plan.shape
    vs = _value_shape(value.shape, shape)
    if not _broadcasts(vs, shape):
        raise ValueError(f"shape mismatch: value array of shape {_shape_text(value.shape)} could not be broadcast "
                         f"to indexing result of shape {_shape_text(shape)}")
    _check_bounds(plan)
    R, Q = _rows_cols(plan)
    if not (R and Q):
        return
    # a view where the strides allow (a scalar: all 0)
    v = _written_value(a, value).reshape(vs)._broadcast_to(shape).reshape((R, Q))
    if _is_complex(a):
        if v._pending:  # a reshape that needed a copy: the parts must be views
            v._materialize()
        _run(_part_plan(plan, 0), v._part(0), True)
        _run(_part_plan(plan, 1), v._part(1), True)
        return
    _run(plan, v, True)


# ---- entry points -----------------------------------------------------------------------------
def take_rows(a, idx):
    """a[idx] for an integer array (or scalar) idx indexing a's first axis: always a new array (np.take)."""
    if a.ndim == 0:
        raise IndexError("too many indices for array: array is 0-dimensional, but 1 were indexed")
    if not isinstance(idx, (ndarray, _np.ndarray)):
        idx = _np.asarray(idx)
        if idx.size == 0 and idx.dtype.kind == "f":
            idx = idx.astype(_np.int64)
    name = idx.dtype.name if isinstance(idx, _np.ndarray) else idx._dtype_name
    if not name.startswith(("int", "uint")):
        raise TypeError(f"Cannot cast array data from dtype('{name}') to dtype('int64') according to the rule 'safe'")
    return _gather(_plan(a, [("ints", idx)]))


def getitem_advanced(a, key):
    k = basic_key(key)
    if k is not None:
        r = a._getitem_basic(k)
        if r is not None:
            return r
    items = _items(a, key)
    mask = _full_mask(a, items)
    if mask is not None:
        return compress_flat(a, mask)
    return _gather(_plan(a, items))


def setitem_advanced(a, key, value):
    k = basic_key(key)
    if k is not None and a._setitem_basic(k, value):
        return
    items = _items(a, key)
    if all(kind != "bool" and (kind != "ints" or v.ndim == 0) for kind, v in items):
        # only ints and 0-d integer arrays: NumPy's basic assignment (its messages, a view to write through)
        view = a._getitem_basic(tuple(Ellipsis if kind == "ell" else int(v) if kind == "ints" else v
                                      for kind, v in items))
        view._assign(value.reshape(_value_shape(value.shape, view.shape)))
        return
    mask = _full_mask(a, items)
    if mask is not None and value.ndim > 1:
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
                        f"{value.ndim} dimensions")
    if len(items) == 1 and items[0][0] == "bool" and items[0][1].ndim > 0 and value.size == 1 and \
            (value.ndim == 0 or mask is not None):
        # one value under a mask: a lazy where over the whole array (no count, no sync)
        m = _device_mask(a, items[0][1])
        if m.ndim < a.ndim:  # (a reshape of a pending mask would evaluate it)
            m = m.reshape(m.shape + (1,) * (a.ndim - m.ndim))
        v = value if value._dtype_name == a._dtype_name else value._cast(a._dtype_name)
        a._assign(m._where(v if v.ndim == 0 else v.reshape(()), a), temporary=True)
        return
    if mask is not None and value.ndim == 1 and value.size > 1:
        if expand_flat(a, mask, _written_value(a, value)):
            return
    plan = _plan(a, items)
    if mask is not None and value.size not in (1, plan.bshape[0]):
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign {value.size} input values to the "
                         f"{plan.bshape[0]} output values where the mask is true")
    _scatter(plan, value)
