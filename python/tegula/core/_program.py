"""Program and ProgramOptions: CUDA C++ source -> ObjectCode through NVRTC and tegula's caches."""
from __future__ import annotations

import dataclasses
import os
import re
from typing import Iterable, Mapping, Sequence

from .. import _tegula

_DEFAULT_ARCH_WITHOUT_GPU = 90  # PTX for compute_90 when no GPU is present (the H100/H200 generation)


def _toolkit_include_dirs():
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and os.path.isfile(os.path.join(home, "include", "cuda_fp16.h")):
            return [os.path.join(home, "include")]
    return []


_TOOLKIT_INCLUDES = None
# The name of the first kernel defined in a source (`__global__ void NAME(`, any qualifiers between).
_FIRST_KERNEL = re.compile(r"__global__\s+(?:(?:__launch_bounds__\s*\([^)]*\)|[\w:<>]+)\s*)*?void\s+"
                           r"(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")


def _parse_arch(arch) -> tuple[int, bool]:
    """'sm_90a' / 'compute_90' / '90' / 90 -> (90, arch_specific)."""
    if isinstance(arch, int):
        return arch, False
    text = str(arch).lower()
    for prefix in ("sm_", "compute_"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    specific = text.endswith("a")
    digits = text[:-1] if specific else text
    if not digits.isdigit():
        raise ValueError(f"arch must look like 'sm_90', 'sm_90a' or 90, got {arch!r}")
    return int(digits), specific


@dataclasses.dataclass
class ProgramOptions:
    """NVRTC options. `arch=None` means the current device's exact architecture."""

    arch: str | int | None = None
    std: str | None = "c++17"
    include_path: Sequence[str] = ()
    define_macro: Sequence[str | tuple[str, str]] = ()
    debug: bool = False
    lineinfo: bool = False
    use_fast_math: bool = False
    ftz: bool | None = None
    prec_div: bool | None = None
    prec_sqrt: bool | None = None
    fma: bool | None = None
    max_register_count: int | None = None
    relocatable_device_code: bool = False
    extra_options: Sequence[str] = ()
    include_toolkit_headers: bool = True

    def to_nvrtc(self) -> list[str]:
        global _TOOLKIT_INCLUDES
        opts = []
        if self.std:
            opts.append(f"--std={self.std}")
        for path in self.include_path:
            opts.append(f"-I{path}")
        if self.include_toolkit_headers:
            if _TOOLKIT_INCLUDES is None:
                _TOOLKIT_INCLUDES = _toolkit_include_dirs()
            opts.extend(f"-I{p}" for p in _TOOLKIT_INCLUDES)
        for macro in self.define_macro:
            if isinstance(macro, tuple):
                opts.append(f"-D{macro[0]}={macro[1]}")
            else:
                opts.append(f"-D{macro}")
        if self.debug:
            opts.append("-G")
        if self.lineinfo:
            opts.append("-lineinfo")
        if self.use_fast_math:
            opts.append("--use_fast_math")
        for flag, value in (("ftz", self.ftz), ("prec-div", self.prec_div), ("prec-sqrt", self.prec_sqrt), ("fmad", self.fma)):
            if value is not None:
                opts.append(f"--{flag}={'true' if value else 'false'}")
        if self.max_register_count is not None:
            opts.append(f"--maxrregcount={int(self.max_register_count)}")
        if self.relocatable_device_code:
            opts.append("-rdc=true")
        opts.extend(self.extra_options)
        return opts


class Program:
    """CUDA C++ source to compile. `headers` maps include names to their text.

    >>> obj = Program(src).compile()            # CUBIN for the current GPU (PTX when there is none)
    >>> k = obj.get_kernel("axpy")
    """

    def __init__(self, code: str, code_type: str = "c++", options: ProgramOptions | None = None,
                 headers: Mapping[str, str] | None = None, name: str = "tegula_program.cu"):
        if code_type.lower() not in ("c++", "cuda", "cu"):
            raise ValueError(f"code_type must be 'c++', got {code_type!r}")
        if not isinstance(code, str):
            raise TypeError(f"code must be a str of CUDA C++, got {type(code).__name__}")
        self.code = code
        self.options = options if options is not None else ProgramOptions()
        self.headers = dict(headers or {})
        self.name = name
        self.last_compile: dict | None = None  # key, cache ('memory'|'disk'|'compiled'), seconds, log

    def compile(self, target_type: str | None = None, name_expressions: Iterable[str] = (), logs=None):
        """Compiles (or fetches from the cache) and returns an ObjectCode.

        target_type: 'cubin' (default with a GPU) or 'ptx' (default without one).
        """
        arch, specific = self._arch()
        if target_type is None:
            target_type = "cubin" if self._has_device() else "ptx"
        names = list(name_expressions)
        obj, info = _tegula.compile(self.code, self.name, self.options.to_nvrtc(), list(self.headers.items()),
                                    names, arch, specific, target_type, "program", self._kernel_name(names))
        self.last_compile = info
        if logs is not None and info["log"]:
            logs.write(info["log"])
        return obj

    def _kernel_name(self, name_expressions):
        """What `tegula cache ls` lists for this program: its first name expression, else its first kernel's name,
        else the program name."""
        if name_expressions:
            return name_expressions[0]
        m = _FIRST_KERNEL.search(self.code)
        return m.group(1) if m else self.name

    def _arch(self):
        if self.options.arch is not None:
            return _parse_arch(self.options.arch)
        if self._has_device():
            return int(_tegula.Device().arch), False
        return _DEFAULT_ARCH_WITHOUT_GPU, False

    _device_present = None

    @classmethod
    def _has_device(cls):
        if cls._device_present is None:
            info = _tegula.driver_info()
            cls._device_present = bool(info["available"] and info.get("device_count", 0) > 0)
        return cls._device_present
