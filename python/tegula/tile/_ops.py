"""The tile language's operations. They only have meaning inside a @tt.kernel function, where the
front end translates calls to them into tile IR; called from plain Python they raise."""
from __future__ import annotations


class _TileOp:
    __slots__ = ("name", "__doc__")

    def __init__(self, name, doc):
        self.name = name
        self.__doc__ = doc

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"tt.{self.name} can only be used inside a @tt.kernel function "
                           "(or run the kernel with tt.launch(..., interpret=True) on the CPU)")

    def __repr__(self):
        return f"<tile op tt.{self.name}>"


def _op(name, doc):
    return _TileOp(name, doc)


bid = _op("bid", "bid(axis=0): this block's index along a grid axis (int32).")
num_blocks = _op("num_blocks", "num_blocks(axis=0): the grid's extent along an axis (int32).")
num_tiles = _op("num_tiles", "num_tiles(array, axis, shape): tiles of `shape` needed to cover the array along `axis`.")
load = _op("load", "load(array, index, shape, padding='zero'): the tile at tile index `index` (counts tiles); "
                   "out-of-bounds elements get padding ('zero', 'neg_inf', 'pos_inf', 'nan').")
store = _op("store", "store(array, index, tile): writes a tile at tile index `index`; out-of-bounds elements are skipped.")
gather = _op("gather", "gather(array, offsets, mask=None, padding='zero'): elements at per-axis element offsets.")
scatter = _op("scatter", "scatter(array, offsets, value, mask=None): writes elements at per-axis element offsets.")
atomic_add = _op("atomic_add", "atomic_add(array, offsets, value, mask=None): atomically adds; returns old values.")
atomic_max = _op("atomic_max", "atomic_max(array, offsets, value, mask=None)")
atomic_min = _op("atomic_min", "atomic_min(array, offsets, value, mask=None)")
atomic_cas = _op("atomic_cas", "atomic_cas(array, offsets, compare, value, mask=None)")
arange = _op("arange", "arange(n): int32 tile 0..n-1.")
full = _op("full", "full(shape, value, dtype)")
zeros = _op("zeros", "zeros(shape, dtype=tt.float32)")
ones = _op("ones", "ones(shape, dtype=tt.float32)")
astype = _op("astype", "astype(tile, dtype): converts values (float to int truncates).")
bitcast = _op("bitcast", "bitcast(tile, dtype): reinterprets bits (same size).")
reshape = _op("reshape", "reshape(tile, shape)")
permute = _op("permute", "permute(tile, axes)")
transpose = _op("transpose", "transpose(tile, axes=None): reverses the axes by default.")
expand_dims = _op("expand_dims", "expand_dims(tile, axis)")
broadcast_to = _op("broadcast_to", "broadcast_to(tile, shape)")
where = _op("where", "where(cond, a, b)")
minimum = _op("minimum", "minimum(a, b): elementwise, NaN-propagating.")
maximum = _op("maximum", "maximum(a, b): elementwise, NaN-propagating.")
pow = _op("pow", "pow(a, b)")
atan2 = _op("atan2", "atan2(y, x): the angle of (x, y), floats.")
hypot = _op("hypot", "hypot(x, y): sqrt(x*x + y*y) without overflow, floats.")
copysign = _op("copysign", "copysign(x, y): |x| with the sign of y, floats.")
mma = _op("mma", "mma(a, b, acc, allow_tf32=False): acc + a @ b for 2-D tiles a (M, K), b (K, N), acc (M, N); "
                 "float16/bfloat16/float32 inputs accumulate in a float32 acc (allow_tf32 lets float32 inputs use TF32 "
                 "tensor cores), float64 in float64, integers in int32 or int64. Lowered to tensor cores where it can be.")
matmul = _op("matmul", "matmul(a, b, allow_tf32=False): a @ b with NumPy's result dtype (accumulated in float32 for "
                       "16-bit floats); the same as the @ operator.")
sum = _op("sum", "sum(tile, axis=None, keepdims=False)")
prod = _op("prod", "prod(tile, axis=None, keepdims=False)")
max = _op("max", "max(tile, axis=None, keepdims=False)")
min = _op("min", "min(tile, axis=None, keepdims=False)")
argmax = _op("argmax", "argmax(tile, axis, keepdims=False): int32 index of the first maximum.")
argmin = _op("argmin", "argmin(tile, axis, keepdims=False)")
cumsum = _op("cumsum", "cumsum(tile, axis=0, reverse=False)")
cumprod = _op("cumprod", "cumprod(tile, axis=0, reverse=False)")
reduce = _op("reduce", "reduce(tile, axis, combine, identity, keepdims=False): combine is an associative, commutative function (a, b) -> c; identity is its neutral element.")
scan = _op("scan", "scan(tile, axis, combine, identity, reverse=False): combine is an associative function (a, b) -> c; identity is its neutral element.")
printf = _op("printf", "printf(format, *tiles): prints from the device ('{}' per tile).")
device_assert = _op("device_assert", "device_assert(cond, message): fails the launch where cond is false.")

UNARY = {"exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt", "rsqrt": "rsqrt",
         "sin": "sin", "cos": "cos", "tanh": "tanh", "abs": "abs", "floor": "floor", "ceil": "ceil",
         "negative": "neg", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "log10": "log10", "log1p": "log1p", "expm1": "expm1", "trunc": "trunc", "rint": "rint"}
for _name in UNARY:
    globals()[_name] = _op(_name, f"{_name}(tile): elementwise.")

REDUCTIONS = {"sum": "sum", "prod": "prod", "max": "max", "min": "min", "argmax": "argmax", "argmin": "argmin"}
