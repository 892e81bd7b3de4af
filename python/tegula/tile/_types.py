"""Element types and compile-time constants of the tile language."""
from __future__ import annotations


class dtype:
    """A tile element type; `tt.float32` etc. Compares equal to its NumPy name."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"tt.{self.name}"

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name or other == self.name

    def __hash__(self):
        return hash(self.name)


NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2")
DTYPES = {n: dtype(n) for n in NAMES}
bool_ = DTYPES["bool"]
int8, int16, int32, int64 = (DTYPES[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (DTYPES[n] for n in ("uint8", "uint16", "uint32", "uint64"))
float16, bfloat16, float32, float64 = (DTYPES[n] for n in ("float16", "bfloat16", "float32", "float64"))
float8_e4m3fn, float8_e5m2 = DTYPES["float8_e4m3fn"], DTYPES["float8_e5m2"]  # torch's / ml_dtypes' 8-bit floats


def dtype_name(d) -> str:
    """tt.float32, 'float32', numpy.float32, numpy.dtype('float32'), torch.float32 -> 'float32'."""
    if isinstance(d, dtype):
        return d.name
    if isinstance(d, str):
        name = d
    elif d is bool:
        name = "bool"
    elif d is float:
        name = "float64"
    elif d is int:
        name = "int64"
    else:
        name = getattr(d, "name", None) or getattr(d, "__name__", None) or str(d)
        name = str(name).replace("torch.", "")
    aliases = {"bool_": "bool", "half": "float16", "float": "float32", "double": "float64", "long": "int64",
               "int": "int32"}
    name = aliases.get(name, name)
    if name not in DTYPES:
        raise TypeError(f"unsupported tile dtype {d!r}; use one of {', '.join(NAMES)}")
    return name


def is_float(name: str) -> bool:
    return name in ("float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2")


def is_int(name: str) -> bool:
    return name.startswith("int") or name.startswith("uint")


class _ConstantMeta(type):
    def __getitem__(cls, item):
        return cls


class Constant(metaclass=_ConstantMeta):
    """Annotate a kernel parameter `n: tt.Constant[int]` to compile it in as a constant (one
    specialization per distinct value), so it can be used as a tile shape."""
