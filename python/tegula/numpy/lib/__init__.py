"""tegula.numpy.lib: the parts of numpy.lib that work on tegula arrays (stride_tricks)."""
from . import stride_tricks  # noqa: F401
