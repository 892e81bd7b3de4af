"""tegula's own single-pass chained scan (cpp/tegula/libs/chained_scan.hpp) on the GPU: float32 cumsum and cumprod
against NumPy in float64, around tile edges, for every tile and load/store variant the bench sweeps, in place, with
more blocks than fit at once, repeated (the look-back's races), and bad input."""
import numpy as np
import pytest

import tegula
import tegula.numpy as tnp
from tegula import _tegula

RNG = np.random.default_rng(20261203)
TILES = [(0, 0, 0, 0), (128, 16, 0, 0), (512, 8, 1, 1), (256, 32, 1, 1), (1024, 4, 2, 0), (32, 4, 0, 1)]


def _scan(x, multiply=False, out=None, **tile):
    a = tnp.asarray(x, device="cuda")
    r = out if out is not None else tnp.full(x.shape, np.nan, dtype="float32", device="cuda")  # poisoned
    _tegula.chained_inclusive_scan(0, multiply, a._data_ptr, r._data_ptr, x.size, **tile)
    return r.get()


def _check_sum(got, x):
    exact = np.cumsum(x.astype(np.float64))
    scale = np.cumsum(np.abs(x.astype(np.float64))) + 1
    assert not np.isnan(got).any(), "elements left unwritten"
    assert np.max(np.abs(got - exact) / scale) < 2e-6


@pytest.mark.parametrize("threads,items,load,store", TILES)
@pytest.mark.parametrize("n", [1, 3, 127, 4095, 4096, 4097, 3 * 4096 * 32 + 5, (1 << 22) + 3])
def test_cumsum_around_tile_edges(n, threads, items, load, store):
    x = (RNG.standard_normal(n) * 10).astype(np.float32)
    _check_sum(_scan(x, threads=threads, items=items, load=load, store=store), x)


@pytest.mark.parametrize("threads,items,load,store", TILES[:3])
def test_cumprod(threads, items, load, store):
    x = (1 + RNG.standard_normal(70001) * 1e-3).astype(np.float32)
    got = _scan(x, multiply=True, threads=threads, items=items, load=load, store=store)
    np.testing.assert_allclose(got, np.cumprod(x.astype(np.float64)), rtol=2e-4)


def test_large_and_repeated():
    """2^26 elements ten times over: whichever tiles' totals each look-back combines, every result is right."""
    x = (RNG.standard_normal(1 << 26)).astype(np.float32)
    a = tnp.asarray(x, device="cuda")
    exact = np.cumsum(x.astype(np.float64))
    scale = np.cumsum(np.abs(x.astype(np.float64))) + 1
    for _ in range(10):
        r = tnp.full(x.shape, np.nan, dtype="float32", device="cuda")
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, x.size)
        assert np.max(np.abs(r.get() - exact) / scale) < 2e-6


def test_more_blocks_than_fit_at_once():
    """A grid of 64 blocks per SM cannot all be resident: tickets still hand tiles out in the order blocks start."""
    x = (RNG.standard_normal((1 << 22) + 11) * 3).astype(np.float32)
    _check_sum(_scan(x, blocks_per_sm=64), x)
    _check_sum(_scan(x, blocks_per_sm=1), x)
    _check_sum(_scan(x, blocks_per_sm=-1), x)  # one tile per block, by ticket
    _check_sum(_scan(x, blocks_per_sm=-2), x)  # one tile per block, by block index


@pytest.mark.parametrize("per_sm", [0, -1, -2])
@pytest.mark.parametrize("delay,warps", [(0, 1), (200, 1), (300, 0), (0, 2)])
def test_look_back_variants(per_sm, delay, warps):
    """One warp, two, or the whole block reading predecessors, with and without a pause between polls."""
    x = (RNG.standard_normal((1 << 21) + 77) * 5).astype(np.float32)
    _check_sum(_scan(x, blocks_per_sm=per_sm, delay=delay, lookback_warps=warps), x)


def test_calls_reuse_the_status_words_without_clearing():
    """Calls in a row on the default stream share one set of status words and one ticket counter, never cleared: each
    call's epoch tells its words from the last one's, and each subtracts the tickets taken before it. Persistent and
    one-tile grids interleave, sizes grow (new, larger scratch) and shrink (stale words past the end), many times."""
    sizes = [5000, (1 << 20) + 9, 777, (1 << 22) + 1, 4096, (1 << 20) + 9]
    for i in range(24):
        n = sizes[i % len(sizes)]
        x = (RNG.standard_normal(n) * 4).astype(np.float32)
        _check_sum(_scan(x, blocks_per_sm=(0, -1, -2)[i % 3], threads=(256, 128)[i % 2], items=(16, 32)[i % 2]),
                   x)


@pytest.mark.parametrize("stride,min_blocks", [(4, 0), (16, 0), (32, 6), (1, 6)])
def test_status_stride_and_register_bound(stride, min_blocks):
    """Status words 4 to 32 apart, and the registers bound for more blocks per SM (spilling at 128x64)."""
    for n in (4097, (1 << 22) + 9, 1 << 25):
        x = (RNG.standard_normal(n) * 5).astype(np.float32)
        _check_sum(_scan(x, threads=128, items=64, blocks_per_sm=-2, delay=1000, lookback_warps=1,
                         status_stride=stride, min_blocks=min_blocks), x)


def test_in_place():
    x = (RNG.standard_normal(1 << 20)).astype(np.float32)
    a = tnp.asarray(x, device="cuda")
    a._prepare_write()  # a raw write behind the engine: its host copy of the upload (4 MiB) must be dropped first
    _tegula.chained_inclusive_scan(0, False, a._data_ptr, a._data_ptr, x.size)
    _check_sum(a.get(), x)


@pytest.mark.parametrize("engine,kernel", [("chained", "tg_chained_scan"), ("cub", "tg_scan")])
@pytest.mark.parametrize("n", [1 << 21, (1 << 25) + 5])  # under and over the 500 tiles from which the delay applies
def test_numpy_cumsum_takes_the_chosen_engine(engine, kernel, n):
    default = _tegula.scan_engine()
    assert default[0] == "chained"  # the default (cpp/tegula/libs/scan_arrays.hpp)
    _tegula.set_scan_engine(engine, **default[1])
    try:
        x = (RNG.standard_normal(n) * 10).astype(np.float32)
        with tegula.profile() as p:
            got = tnp.cumsum(tnp.asarray(x, device="cuda")).get()
        _check_sum(got, x)
        assert any(r.name == kernel for r in p.launches), [r.name for r in p.launches]
        y = (1 + RNG.standard_normal(1 << 16) * 1e-3).astype(np.float32)
        np.testing.assert_allclose(tnp.cumprod(tnp.asarray(y, device="cuda")).get(), np.cumprod(y.astype(np.float64)),
                                   rtol=2e-4)
        with pytest.raises(ValueError, match="'cub' or 'chained'"):
            _tegula.set_scan_engine("fast")
    finally:
        _tegula.set_scan_engine(*default[:1], **default[1])


def test_bad_input():
    a = tnp.asarray(np.ones(1000, np.float32), device="cuda")
    r = tnp.empty(1000, dtype="float32", device="cuda")
    with pytest.raises(ValueError, match="16-byte aligned"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr + 4, r._data_ptr, 999)
    with pytest.raises(ValueError, match="threads"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, threads=100)
    with pytest.raises(ValueError, match="negative"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, -1)
    with pytest.raises(ValueError, match="blocks per SM"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, blocks_per_sm=-3)
    with pytest.raises(ValueError, match="status stride"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, status_stride=3)
    with pytest.raises(ValueError, match="minimum blocks"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, min_blocks=33)
    with pytest.raises(ValueError, match="delay"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, delay=-5)
    with pytest.raises(ValueError, match="look-back warps"):
        _tegula.chained_inclusive_scan(0, False, a._data_ptr, r._data_ptr, 1000, lookback_warps=9)
