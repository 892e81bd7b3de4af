"""The tile language on the CPU interpreter, against NumPy (float64 references)."""
import numpy as np
import pytest

import tegula.tile as tt

import tile_kernels as K


def rand(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


@pytest.fixture
def rng():
    return np.random.default_rng()


@pytest.mark.parametrize("n, T", [(1, 128), (1000, 256), (10_007, 1024), (4096, 1000)])
def test_vadd_and_chain(rng, n, T):
    x, y = rand(rng, n), rand(rng, n)
    out = np.full(n, np.nan, np.float32)
    tt.launch(K.vadd, grid=-(-n // T), args=(x, y, out, T), interpret=True)
    np.testing.assert_allclose(out, x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    out[:] = np.nan
    tt.launch(K.chain, grid=-(-n // T), args=(x, y, out, T), interpret=True)
    np.testing.assert_allclose(out, K.chain_ref(x, y), rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("rows, cols, C", [(5, 1000, 1000), (3, 700, 1024), (64, 4096, 4096)])
def test_softmax_any_row_length(rng, rows, cols, C):
    x = rand(rng, rows, cols) * 4
    out = np.full_like(x, np.nan)
    tt.launch(K.softmax, grid=rows, args=(x, out, C), interpret=True)
    np.testing.assert_allclose(out, K.softmax_ref(x), rtol=1e-5, atol=1e-7)


def test_layernorm(rng):
    x, w, b = rand(rng, 9, 300), rand(rng, 1, 300), rand(rng, 1, 300)
    out = np.full_like(x, np.nan)
    tt.launch(K.layernorm, grid=9, args=(x, w, b, out, 300, 1e-5), interpret=True)
    np.testing.assert_allclose(out, K.layernorm_ref(x, w, b, 1e-5), rtol=1e-4, atol=1e-5)


def test_persistent_sum_with_a_loop_and_atomics(rng):
    x = rng.random(100_003).astype(np.float32)
    out = np.zeros(1, np.float32)
    tt.launch(K.total, grid=7, args=(x, out, 512), interpret=True)
    assert out[0] == pytest.approx(x.astype(np.float64).sum(), rel=1e-5)


def test_cumsum_and_control_flow(rng):
    x = rand(rng, 4, 333)
    out = np.full_like(x, np.nan)
    tt.launch(K.row_cumsum, grid=4, args=(x, out, 333), interpret=True)
    np.testing.assert_allclose(out, np.cumsum(x.astype(np.float64), axis=1), rtol=1e-4, atol=1e-4)
    out[:] = np.nan
    tt.launch(K.clamp_rows, grid=4, args=(x, out, 1.5, 333), interpret=True)
    np.testing.assert_allclose(out, K.clamp_rows_ref(x, np.float32(1.5)), rtol=1e-6)


def test_strided_views_and_padding(rng):
    base = rand(rng, 64, 130)
    x = base[::2, ::-1]  # negative and non-unit strides, as NumPy views
    out = np.full((32, 130), np.nan, np.float32)
    tt.launch(K.softmax, grid=32, args=(x, out, 200), interpret=True)  # C > cols: neg_inf padding
    np.testing.assert_allclose(out, K.softmax_ref(x), rtol=1e-5, atol=1e-7)


def test_ir_is_printable_per_stage(rng):
    x = rand(rng, 8)
    text = K.chain.ir(x, x, x, 8)
    assert text.startswith("func @chain(%x: array<float32, 1>") and "exp" in text and "store %out" in text
    assert "load" in K.chain.ir(x, x, x, 8, stage="verify")
    with pytest.raises(ValueError, match="no stage"):
        K.chain.ir(x, x, x, 8, stage="nope")


def test_errors_point_at_the_users_line(rng):
    @tt.kernel
    def bad_shapes(x, out):
        a = tt.load(x, index=(0,), shape=(4,))
        b = tt.load(x, index=(0,), shape=(3,))
        tt.store(out, index=(0,), tile=a + b)

    x = rand(rng, 8)
    with pytest.raises(ValueError, match=r"test_tile_interp.py:\d+.*cannot be broadcast"):
        tt.launch(bad_shapes, grid=1, args=(x, x), interpret=True)

    @tt.kernel
    def bad_syntax(x):
        with open("f"):
            pass

    with pytest.raises(tt.TileSyntaxError, match="'With' statements are not supported") as info:
        tt.launch(bad_syntax, grid=1, args=(x,), interpret=True)
    assert info.value.lineno > 0 and info.value.filename.endswith("test_tile_interp.py")

    @tt.kernel
    def bad_dtype(x, out):
        v = tt.load(x, index=(0,), shape=(4,))
        tt.store(out, index=(0,), tile=v << 2)

    with pytest.raises(TypeError, match=r"test_tile_interp.py:\d+"):
        tt.launch(bad_dtype, grid=1, args=(x, x), interpret=True)

    @tt.kernel
    def changes_type(x, out):
        acc = 0
        for i in range(3):
            acc = acc + tt.sum(tt.load(x, index=(i,), shape=(2,)))
        tt.store(out, index=(0,), tile=tt.reshape(acc, (1,)))

    with pytest.raises(tt.TileSyntaxError, match="loop-carried variable 'acc' changes"):
        tt.launch(changes_type, grid=1, args=(x, x), interpret=True)


def test_launch_argument_errors(rng):
    x = rand(rng, 8)
    with pytest.raises(TypeError, match="takes 4 arguments but 3 were given"):
        tt.launch(K.vadd, grid=1, args=(x, x, x), interpret=True)
    with pytest.raises(TypeError, match="host numpy array"):
        tt.launch(K.vadd, grid=1, args=(x, x, x, 8), interpret=False)
    with pytest.raises(ValueError, match="grid must be"):
        tt.launch(K.vadd, grid=0, args=(x, x, x, 8), interpret=True)
    with pytest.raises(TypeError, match="@tt.kernel"):
        tt.launch(print, grid=1, args=())
    with pytest.raises(RuntimeError, match="only be used inside a @tt.kernel"):
        tt.load(x, index=(0,), shape=(4,))
    with pytest.raises(ValueError, match="shape must be a tuple of positive constant ints"):
        tt.launch(K.vadd, grid=1, args=(x, x, x, -4), interpret=True)


def test_device_assert_reports_location_and_block(rng):
    @tt.kernel
    def check_positive(x, T: tt.Constant[int]):
        v = tt.load(x, index=(tt.bid(0),), shape=(T,), padding="pos_inf")
        assert tt.min(v) > 0, "values must be positive"

    x = np.abs(rand(rng, 64)) + 1
    tt.launch(check_positive, grid=4, args=(x, 16), interpret=True)
    x[40] = -1
    with pytest.raises(ValueError, match=r"test_tile_interp.py:\d+.*block \(2, 0, 0\).*values must be positive"):
        tt.launch(check_positive, grid=4, args=(x, 16), interpret=True)


def test_kernels_defined_inside_functions_see_their_closure(rng):
    import tegula.tile as tile_alias

    scale = 3.0

    @tile_alias.kernel
    def scaled(x, out, T: tile_alias.Constant[int]):
        i = tile_alias.bid(0)
        tile_alias.store(out, index=(i,), tile=tile_alias.load(x, index=(i,), shape=(T,)) * scale)

    x = rand(rng, 100)
    out = np.full_like(x, np.nan)
    tile_alias.launch(scaled, grid=4, args=(x, out, 25), interpret=True)
    np.testing.assert_allclose(out, x * 3.0, rtol=1e-6)



def test_custom_reduce_and_scan_with_python_combine_functions(rng):
    x = rand(rng, 6, 50)
    out_r, out_s = np.full((6, 1), np.nan, np.float32), np.full_like(x, np.nan)
    tt.launch(K.custom_reduce_scan, grid=6, args=(x, out_r, out_s, 50), interpret=True)
    np.testing.assert_allclose(out_r[:, 0], np.abs(x).max(1), rtol=1e-6)
    np.testing.assert_array_equal(out_s, np.maximum.accumulate(x, axis=1))


def test_gather_scatter_and_atomics(rng):
    n = 103
    x = rand(rng, n)
    idx = rng.permutation(n).astype(np.int32)
    out, hist = np.full(n, np.nan, np.float32), np.zeros(4, np.int32)
    tt.launch(K.permute_gather, grid=4, args=(x, idx, out, hist, 32), interpret=True)
    np.testing.assert_allclose(out, x[idx] * 2, rtol=1e-6)
    assert list(hist) == list(np.bincount(idx % 4, minlength=4))


def test_reduction_axis_out_of_range_is_an_axis_error():
    import tegula

    @tt.kernel
    def bad_axis(x, out):
        t = tt.load(x, index=(0, 0), shape=(2, 4))
        tt.store(out, index=(0, 0), tile=tt.sum(t, axis=2, keepdims=True))

    x = np.ones((2, 4), np.float32)
    with pytest.raises(tegula._tegula.AxisError, match="test_tile_interp.py:.*axis 2 is out of bounds for a tile of rank 2"):
        tt.launch(bad_axis, grid=(1,), args=(x, np.empty_like(x)), interpret=True)

    @tt.kernel
    def bad_scan(x, out):
        t = tt.load(x, index=(0, 0), shape=(2, 4))
        tt.store(out, index=(0, 0), tile=tt.cumsum(t, axis=-3))

    with pytest.raises(ValueError, match="axis -3 is out of bounds"):  # AxisError is a ValueError, as NumPy's
        tt.launch(bad_scan, grid=(1,), args=(x, np.empty_like(x)), interpret=True)
