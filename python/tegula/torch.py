"""PyTorch interop: tile kernels and tegula arrays on torch tensors, and tile kernels as torch operators.

- `tt.launch(kernel, grid, (tensor, ...))` takes CUDA tensors zero-copy. Given no stream, it runs on torch's current
  stream, so the launch is ordered after the torch work that made its inputs and before what reads its outputs,
  `with torch.cuda.stream(s):` blocks included.
- `tegula.numpy.asarray(tensor)` and `torch.as_tensor(array, device="cuda")` share memory (DLPack or
  `__cuda_array_interface__`).
- `custom_op(name, fake=...)` registers a function that launches tile kernels as a `torch.library` operator.
  `torch.compile` then keeps it as one node and traces through its fake implementation.
- `launch(kernel, grid, args)` is `tt.launch` that runs kernels given CPU tensors on the CPU interpreter (and
  says so once).

    @tegula.torch.custom_op("mylib::softmax", fake=lambda x: torch.empty_like(x))
    def softmax(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        tegula.torch.launch(softmax_kernel, (x.shape[0],), (x, out, x.shape[1]))
        return out

    y = torch.compile(lambda x: softmax(x) * 2)(x)
"""
from __future__ import annotations

import inspect
import warnings

_SAID_CPU = False


def launch(kernel, grid, args, stream=None):
    """tt.launch for torch tensors: CUDA tensors run on the GPU (on torch's current stream unless `stream` is
    given); when every tensor argument is on the CPU the kernel runs on the CPU interpreter, with a warning the
    first time."""
    import tegula.tile as tt

    tensors = [a for a in args if type(a).__module__.startswith("torch") and hasattr(a, "is_cuda")]
    on_cpu = bool(tensors) and not any(t.is_cuda for t in tensors)
    if on_cpu:
        global _SAID_CPU
        if not _SAID_CPU:
            _SAID_CPU = True
            warnings.warn("tegula.torch.launch: CPU tensors, so tile kernels run on the CPU interpreter (slow); "
                          "move the tensors to a GPU to run there", RuntimeWarning, stacklevel=2)
        return tt.launch(kernel, grid=grid, args=tuple(args), interpret=True)
    return tt.launch(kernel, grid=grid, args=tuple(args), stream=stream)


def _returns_nothing(fn):
    ann = inspect.signature(fn).return_annotation
    return ann is None or ann == "None"


def custom_op(name, fn=None, *, fake=None, mutates_args=(), device_types=None, schema=None):
    """Registers `fn` (type-annotated, launching tile kernels on its tensor arguments) as the torch operator
    `name` ("namespace::op"). `fake(*args)` returns empty tensors of the outputs' shapes and dtypes. torch.compile
    traces with it, so it is required unless fn returns None (an operator that only writes `mutates_args`).
    Returns torch's CustomOpDef: call it like fn."""
    try:
        import torch
    except ImportError as e:
        raise ImportError("tegula.torch.custom_op needs PyTorch (pip install torch)") from e
    if not isinstance(name, str) or "::" not in name:
        raise ValueError(f"custom_op name must look like 'namespace::op', got {name!r}")

    def register(f):
        if fake is None and not _returns_nothing(f):
            raise ValueError(f"custom_op {name!r} returns tensors: give fake=... (a function of the same arguments "
                             "returning empty tensors of the outputs' shapes and dtypes) so torch.compile can trace it")
        op = torch.library.custom_op(name, f, mutates_args=mutates_args, device_types=device_types, schema=schema)
        if fake is not None:
            op.register_fake(fake)
        return op

    return register(fn) if fn is not None else register
