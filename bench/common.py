"""Shared pieces of the bench workloads: result rows, skips, guarded anchors, optional imports."""
from __future__ import annotations

import traceback


class Skip(Exception):
    """Raised by a workload or one implementation of it that cannot run here; the message says why."""


def row(workload, impl, metric, value, unit, better="lower", **extra):
    """One result. `better` is 'lower' or 'higher'; optional extra keys: ratio_vs (anchor impls to compare
    this tegula row with), bar (the issue's target, same unit), note."""
    out = {"workload": workload, "impl": impl, "metric": metric, "value": float(value), "unit": unit,
           "better": better}
    out.update(extra)
    return out


def skipped(workload, impl, reason):
    return {"workload": workload, "impl": impl, "metric": None, "value": None, "skipped": str(reason)}


def failed(workload, impl, exc):
    last = traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:]
    return {"workload": workload, "impl": impl, "metric": None, "value": None,
            "error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}",
            "traceback": "".join(last)}


def guarded(workload, impl, fn):
    """Runs fn() -> row or list of rows; a Skip, a failed import or any error becomes one row saying so,
    so one broken anchor never hides the others."""
    try:
        out = fn()
    except Skip as e:
        return [skipped(workload, impl, e)]
    except ImportError as e:
        return [skipped(workload, impl, f"import failed: {e}")]
    except Exception as e:  # noqa: BLE001 - a benchmark must report, not stop
        return [failed(workload, impl, e)]
    if out is None:
        return []
    return out if isinstance(out, list) else [out]


def import_cuda_core():
    """cuda.core's launch API as a namespace, from `cuda.core` or, in older versions, `cuda.core.experimental`."""
    names = ("Device", "Program", "ProgramOptions", "LaunchConfig", "launch")
    errors = []
    for mod_name in ("cuda.core", "cuda.core.experimental"):
        try:
            mod = __import__(mod_name, fromlist=list(names))
            if all(hasattr(mod, n) for n in names):
                return mod
            errors.append(f"{mod_name} lacks {[n for n in names if not hasattr(mod, n)]}")
        except ImportError as e:
            errors.append(f"{mod_name}: {e}")
    raise ImportError("; ".join(errors))


def torch_cuda():
    """torch, or Skip when it has no CUDA (the anchors and inputs of the GPU workloads)."""
    import torch

    if not torch.cuda.is_available():
        raise Skip("torch.cuda.is_available() is False")
    return torch


def relu_bias_problem(n, seed=9):
    """The bf16 relu(a @ b + bias) problem of the matmul workload and its probes: a and b (n, n), bias (n,), normals
    from one seeded torch generator on the GPU, and the float64 reference."""
    torch = torch_cuda()
    gen = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn((n, n), device="cuda", generator=gen).bfloat16()
    b = torch.randn((n, n), device="cuda", generator=gen).bfloat16()
    bias = torch.randn((n,), device="cuda", generator=gen).bfloat16()
    return a, b, bias, torch.relu(a.double() @ b.double() + bias.double())


def gbs(nbytes, ms):
    """GB/s of moving `nbytes` in `ms` milliseconds."""
    return nbytes / (ms * 1e-3) / 1e9
