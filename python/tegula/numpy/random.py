"""tegula.numpy.random: numpy.random's Generator API over Philox4x32-10 (_generator: Generator, Philox,
default_rng) and its legacy module-level functions and RandomState (_random_global: seed, rand, randn, ...)."""
from __future__ import annotations

from ._generator import *  # noqa: F401,F403
from ._generator import __all__ as _generator_names
from ._random_global import *  # noqa: F401,F403
from ._random_global import __all__ as _global_names

__all__ = _generator_names + _global_names
