"""NumPy fidelity where tegula.numpy once crashed or answered wrongly (issue #23): absurd sizes are NumPy's
ValueError before any memory is touched; argmax/argmin find the first NaN past one column tile; minimum/maximum
keep NumPy's signed zeros; integer powers with negative exponents raise at the operation; linear algebra on
zero-size batches; DLPack copies and devices; squeeze(axis=()); empty boolean masks."""
import inspect

import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error, device  # noqa: F401

TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."


@pytest.mark.parametrize("shape, message", [
    ((2**32, 2**32), TOO_BIG), ((2**62, 4), TOO_BIG), (2**63 - 1, TOO_BIG), (2**61, TOO_BIG), (2**62, TOO_BIG),
    ((2**62, 0), TOO_BIG), (2**63, "Maximum allowed dimension exceeded"),
    ((0, 2**63), "Maximum allowed dimension exceeded"), (-1, "negative dimensions are not allowed"),
    ((3, -2), "negative dimensions are not allowed"),
    ((1,) * 65, "maximum supported dimension for an ndarray is currently 64, found 65")])
@pytest.mark.parametrize("make", ["zeros", "ones", "empty", "full"])
def test_absurd_shapes_raise_numpys_error(shape, message, make, device):
    args = (shape, 7) if make == "full" else (shape,)
    with pytest.raises(ValueError) as numpy_error:
        getattr(np, make)(*args)
    assert str(numpy_error.value) == message
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
                       .replace("*", r"\*").replace(".", r"\.") + "$"):
        getattr(tnp, make)(*args, device=device)


@pytest.mark.parametrize("shape", [(2**62, 4), (2**32, 2**32), (2**31, 2**31)])
def test_broadcast_views_too_big_to_index_are_refused(shape, device):
    one = tnp.zeros(1, device=device)
    with pytest.raises(ValueError):
        np.broadcast_to(np.zeros(1), shape)
    with pytest.raises(ValueError):
        tnp.broadcast_to(one, shape)
    with pytest.raises(ValueError):  # an elementwise result of broadcast views
        tnp.broadcast_to(one, (shape[0], 1)) + tnp.broadcast_to(one, (1, shape[1]))


def test_shapes_within_the_limits_still_work(device):
    assert tnp.zeros((0, 2**40), device=device).shape == (0, 2**40)  # 8 * 2**40 bytes fit int64
    assert tnp.empty((2**61 - 1, 0), dtype="int8", device=device).size == 0
    x = tnp.zeros((2, 3), device=device)
    x[1, 2] = 7
    assert tnp.asnumpy(x).tolist() == [[0, 0, 0], [0, 0, 7]]


@pytest.mark.parametrize("n", [9000, 70_000])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argextremes_find_the_first_nan_past_one_tile(op, n, device):
    rng = np.random.default_rng()
    a = rng.standard_normal(n)
    a[[n // 2, n - 3]] = np.nan
    assert int(getattr(tnp, op)(tnp.asarray(a, device=device))) == getattr(np, op)(a) == n // 2
    b = rng.standard_normal((3, n)).astype(np.float32)
    b[1, n - 10], b[2, 100], b[2, n - 1] = np.nan, np.nan, np.nan
    np.testing.assert_array_equal(tnp.asnumpy(getattr(tnp, op)(tnp.asarray(b, device=device), axis=1)),
                                  getattr(np, op)(b, axis=1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["minimum", "maximum", "fmin", "fmax"])
def test_signed_zero_ties_give_the_second_operand(op, dtype, device):
    a = np.tile(np.array([0.0, -0.0], dtype), 32)  # long enough for NumPy's vector loops
    b = np.tile(np.array([-0.0, 0.0], dtype), 32)
    got = tnp.asnumpy(getattr(tnp, op)(tnp.asarray(a, device=device), tnp.asarray(b, device=device)))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(getattr(np, op)(a, b)))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_integer_power_with_negative_exponent_raises_at_once(dtype, device):
    x = tnp.asarray([1, 2, 3], dtype=dtype, device=device)
    message = "^Integers to negative integer powers are not allowed.$"
    for call in (lambda: x ** -1, lambda: x ** tnp.asarray([1, -1, 2], dtype=dtype, device=device),
                 lambda: tnp.power(x, -2), lambda: 2 ** -x, lambda: x ** np.int64(-1)):
        with pytest.raises(ValueError, match=message):
            call()
    np.testing.assert_array_equal(tnp.asnumpy(x ** tnp.asarray([0, 1, 2], dtype=dtype, device=device)), [1, 2, 9])
    np.testing.assert_array_equal(tnp.asnumpy(x.astype("uint8") ** tnp.asarray([3, 4, 0], dtype="int8", device=device)),
                                  [1, 16, 1])


ZERO_BATCH = [
    ("det", ((0, 3, 3),)), ("slogdet", ((0, 3, 3),)), ("inv", ((0, 3, 3),)), ("cholesky", ((0, 3, 3),)),
    ("eigh", ((0, 3, 3),)), ("eigvalsh", ((0, 3, 3),)), ("pinv", ((0, 3, 3),)), ("matrix_rank", ((0, 3, 3),)),
    ("svd", ((0, 3, 3),)), ("qr", ((0, 3, 3),)), ("solve", ((0, 3, 3), (0, 3, 1))), ("det", ((2, 0, 0),)),
    ("inv", ((2, 0, 0),)), ("matrix_power", ((0, 3, 3), 3)), ("eig", ((0, 3, 3),))]


@pytest.mark.filterwarnings("ignore::tegula.tile.PerformanceWarning")
@pytest.mark.parametrize("name, shapes", ZERO_BATCH, ids=[f"{n}-{s[0]}" for n, s in ZERO_BATCH])
def test_linalg_on_zero_size_batches(name, shapes, device):
    host = [np.zeros(s) if isinstance(s, tuple) else s for s in shapes]
    ref = getattr(np.linalg, name)(*host)
    got = getattr(tnp.linalg, name)(*[tnp.asarray(h, device=device) if isinstance(h, np.ndarray) else h
                                      for h in host])
    for r, g in zip(ref if isinstance(ref, tuple) else (ref,), got if isinstance(got, tuple) else (got,)):
        g = tnp.asnumpy(g)
        assert (g.shape, g.dtype) == (r.shape, r.dtype)
        np.testing.assert_array_equal(g, r)


@pytest.mark.parametrize("a, b, axes", [((2, 0), (0, 4), 1), ((0, 3), (3, 0), 1), ((2, 3, 0), (3, 0, 5), 2),
                                        ((2, 3), (3, 0), 1)])
def test_tensordot_with_empty_operands(a, b, axes, device):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(a), rng.standard_normal(b)
    got = tnp.asnumpy(tnp.tensordot(tnp.asarray(x, device=device), tnp.asarray(y, device=device), axes=axes))
    ref = np.tensordot(x, y, axes=axes)
    assert got.shape == ref.shape
    np.testing.assert_array_equal(got, ref)


def test_array_api_signatures():
    P = inspect.Parameter
    dl = inspect.signature(tnp.ndarray.__dlpack__).parameters
    assert [(n, p.kind) for n, p in dl.items()] == [("self", P.POSITIONAL_OR_KEYWORD)] + [
        (n, P.KEYWORD_ONLY) for n in ("stream", "max_version", "dl_device", "copy")]
    vd = inspect.signature(tnp.vecdot).parameters
    assert [p.kind for p in vd.values()] == [P.POSITIONAL_ONLY, P.POSITIONAL_ONLY, P.KEYWORD_ONLY]
    x = tnp.arange(5)
    for call, want in ((lambda: tnp.clip(x, min=1, max=3), [1, 1, 2, 3, 3]), (lambda: tnp.clip(x, 1, 3), [1, 1, 2, 3, 3]),
                       (lambda: tnp.clip(x, max=2), [0, 1, 2, 2, 2]), (lambda: x.clip(1), [1, 1, 2, 3, 4])):
        assert tnp.asnumpy(call()).tolist() == want
    assert_same_error(lambda m: m.clip(m.arange(5), 1, 3, min=0))
    assert tnp.asnumpy(tnp.clip(x, 1)).tolist() == [1, 1, 2, 3, 4]  # the array API's clip(x, /, min); NumPy refuses


@pytest.mark.parametrize("dtype", ["float32", "complex64", "int16", "bool"])
def test_dlpack_copy_and_device(dtype, device):
    x = tnp.asarray(np.array([1, 0, 3], dtype=dtype), device=device)
    kept = tnp.asnumpy(x)
    copied = tnp.from_dlpack(x, copy=True)
    copied[0] = 0
    np.testing.assert_array_equal(tnp.asnumpy(x), kept)  # the copy is its own memory
    host = np.from_dlpack(_Capsule(x, (1, 0)))
    np.testing.assert_array_equal(host, kept)
    on_cpu = tnp.from_dlpack(x, device="cpu")
    assert on_cpu.device == tnp.from_dlpack(np.arange(2), device="cpu").device
    assert on_cpu.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(tnp.asnumpy(on_cpu), kept)
    if device == "cuda":
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(1, 0), copy=False)


def test_a_consumer_that_refuses_a_capsule_raises_its_own_error(device):
    """NumPy drops a capsule it refuses (a bfloat16 dtype; a CUDA device) with its exception pending: the capsule's
    destructor keeps that exception (it cleared it once, and NumPy raised SystemError: NULL without an exception)."""
    # NumPy's own exception: RuntimeError up to NumPy 2.4, BufferError from 2.5 (never SystemError)
    with pytest.raises((RuntimeError, BufferError), match="Unsupported dtype in DLTensor"):
        np.from_dlpack(tnp.zeros(3, dtype="bfloat16", device="cpu"))
    if device != "cpu":
        with pytest.raises((RuntimeError, BufferError, ValueError), match="[Dd]evice"):
            np.from_dlpack(tnp.arange(3, device=device))


class _Capsule:
    """A DLPack producer that hands out x's capsule for device `dl_device` (a host copy of a GPU array)."""

    def __init__(self, x, dl_device):
        self.x, self.dl_device = x, dl_device

    def __dlpack_device__(self):
        return self.dl_device

    def __dlpack__(self, **kw):
        kw.pop("dl_device", None)
        return self.x.__dlpack__(dl_device=self.dl_device, **kw)


def test_squeeze_with_no_axes_is_a_no_op(device):
    x = tnp.ones((1, 3, 1), device=device)
    assert tnp.squeeze(x, axis=()).shape == x.squeeze(axis=()).shape == (1, 3, 1)
    assert tnp.squeeze(x).shape == (3,)


def same_outcome(call, device):
    """call(numpy, {}) and call(tegula.numpy, {"device": device}) give the same value, or the same exception type
    with the same text."""
    try:
        want = call(np, {})
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)) as got:
            call(tnp, {"device": device})
        assert str(got.value) == str(e)
        return
    assert call(tnp, {"device": device}) == want


@pytest.mark.parametrize("shape, mask", [((1, 3), (0,)), ((2, 3), (0,)), ((1, 1), (0, 1)), ((2, 3), (0, 3)),
                                         ((2, 3), (0, 2)), ((2, 3), (1,)), ((2, 3), (2, 0))])
def test_empty_boolean_masks_broadcast_as_numpy(shape, mask, device):
    same_outcome(lambda m, d: m.ones(shape, **d)[m.zeros(mask, dtype=bool, **d)].shape, device)
    same_outcome(lambda m, d: m.ones(shape, **d)[:, m.zeros(mask[:1], dtype=bool, **d)].shape, device)
    same_outcome(lambda m, d: m.ones(shape, **d)[np.zeros(mask, dtype=bool)].shape, device)
