"""The tt.* operations as IR emitters (shapes, dtypes and argument checks; the builder infers types)."""
from __future__ import annotations

import builtins

from .. import _tegula
from . import _types
from ._values import Array, Tile, is_static_number

_PADDINGS = ("zero", "neg_inf", "pos_inf", "nan")

# ops.def's traits ({op text: {"category", "float_math", ...}}), read once from the C++ core: the only list of them.
OP_TRAITS = _tegula.op_traits()

# Float math (exp, sqrt, floor, ...): integer and bool tiles are converted to NumPy's float loop dtype first.
_FLOAT_ONLY = frozenset(op for op, t in OP_TRAITS.items() if t["float_math"])


def _float_for(dtype: str) -> str:
    """NumPy's result dtype of a float-only function (exp, sqrt, ...) of an integer or bool tile (array/promotion)."""
    return _tegula.float_loop(dtype)


class Emitter:
    def __init__(self, builder, filename):
        self.b = builder
        self.filename = filename
        self.line = 0

    # ---- values ------------------------------------------------------------------------------
    def tile(self, vid):
        kind, dtype, shape = self.b.type_of(vid)
        return Tile(vid, dtype, shape)

    def as_tile(self, v, like=None):
        if isinstance(v, Tile):
            return v
        if not is_static_number(v):
            raise TypeError(f"{self.filename}:{self.line}: expected a tile or a number, got {type(v).__name__}")
        if like is not None:
            return self.tile(self.b.weak_scalar(float(v), not isinstance(v, float), like.id))
        dtype = "bool" if isinstance(v, bool) else "float32" if isinstance(v, float) else \
            ("int32" if -2**31 <= v < 2**31 else "int64")
        return self.tile(self.b.constant(v, dtype, []))

    def cast(self, t, dtype):
        return t if t.dtype == dtype else self.tile(self.b.cast(t.id, _types.dtype_name(dtype)))

    def to_bool(self, t, node=None):
        t = self.as_tile(t)
        return t if t.dtype == "bool" else self.tile(self.b.binary("ne", t.id, self.b.weak_scalar(0.0, True, t.id)))

    def index_scalar(self, v, what):
        if isinstance(v, Tile):
            if v.shape != () or not _types.is_int(v.dtype):
                raise TypeError(f"{self.filename}:{self.line}: {what} must be integer scalars, got {v.dtype}{list(v.shape)}")
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{self.filename}:{self.line}: {what} must be integers, got {v!r}")
        return self.tile(self.b.constant(v, "int32", []))

    def array(self, a, op):
        if not isinstance(a, Array):
            raise TypeError(f"{self.filename}:{self.line}: tt.{op} needs a kernel array parameter as its first "
                            f"argument, got {type(a).__name__}")
        return a

    def shape(self, shape, what="shape"):
        if isinstance(shape, int):
            shape = (shape,)
        if not isinstance(shape, tuple) or not builtins.all(isinstance(s, int) and s > 0 for s in shape):
            raise ValueError(f"{self.filename}:{self.line}: {what} must be a tuple of positive constant ints "
                             f"(use tt.Constant[int] parameters), got {shape!r}")
        return [int(s) for s in shape]

    def where(self, cond, a, b):
        a = self.as_tile(a, like=b if isinstance(b, Tile) else None) if not isinstance(a, Tile) else a
        b = self.as_tile(b, like=a)
        return self.tile(self.b.where(self.to_bool(cond).id, a.id, b.id))

    # ---- sources -----------------------------------------------------------------------------
    def op_bid(self, axis=0):
        return self.tile(self.b.create("block_id", [], {"axis": axis})[0])

    def op_num_blocks(self, axis=0):
        return self.tile(self.b.create("num_blocks", [], {"axis": axis})[0])

    def op_num_tiles(self, array, axis, shape):
        a = self.array(array, "num_tiles")
        shape = self.shape(shape)
        return self.tile(self.b.create("num_tiles", [a.id], {"axis": axis, "tile": shape[axis]})[0])

    def op_arange(self, n):
        return self.tile(self.b.create("arange", [], {"n": self.shape(n, "arange's size")[0]})[0])

    def op_full(self, shape, value, dtype=None):
        name = _types.dtype_name(dtype) if dtype is not None else ("float32" if isinstance(value, float) else "int32")
        return self.tile(self.b.constant(value, name, self.shape(shape)))

    def op_zeros(self, shape, dtype=_types.float32):
        return self.op_full(shape, 0, dtype)

    def op_ones(self, shape, dtype=_types.float32):
        return self.op_full(shape, 1, dtype)

    # ---- matrix multiply -------------------------------------------------------------------
    def op_mma(self, a, b, acc, allow_tf32=False):
        for name, t in (("a", a), ("b", b), ("acc", acc)):
            if not isinstance(t, Tile) or t.ndim != 2:
                raise ValueError(f"{self.filename}:{self.line}: tt.mma needs 2-D tiles, {name} is "
                                 f"{t.dtype + str(list(t.shape)) if isinstance(t, Tile) else type(t).__name__}")
        if not isinstance(allow_tf32, bool):
            raise TypeError(f"{self.filename}:{self.line}: allow_tf32 must be a constant bool")
        return self.tile(self.b.create("mma", [a.id, b.id, acc.id], {"tf32": int(allow_tf32)})[0])

    def op_matmul(self, a, b, allow_tf32=False):
        for name, t in (("a", a), ("b", b)):
            if not isinstance(t, Tile) or t.ndim != 2:
                raise ValueError(f"{self.filename}:{self.line}: a @ b needs 2-D tiles, {name} is "
                                 f"{t.dtype + str(list(t.shape)) if isinstance(t, Tile) else type(t).__name__}")
        if a.dtype != b.dtype:
            raise TypeError(f"{self.filename}:{self.line}: a @ b needs tiles of one dtype, got {a.dtype} and {b.dtype} "
                            "(convert one with .astype)")
        if a.shape[1] != b.shape[0]:
            raise ValueError(f"{self.filename}:{self.line}: a @ b: inner extents differ, {list(a.shape)} @ {list(b.shape)}")
        d = a.dtype
        acc = "float64" if d == "float64" else "float32" if _types.is_float(d) else \
            "int64" if d in ("int64", "uint64", "uint32") else "int32"
        if d == "bool":
            raise TypeError(f"{self.filename}:{self.line}: a @ b of bool tiles is not supported")
        zero = self.tile(self.b.constant(0, acc, [a.shape[0], b.shape[1]]))
        return self.cast(self.op_mma(a, b, zero, allow_tf32), d)

    # ---- memory ------------------------------------------------------------------------------
    def op_load(self, array, index, shape, padding="zero"):
        a = self.array(array, "load")
        index = index if isinstance(index, tuple) else (index,)
        if len(index) != a.ndim:
            raise ValueError(f"{self.filename}:{self.line}: tt.load of a {a.ndim}-d array needs {a.ndim} tile "
                             f"indices, got {len(index)}")
        if padding not in _PADDINGS:
            raise ValueError(f"{self.filename}:{self.line}: padding must be one of {_PADDINGS}, got {padding!r}")
        idx = [self.index_scalar(i, "tile indices").id for i in index]
        return self.tile(self.b.create("load", [a.id] + idx, {"shape": self.shape(shape), "padding": padding})[0])

    def op_store(self, array, index, tile):
        a = self.array(array, "store")
        index = index if isinstance(index, tuple) else (index,)
        if len(index) != a.ndim:
            raise ValueError(f"{self.filename}:{self.line}: tt.store into a {a.ndim}-d array needs {a.ndim} tile "
                             f"indices, got {len(index)}")
        t = self.cast(self.as_tile(tile), a.dtype)
        if t.ndim != a.ndim:
            raise ValueError(f"{self.filename}:{self.line}: tt.store of a rank-{t.ndim} tile into a {a.ndim}-d array; "
                             "reshape the tile to the array's rank")
        idx = [self.index_scalar(i, "tile indices").id for i in index]
        self.b.create("store", [a.id] + idx + [t.id])

    def _offsets(self, a, offsets, extra, op):
        offsets = offsets if isinstance(offsets, tuple) else (offsets,)
        if len(offsets) != a.ndim:
            raise ValueError(f"{self.filename}:{self.line}: tt.{op} on a {a.ndim}-d array needs {a.ndim} offset tiles")
        tiles = [self.as_tile(o) for o in offsets] + [self.as_tile(x) for x in extra]
        shape = ()
        for t in tiles:
            shape = _broadcast(shape, t.shape, self)
        return [self.tile(self.b.broadcast(t.id, list(shape))) for t in tiles], list(shape)

    def _masked(self, op, array, offsets, values, mask, attrs):
        a = self.array(array, op)
        values = [self.cast(self.as_tile(v), a.dtype) for v in values]
        tiles, shape = self._offsets(a, offsets, values + ([mask] if mask is not None else []), op)
        if mask is not None:
            tiles[-1] = self.to_bool(tiles[-1])
        attrs = dict(attrs, has_mask=int(mask is not None))
        return self.b.create(op, [a.id] + [t.id for t in tiles], attrs)

    def op_gather(self, array, offsets, mask=None, padding="zero"):
        if padding not in _PADDINGS:
            raise ValueError(f"{self.filename}:{self.line}: padding must be one of {_PADDINGS}")
        return self.tile(self._masked("gather", array, offsets, [], mask, {"padding": padding})[0])

    def op_scatter(self, array, offsets, value, mask=None):
        self._masked("scatter", array, offsets, [value], mask, {})

    def op_atomic_add(self, array, offsets, value, mask=None):
        return self.tile(self._masked("atomic_add", array, offsets, [value], mask, {})[0])

    def op_atomic_max(self, array, offsets, value, mask=None):
        return self.tile(self._masked("atomic_max", array, offsets, [value], mask, {})[0])

    def op_atomic_min(self, array, offsets, value, mask=None):
        return self.tile(self._masked("atomic_min", array, offsets, [value], mask, {})[0])

    def op_atomic_cas(self, array, offsets, compare, value, mask=None):
        return self.tile(self._masked("atomic_cas", array, offsets, [compare, value], mask, {})[0])

    # ---- elementwise -------------------------------------------------------------------------
    def op_unary(self, e, op, x):
        t = self.as_tile(x)
        if op in _FLOAT_ONLY:
            t = self.cast(t, _float_for(t.dtype))
        return self.tile(self.b.create(op, [t.id])[0])

    def _binary(self, op, a, b):
        if not isinstance(a, Tile) and not isinstance(b, Tile):
            a = self.as_tile(a)
        if not isinstance(a, Tile):
            a = self.as_tile(a, like=b)
        if not isinstance(b, Tile):
            b = self.as_tile(b, like=a)
        return self.tile(self.b.binary(op, a.id, b.id))

    def op_minimum(self, a, b):
        return self._binary("minimum", a, b)

    def op_maximum(self, a, b):
        return self._binary("maximum", a, b)

    def op_pow(self, a, b):
        return self._binary("pow", a, b)

    def op_atan2(self, a, b):
        return self._binary("atan2", a, b)

    def op_hypot(self, a, b):
        return self._binary("hypot", a, b)

    def op_copysign(self, a, b):
        return self._binary("copysign", a, b)

    def op_where(self, cond, a, b):
        return self.where(cond, a, b)

    def op_astype(self, x, dtype):
        return self.cast(self.as_tile(x), _types.dtype_name(dtype))

    def op_bitcast(self, x, dtype):
        return self.tile(self.b.create("bitcast", [self.as_tile(x).id], {"dtype": ("dtype", _types.dtype_name(dtype))})[0])

    # ---- shape -------------------------------------------------------------------------------
    def op_reshape(self, x, shape):
        return self.tile(self.b.create("reshape", [self.as_tile(x).id], {"shape": self.shape(shape)})[0])

    def op_permute(self, x, axes):
        return self.tile(self.b.create("permute", [self.as_tile(x).id], {"perm": list(axes)})[0])

    def op_transpose(self, x, axes=None):
        t = self.as_tile(x)
        return self.op_permute(t, tuple(reversed(range(t.ndim))) if axes is None else axes)

    def op_expand_dims(self, x, axis):
        return self.tile(self.b.create("expand_dims", [self.as_tile(x).id], {"axis": axis})[0])

    def op_broadcast_to(self, x, shape):
        return self.tile(self.b.broadcast(self.as_tile(x).id, self.shape(shape)))

    # ---- reductions and scans ----------------------------------------------------------------
    def _axis(self, op, t, a):
        """Axis `a` of tile t, normalised; AxisError (NumPy's) naming the user's line when out of range."""
        if not isinstance(a, int) or isinstance(a, bool) or not -t.ndim <= a < t.ndim:
            from .. import _tegula

            raise _tegula.AxisError(f"{self.filename}:{self.line}: tt.{op}: axis {a} is out of bounds for a tile "
                                    f"of rank {t.ndim}")
        return a % t.ndim

    def _reduce(self, op, x, axis, keepdims):
        t = self.as_tile(x)
        if axis is None:
            if OP_TRAITS[op]["result"] == "index" and t.ndim != 1:  # argmax, argmin
                raise ValueError(f"{self.filename}:{self.line}: tt.{op} needs an axis for a rank-{t.ndim} tile")
            flat = self.op_reshape(t, (max(1, _numel(t.shape)),)) if t.ndim != 1 else t
            r = self.tile(self.b.create(op, [flat.id], {"axis": 0, "keepdims": 0})[0])
            return self.op_reshape(r, (1,) * t.ndim) if keepdims and t.ndim > 0 else r
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = sorted({self._axis(op, t, a) for a in axes}, reverse=True)
        for a in axes:
            t = self.tile(self.b.create(op, [t.id], {"axis": a, "keepdims": int(bool(keepdims))})[0])
        return t

    def op_sum(self, x, axis=None, keepdims=False):
        return self._reduce("sum", x, axis, keepdims)

    def op_prod(self, x, axis=None, keepdims=False):
        return self._reduce("prod", x, axis, keepdims)

    def op_max(self, x, axis=None, keepdims=False):
        return self._reduce("max", x, axis, keepdims)

    def op_min(self, x, axis=None, keepdims=False):
        return self._reduce("min", x, axis, keepdims)

    def op_argmax(self, x, axis=None, keepdims=False):
        return self._reduce("argmax", x, axis, keepdims)

    def op_argmin(self, x, axis=None, keepdims=False):
        return self._reduce("argmin", x, axis, keepdims)

    def op_cumsum(self, x, axis=0, reverse=False):
        t = self.as_tile(x)
        return self.tile(self.b.create("cumsum", [t.id], {"axis": self._axis("cumsum", t, axis), "reverse": int(reverse)})[0])

    def op_cumprod(self, x, axis=0, reverse=False):
        t = self.as_tile(x)
        return self.tile(self.b.create("cumprod", [t.id], {"axis": self._axis("cumprod", t, axis), "reverse": int(reverse)})[0])

    # ---- debugging ---------------------------------------------------------------------------
    def op_printf(self, fmt, *values):
        if not isinstance(fmt, str):
            raise TypeError(f"{self.filename}:{self.line}: tt.printf's first argument must be a format string")
        self.b.create("print", [self.as_tile(v).id for v in values], {"format": fmt})

    def op_device_assert(self, cond, message="device assertion failed"):
        self.b.create("assert", [self.to_bool(cond).id], {"message": str(message)})


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _broadcast(a, b, em):
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            raise ValueError(f"{em.filename}:{em.line}: shapes {tuple(a)} and {tuple(b)} cannot be broadcast together")
        out.append(max(x, y))
    return tuple(reversed(out))
