"""tegula.numpy pad: NumPy's algorithm (numpy/lib/_arraypad_impl.py), axis by axis, over views of the result.

The result is allocated once and the original written into its middle; then each axis in turn fills its
two pad areas from views (slices, reversed slices, edges, statistics) of the region already filled: the
earlier axes in full (so corners come from the padding of the earlier axes, as in NumPy), the later
ones over the original extent. Pads wider than the data (reflect, symmetric, wrap) repeat the step with
what the previous step wrote, as NumPy does.
"""
from __future__ import annotations

import typing as _typing

import numpy as _np

from . import _core
from . import _reductions
from ._common import _arr, _is_float, _is_py_scalar, _py_all, _py_min
from ._core import _tegula, as_array, dtype_name
from ._creation import arange, empty, full
from ._sort import median

_ALLOWED = {"empty": [], "edge": [], "wrap": [], "constant": ["constant_values"], "linear_ramp": ["end_values"],
            "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"],
            "minimum": ["stat_length"], "reflect": ["reflect_type"], "symmetric": ["reflect_type"]}
def _median(x, axis, keepdims):
    return median(x, axis=axis, keepdims=keepdims)


_STATS = {"maximum": _reductions.max, "minimum": _reductions.min, "mean": _reductions.mean, "median": _median}
_INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _at(sl, axis):
    """A key that applies slice `sl` on `axis` and takes everything on the others."""
    return (slice(None),) * axis + (sl,)


def _as_pairs(x, ndim, as_index=False):
    """x broadcast to ndim (before, after) pairs, exactly as NumPy's pad reads pad_width, constant_values,
    end_values and stat_length (a single value or pair stays a NumPy scalar; a full table gives Python ones)."""
    if x is None:
        return ((None, None),) * ndim
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return _np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths(pad_width, ndim):
    if isinstance(pad_width, dict):  # {axis: width or (before, after)}, NumPy 2.3's spelling
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            match width:
                case int(both):
                    seq[axis] = both, both
                case tuple((int(before), int(after))):
                    seq[axis] = before, after
                case _ as invalid:
                    _typing.assert_never(invalid)
        pad_width = seq
    pad_width = _np.asarray(pad_width)
    if pad_width.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(lo), int(hi)) for lo, hi in _as_pairs(pad_width, ndim, as_index=True)]


def _set_pad_area(padded, axis, width_pair, value_pair):
    """Writes the two pad areas of `axis` (a value of None: that side has width 0)."""
    if value_pair[0] is not None:
        padded[_at(slice(None, width_pair[0]), axis)] = value_pair[0]
    if value_pair[1] is not None:
        padded[_at(slice(padded.shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    lo, hi = width_pair[0], padded.shape[axis] - width_pair[1]
    return padded[_at(slice(lo, lo + 1), axis)], padded[_at(slice(hi - 1, hi), axis)]


def _ramp_dtype(edge, end_value):
    """The dtype np.linspace(end_value, edge) computes in: a Python end value is weak (NEP 50), a NumPy
    scalar strong; integer results become float64."""
    if _is_float(edge) and _is_py_scalar(end_value):
        return edge._dtype_name
    t = _tegula.result_type(dtype_name(_np.asarray(end_value).dtype), edge._dtype_name)
    return t if t.startswith(("float", "bfloat")) else "float64"


def _ramp(edge, end_value, width, axis, reverse, dtype):
    """np.linspace(end_value, edge, width, endpoint=False, dtype=dtype, axis=axis), on the device, step by step
    as NumPy computes it: in _ramp_dtype, i * step (or i / width * delta when a step is 0), floored for
    integer dtypes."""
    t = _ramp_dtype(edge, end_value)
    shape = [1] * edge.ndim
    shape[axis] = width
    ramp = (width - 1, -1, -1) if reverse else (width,)
    i = arange(*ramp, dtype=t, device=_core.device_of(edge)).reshape(tuple(shape))
    stop = edge.astype(t)
    start = stop._scalar_like(end_value) if _is_py_scalar(end_value) else \
        as_array(_np.asarray(end_value), edge._device_id).astype(t)
    delta = stop - start
    step = delta / width
    step_zero = _reductions.any(step == 0)  # NumPy divides first wherever one step is 0
    y = step_zero._where(i / width * delta, i * step) + start
    if dtype in _INTEGERS:
        y = y._unary("floor")
    return y.astype(dtype)


def _get_stats(padded, axis, width_pair, length_pair, mode):
    lo, hi = width_pair[0], padded.shape[axis] - width_pair[1]
    size = hi - lo
    left, right = length_pair
    left = size if left is None or size < left else left
    right = size if right is None or size < right else right
    if (left == 0 or right == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")

    def stat(sl):
        s = _STATS[mode](padded[_at(sl, axis)], axis=axis, keepdims=True)
        return s._unary("rint") if padded._dtype_name in _INTEGERS and s._dtype_name.startswith("float") else s

    left_stat = stat(slice(lo, lo + left))
    if left == right == size:
        return left_stat, left_stat
    return left_stat, stat(slice(hi - right, hi))


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge):
    """One step of reflect/symmetric padding; returns the pad widths still to fill."""
    left_pad, right_pad = width_pair
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = _py_min(old_length, left_pad)
        stop = left_pad - edge_offset
        chunk = padded[_at(slice(stop + chunk_length, stop, -1), axis)]
        if method == "odd":
            chunk = 2 * padded[_at(slice(left_pad, left_pad + 1), axis)] - chunk
        padded[_at(slice(left_pad - chunk_length, left_pad), axis)] = chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = _py_min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        chunk = padded[_at(slice(start, start - chunk_length, -1), axis)]
        if method == "odd":
            chunk = 2 * padded[_at(slice(-right_pad - 1, -right_pad), axis)] - chunk
        start = padded.shape[axis] - right_pad
        padded[_at(slice(start, start + chunk_length), axis)] = chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    """One step of wrap padding; returns the pad widths still to fill."""
    left_pad, right_pad = width_pair
    period = (padded.shape[axis] - right_pad - left_pad) // original_period * original_period
    new_left, new_right = 0, 0
    if left_pad > 0:
        end = left_pad + period
        chunk = padded[_at(slice(end - _py_min(period, left_pad), end), axis)]
        if left_pad > period:
            area, new_left = slice(left_pad - period, left_pad), left_pad - period
        else:
            area = slice(None, left_pad)
        padded[_at(area, axis)] = chunk
    if right_pad > 0:
        start = -right_pad - period
        chunk = padded[_at(slice(start, start + _py_min(period, right_pad)), axis)]
        if right_pad > period:
            area, new_right = slice(-right_pad, -right_pad + period), right_pad - period
        else:
            area = slice(-right_pad, None)
        padded[_at(area, axis)] = chunk
    return new_left, new_right


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad, every mode but 'median' (needs a sort); a function as `mode` runs NumPy's pad on a host copy."""
    a = _arr(array)
    widths = _pad_widths(pad_width, a.ndim)
    if callable(mode):  # the function edits 1-D NumPy vectors in place: NumPy's own pad, on the host
        return as_array(_np.pad(_core.to_numpy(a), widths, mode, **kwargs), a._device_id)
    try:
        unsupported = set(kwargs) - set(_ALLOWED[mode])
    except KeyError:
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")

    shape = tuple(lo + d + hi for d, (lo, hi) in zip(a.shape, widths))
    original = tuple(slice(lo, lo + d) for d, (lo, _) in zip(a.shape, widths))
    device = _core.device_of(a)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), a.ndim)
        flat = [v for pair in values for v in pair]
        if a.ndim == 0 or _py_all(type(v) is type(flat[0]) and v == flat[0] for v in flat):  # one value: fill
            padded = full(shape, flat[0] if flat else 0, a._dtype_name, device=device)
            padded[original] = a
            return padded
    padded = empty(shape, a._dtype_name, device=device)
    padded[original] = a
    if mode == "empty" or a.ndim == 0:
        return padded
    if a.size == 0 and mode != "constant":
        for axis, pair in enumerate(widths):
            if a.shape[axis] == 0 and (pair[0] or pair[1]):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
        return padded

    for axis, pair in enumerate(widths):
        roi = padded[(slice(None),) * (axis + 1) + original[axis + 1:]]
        if mode == "constant":
            _set_pad_area(roi, axis, pair, values[axis])
        elif mode == "edge" or (mode in ("reflect", "symmetric") and a.shape[axis] == 1):
            _set_pad_area(roi, axis, pair, _get_edges(roi, axis, pair))  # (reflecting one value: NumPy's legacy)
        elif mode == "linear_ramp":
            ends = _as_pairs(kwargs.get("end_values", 0), a.ndim)[axis]
            edges = _get_edges(roi, axis, pair)
            ramps = [_ramp(edges[side], ends[side], pair[side], axis, side == 1, a._dtype_name) if pair[side] else
                     None for side in (0, 1)]
            _set_pad_area(roi, axis, pair, ramps)
        elif mode in _STATS:
            lengths = _as_pairs(kwargs.get("stat_length"), a.ndim, as_index=True)[axis]
            _set_pad_area(roi, axis, pair, _get_stats(roi, axis, pair, lengths, mode))
        elif mode in ("reflect", "symmetric"):
            method = kwargs.get("reflect_type", "even")
            left, right = pair
            while left > 0 or right > 0:
                left, right = _set_reflect_both(roi, axis, (left, right), method, a.shape[axis],
                                                mode == "symmetric")
        else:  # wrap
            left, right = pair
            while left > 0 or right > 0:
                left, right = _set_wrap_both(roi, axis, (left, right), a.shape[axis])
    return padded

