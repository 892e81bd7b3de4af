"""dask.array over tegula arrays: chunks that are tegula.numpy arrays, on a GPU or on the CPU interpreter.

Dask needs nothing registered for this. Its chunks go through NumPy's protocols (`__array_function__`,
`__array_ufunc__`), which tegula.numpy implements, and its meta arrays are zero-size tegula arrays. So
`da.from_array(tegula_array, chunks=..., asarray=False)`, elementwise math, reductions, `@`, tensordot, rechunk
and map_blocks all give tegula chunks. The helpers below build such arrays from host data and bring results back.

    import dask.array as da, tegula.dask as tdask
    d = tdask.from_array(host, chunks=(4096, 4096), device="cuda")   # each chunk copied to the GPU when computed
    r = (d @ d.T).sum().compute()                                     # a 0-d tegula array

One GPU per worker: run dask's workers with one visible GPU each (CUDA_VISIBLE_DEVICES, as dask-cuda does);
tegula's default device in each is that GPU.
"""
from __future__ import annotations


def _dask():
    try:
        import dask.array as da
    except ImportError as e:
        raise ImportError("tegula.dask needs dask (pip install 'dask[array]')") from e
    return da


def from_array(x, chunks="auto", device=None, devices=None):
    """A dask array whose chunks are tegula arrays on `device` (default: tegula's default device), made from the
    NumPy (or other host) array x one chunk at a time when computed. `devices` (GPU ordinals) instead spreads the
    chunks over several GPUs, round robin in C order of the block index; operations that combine chunks of
    different GPUs raise, so split work so that each task stays on one GPU (as map_blocks over row blocks does)."""
    da = _dask()
    import numpy as np

    import tegula.numpy as tnp

    host = da.from_array(np.asarray(x), chunks=chunks)
    if devices:
        devs = [f"cuda:{int(d)}" for d in devices]
        grid = host.numblocks

        def place(b, block_id=None):
            flat = int(np.ravel_multi_index(block_id, grid)) if block_id else 0
            return tnp.asarray(b, device=devs[flat % len(devs)])

        meta = tnp.empty((0,) * host.ndim, dtype=host.dtype, device=devs[0])
        return host.map_blocks(place, dtype=host.dtype, meta=meta)
    dev = tnp.Device(device) if isinstance(device, str) else device
    meta = tnp.empty((0,) * host.ndim, dtype=host.dtype, device=dev)
    return host.map_blocks(lambda b: tnp.asarray(b, device=dev), dtype=host.dtype, meta=meta)


def to_numpy(d):
    """The dask array with each tegula chunk copied back to the host as a NumPy array."""
    da = _dask()
    import numpy as np

    import tegula.numpy as tnp

    return d.map_blocks(lambda b: tnp.asnumpy(b) if isinstance(b, tnp.ndarray) else np.asarray(b),
                        dtype=d.dtype, meta=np.empty((0,) * d.ndim, d.dtype))
