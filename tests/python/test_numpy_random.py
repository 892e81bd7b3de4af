"""tegula.numpy.random: the Philox4x32-10 stream (Random123's known answer and a reference implementation),
reproducibility, and NumPy's Generator API with its distributions and errors (CPU interpreter here; the GPU
suite checks that the GPU gives the same bits)."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula.numpy import random as R

M32 = 0xFFFFFFFF


def philox_ref(counter, key):
    """Philox4x32-10 of a 128-bit counter (4 words) and a 64-bit key (2 words), from the Random123 paper."""
    c, k = list(counter), list(key)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k[1]) & M32, p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


def test_reference_matches_random123_known_answers():
    assert philox_ref([0, 0, 0, 0], [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox_ref([M32] * 4, [M32, M32]) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    assert philox_ref([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0]) == \
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


@pytest.mark.parametrize("counter", [0, 1023, 2**32 - 3, 2**63 + 12345])
def test_kernel_stream_equals_the_reference(counter):
    rng = np.random.default_rng(counter % 1000)
    key = [int(x) for x in rng.integers(0, 2**32, 2)]
    bg = R.Philox(key=key, counter=counter)
    words = bg.words(4 * 2100).get()  # several kernel blocks
    for c in (0, 1, 1023, 1024, 2099):
        ctr = (counter + c) % 2**64
        assert list(words[4 * c:4 * c + 4]) == philox_ref([ctr & M32, ctr >> 32, 0, 0], key), c
    assert bg.counter == (counter + 2100) % 2**64


def test_seeded_streams_are_reproducible_and_continue():
    a = R.default_rng(123).random(1000).get()
    np.testing.assert_array_equal(a, R.default_rng(123).random(1000).get())
    assert not np.array_equal(a, R.default_rng(124).random(1000).get())
    b = R.Philox(7)
    whole = R.Philox(7).words(40).get()
    np.testing.assert_array_equal(np.concatenate([b.words(20).get(), b.words(20).get()]), whole)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_and_normal(dtype):
    g = R.default_rng(1)
    u = g.random((500, 400), dtype=dtype)
    assert u.shape == (500, 400) and u.dtype == dtype
    u = u.get()
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 3e-3 and abs(u.var() - 1 / 12) < 2e-3
    x = g.normal(3.0, 2.0, 200001, dtype=dtype).get()
    assert x.dtype == dtype and abs(x.mean() - 3) < 0.02 and abs(x.std() - 2) < 0.02
    assert abs(((x - 3) / 2) ** 3).mean() < 1.7  # E|z|^3 = 1.596 for a normal
    v = g.uniform(-5, 5, 100000, dtype=dtype).get()
    assert v.min() >= -5 and v.max() < 5 and abs(v.mean()) < 0.05
    e = g.exponential(2.0, 100000).get()
    assert e.min() > 0 and abs(e.mean() - 2) < 0.05


@pytest.mark.parametrize("low,high,dtype,endpoint", [(0, 10, "int64", False), (-5, 5, "int32", True),
                                                     (0, 2**40, "int64", False), (250, 256, "uint8", False),
                                                     (-2**62, 2**62, "int64", False)])
def test_integers(low, high, dtype, endpoint):
    x = R.default_rng(5).integers(low, high, 60000, dtype=dtype, endpoint=endpoint)
    assert x.dtype == dtype
    x = x.get()
    top = high if endpoint else high - 1
    assert x.min() >= low and x.max() <= top
    if top - low < 20:
        counts = np.bincount((x - low).astype(np.int64), minlength=top - low + 1)
        assert counts.min() > 0.8 * counts.mean()  # every value, roughly evenly
    else:
        assert abs(x.astype(np.float64).mean() - (low + top) / 2) < 0.02 * (top - low)


def test_errors_as_numpy():
    g = R.default_rng(0)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="negative dimensions"):
        g.random(-1)
    with pytest.raises(ValueError, match="out of bounds"):
        g.integers(0, 300, dtype="uint8")
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.random(3, dtype="int32")
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, -1.0, 3)
    with pytest.raises(ValueError, match="larger sample"):
        g.choice(3, 5, replace=False)


def test_namespace():
    assert tnp.random.default_rng(0).random().shape == ()
