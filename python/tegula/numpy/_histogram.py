"""Counting: histogram, histogram2d, histogramdd, histogram_bin_edges, bincount and digitize.

Every element finds its bin with the binary search of `searchsorted` (the right edge of the last bin is inclusive,
as in NumPy, whose arithmetic for equal bins is corrected to give the same bins). On a GPU the bins are then counted
by cpp/tegula/libs/bin_counts.hpp: each block counts in shared memory and adds its totals with one atomic per bin.
histogram's equal bins over float32/float64/int32/int64 values skip the search on a GPU: one pass guesses each value's
bin from its offset and moves it until the edges hold it, which is the search's answer.
On the CPU interpreter a tile kernel counts, every element adding into its bin. (On the H200 a one-hot tile kernel
counted 2^24 values into 100 bins at 1.1 Gelem/s and per-element global atomics at 2.8, against torch's 133.)
Counts accumulate in int64, weights in float64 (complex weights as two real passes), then take NumPy's result dtype.
Bin edges are computed on the host with NumPy's own formulas (they are small); ranges and bin estimators read a few
scalars from the device."""
from __future__ import annotations

import builtins
import functools
import math
import operator

import numpy as _np

import tegula.tile as _tt

from . import _core
from ._common import _arr, _is_complex
from ._indexing import _launch
from ._creation import asarray, ascontiguousarray, zeros
from ._manipulation import stack
from ._sort import percentile, searchsorted
from ._ufuncs import where

_T = 512  # elements per block of the interpreter's counting kernel


@_tt.kernel
def _count(idx, w, counts, n: _tt.int64, nb: _tt.int64, HAS_W: _tt.Constant[bool], T: _tt.Constant[int]):
    """counts[k] += (w[i] or 1) for every i with idx[i] == k, 0 <= k < nb (the CPU interpreter's count)."""
    b = _tt.bid(0)
    k = _tt.load(idx, index=(b,), shape=(T,))
    valid = (_tt.arange(T).astype(_tt.int64) + b.astype(_tt.int64) * T < n) & (k >= 0) & (k < nb)
    if HAS_W:
        v = _tt.load(w, index=(b,), shape=(T,)).astype(counts.dtype)
    else:
        v = _tt.full((T,), 1, counts.dtype)
    _tt.atomic_add(counts, (k,), v, mask=valid)


def _counts(idx, nb, weights=None):
    """Per-bin totals of `weights` (or of ones) over the flat int64 bin indices `idx`; indices outside 0..nb-1 are
    skipped. int64 counts, float64 sums of real weights."""
    dev = _core.device_of(idx)
    acc = "int64" if weights is None or not (weights._dtype_name.startswith(("float", "bfloat"))) else "float64"
    idx = ascontiguousarray(idx).reshape(-1)
    n = idx.shape[0]
    w = idx if weights is None else ascontiguousarray(weights.astype(acc)).reshape(-1)
    if idx._device_id >= 0:  # the GPU: privatised shared-memory counts (cpp/tegula/libs/bin_count_arrays.hpp)
        return _core._tegula.bin_counts(idx, nb, None if weights is None else w)
    counts = zeros((nb,), acc, device=dev)
    if n == 0 or nb == 0:
        return counts
    _launch(_count, -(-n // _T), (idx, w, counts, n, nb, weights is not None, _T), idx._device_id)
    return counts


_UNIFORM_EDGES = {"float32": "float32", "float64": "float64", "int32": "float64", "int64": "float64"}


def _uniform_counts(a, edges, nb, weights):
    """histogram's counts over equal bins on a GPU, each value's bin found and counted in one pass
    (cpp/tegula/libs/bin_count_arrays.hpp), in NumPy's result dtype; None where that pass does not apply (the CPU, other
    value dtypes, complex weights): the binary search and the separate count then run."""
    if a._device_id < 0 or _UNIFORM_EDGES.get(a._dtype_name) != edges._dtype_name:
        return None
    if weights is not None and _is_complex(weights):
        return None
    wacc = None if weights is None else ("float64" if weights._dtype_name.startswith(("float", "bfloat")) else "int64")
    w = None if weights is None else weights.astype(wacc)
    counts = _core._tegula.bin_counts_uniform(a, edges, w)  # (cpp/tegula/libs/bin_count_arrays.hpp)
    return counts if weights is None else counts.astype(weights._dtype_name)


def _weighted_counts(idx, nb, weights):
    """_counts in NumPy's histogram result dtype: int64 without weights, the weights' dtype with them."""
    if weights is None:
        return _counts(idx, nb)
    if _is_complex(weights):
        re, im = _counts(idx, nb, weights.real), _counts(idx, nb, weights.imag)
        return (re + 1j * im).astype(weights._dtype_name)
    c = _counts(idx, nb, weights.astype("int64") if weights._dtype_name == "bool" else weights)
    return c.astype(weights._dtype_name)


def _bin_of(x, edges):
    """The bin of each element of x among the sorted `edges` (last bin closed on the right); -1 or len(edges) - 1
    when outside, NaN included."""
    nb = edges.shape[0] - 1
    i = searchsorted(edges, x, side="right") - 1
    return where(x == edges[-1], nb - 1, i)


def _host_float(a):
    """The host NumPy float dtype bin edges of `a` take: a's own float dtype, float64 for integers and bool."""
    name = a._dtype_name
    if name == "bfloat16":
        return _np.dtype("float32")
    return _np.dtype(name) if name.startswith("float") else _np.dtype("float64")


def _min_max(a):
    """a's min and max as NumPy scalars of its dtype (float32 for bfloat16), read with one synchronisation."""
    both = _np.asarray(stack([a.min(), a.max()]).get())
    if a._dtype_name == "bfloat16":
        both = both.astype(_np.float32)
    return both[0], both[1]


def _is_float_name(a):
    return a._dtype_name.startswith(("float", "bfloat"))


def _outer_edges(a, range):
    """NumPy's _get_outer_edges: the supplied range, or the data's min and max (widened by 0.5 when equal)."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = _min_max(a)
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _ptp(x):
    lo, hi = _min_max(x)
    return float(hi) - float(lo)


def _bw_sqrt(x):
    return _ptp(x) / math.sqrt(x.size)


def _bw_sturges(x):
    return _ptp(x) / (math.log2(x.size) + 1.0)


def _bw_rice(x):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _bw_scott(x):
    return (24.0 * math.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(x.astype("float64").std())


def _bw_doane(x):
    if x.size > 2:
        sg1 = math.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        xf = x.astype("float64")
        sigma = float(xf.std())
        if sigma > 0.0:
            g1 = float((((xf - xf.mean()) / sigma) ** 3).mean())
            return _ptp(x) / (1.0 + math.log2(x.size) + math.log2(1.0 + abs(g1) / sg1))
    return 0.0


def _bw_fd(x):
    q75, q25 = _np.asarray(percentile(x, [75, 25]).get()).tolist()
    return 2.0 * (q75 - q25) * x.size ** (-1.0 / 3.0)


def _bw_auto(x):
    fd, sturges = _bw_fd(x), _bw_sturges(x)
    return min(fd, sturges) if fd else sturges


def _bw_stone(x):
    raise NotImplementedError("bins='stone' is not implemented in tegula.numpy (it minimises a cross-validation "
                              "estimate over many trial histograms); use another estimator or an explicit bin count")


_ESTIMATORS = {"auto": _bw_auto, "fd": _bw_fd, "doane": _bw_doane, "rice": _bw_rice, "scott": _bw_scott,
               "sqrt": _bw_sqrt, "sturges": _bw_sturges, "stone": _bw_stone}


def _bin_edges(a, bins, range, weights):
    """NumPy's _get_bin_edges: (edges as a device array, number of equal bins or None)."""
    dev = _core.device_of(a)
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        first, last = _outer_edges(a, range)
        x = a
        if range is not None:
            x = a[(a >= first) & (a <= last)]
        if x.size == 0:
            n = 1
        else:
            width = _ESTIMATORS[bins](x)
            if width and not _is_float_name(a) and width < 1:
                width = 1  # integer data: bins at least one wide (NumPy 2.1)
            n = int(math.ceil((float(last) - float(first)) / width)) if width else 1
    elif _np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
    elif _np.ndim(bins) == 1:
        edges = asarray(bins, device=dev)
        if edges.size > 1 and bool((edges[:-1] > edges[1:]).any()):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    else:
        raise ValueError("`bins` must be 1d, when an array")
    return asarray(_equal_edges(first, last, n, _host_float(a), bool(_np.signbit(first)), bool(_np.signbit(last))),
                   device=dev), n


@functools.lru_cache(maxsize=64)
def _equal_edges(first, last, n, dtype, *signs):
    """NumPy's n equal bins' edges from first to last (host, read-only; remembered: a loop of histograms over one
    range computes them once). `signs` are first's and last's sign bits: 0.0 == -0.0 must not share an entry."""
    edges = _np.linspace(first, last, n + 1, endpoint=True, dtype=dtype)
    edges.flags.writeable = False
    return edges


def _prepare(a, weights):
    a = _arr(a)
    if a._dtype_name == "bool":
        import warnings

        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.", RuntimeWarning,
                      stacklevel=3)
        a = a.astype("uint8")
    if _is_complex(a):
        raise TypeError("histogram of complex arrays is not supported: NumPy orders complex numbers "
                        "lexicographically, which a histogram's bins do not")
    if weights is not None:
        weights = _arr(weights, a)
        if tuple(weights.shape) != tuple(a.shape):
            raise ValueError("weights should have the same shape as a.")
        weights = weights._reshape((-1,))
    return a._reshape((-1,)), weights


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges `histogram` would use (NumPy's estimators for string `bins`, except 'stone')."""
    a, weights = _prepare(a, weights)
    return _bin_edges(a, bins, range, weights)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or weight sums) of a's elements in each bin, and the bin edges, both on a's device."""
    a, weights = _prepare(a, weights)
    edges, equal = _bin_edges(a, bins, range, weights)
    nb = edges.shape[0] - 1
    hist = _uniform_counts(a, edges, nb, weights) if equal is not None else None
    if hist is None:
        hist = _weighted_counts(_bin_of(a, edges), nb, weights)
    if density:
        db = (edges[1:] - edges[:-1]).astype("float64")
        return hist / db / hist.sum(), edges
    return hist, edges


def bincount(x, weights=None, minlength=0):
    """Occurrences of each non-negative integer in the 1-D x (weighted sums, float64, with weights)."""
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else "object of too small depth for desired array")
    if not (x._dtype_name.startswith(("int", "uint")) or x._dtype_name == "bool"):
        raise TypeError(f"Cannot cast array data from dtype('{x._dtype_name}') to dtype('int64') according to the "
                        "rule 'safe'")
    minlength = operator.index(minlength) if minlength is not None else 0
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        weights = _arr(weights, x)
        if tuple(weights.shape) != tuple(x.shape):
            raise ValueError("The weights and list don't have the same length.")
    n = 0
    if x.size:
        lo, hi = _min_max(x)
        if lo < 0:
            raise ValueError("'list' argument must have no negative elements")
        n = int(hi) + 1
    nb = max(n, minlength)
    idx = x.astype("int64")
    if weights is None:
        return _counts(idx, nb)
    if _is_complex(weights):
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule 'safe'")
    return _counts(idx, nb, weights.astype("float64"))


def digitize(x, bins, right=False):
    """The index of the bin each element of x falls in, for monotonically increasing or decreasing `bins`."""
    x = _arr(x)
    if _is_complex(x):
        raise TypeError("x may not be complex")
    bins = _arr(bins, x)
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else "object of too small depth for desired array")
    increasing, decreasing = True, True
    if bins.size > 1:
        d = bins[1:] - bins[:-1] if _is_float_name(bins) else (bins[1:] >= bins[:-1]).astype("int8") * 2 - 1
        from ._manipulation import stack

        inc, dec = _np.asarray(stack([(d >= 0).all(), (d <= 0).all()]).get()).tolist()
        increasing, decreasing = bool(inc), bool(dec)
        if not (increasing or decreasing):
            raise ValueError("bins must be monotonically increasing or decreasing")
    if increasing:
        return searchsorted(bins, x, side="left" if right else "right")
    return bins.shape[0] - searchsorted(bins[::-1], x, side="left" if right else "right")


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """The multidimensional histogram of the (N, D) sample (or a sequence of D arrays): float64 counts and D edges."""
    if isinstance(sample, (list, tuple)):
        like = next((s for s in sample if isinstance(s, _core.ndarray)), None)
        sample = stack([_arr(s, like) if like is not None else _arr(s) for s in sample], axis=1)
    sample = _arr(sample)
    if sample.ndim < 2:
        sample = sample.reshape(-1, 1)
    if sample.ndim != 2:
        raise ValueError(f"the sample must be (N, D) or a sequence of D arrays (got shape {tuple(sample.shape)})")
    n, d = sample.shape
    dev = _core.device_of(sample)
    try:
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = d * [bins]
    if range is None:
        range = d * [None]
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    if weights is not None:
        weights = _arr(weights, sample)
    edges, nbin, dedges = [], [], []
    for i in builtins.range(d):
        col = sample[:, i]
        if _np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            first, last = _outer_edges(col, range[i])
            try:
                k = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            e = asarray(_np.linspace(first, last, k + 1), device=dev)
        elif _np.ndim(bins[i]) == 1:
            e = asarray(bins[i], device=dev)
            if e.size > 1 and bool((e[:-1] > e[1:]).any()):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        edges.append(e)
        nbin.append(e.shape[0] + 1)
        dedges.append((e[1:] - e[:-1]).astype("float64"))
    flat = None
    for i in builtins.range(d):
        col = sample[:, i]
        c = searchsorted(edges[i], col, side="right")
        c = where(col == edges[i][-1], c - 1, c)
        flat = c if flat is None else flat * nbin[i] + c
    total = math.prod(nbin)
    if flat is None or n == 0:
        from ._creation import zeros

        hist = zeros(tuple(nbin), "float64", device=dev)
    else:
        w = None if weights is None else weights.reshape(-1).astype("float64")
        hist = _counts(flat, total, w).astype("float64").reshape(tuple(nbin))
    hist = hist[(slice(1, -1),) * d]
    if density:
        s = hist.sum()
        for i in builtins.range(d):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = hist / dedges[i].reshape(shape)
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """The 2-D histogram of (x, y): float64 counts, x edges, y edges."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb != 1 and nb != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]

