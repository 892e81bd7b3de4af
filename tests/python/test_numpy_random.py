"""tegula.numpy.random: the Philox4x32-10 stream (Random123's known answer and a reference implementation),
reproducibility, and NumPy's Generator API with its distributions and errors (CPU interpreter here; the GPU
suite checks that the GPU gives the same bits)."""
import numpy as np
import pytest

import tegula.numpy as tnp
from numpy_util import assert_same_error
from tegula.numpy import _core
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


N = 200_000
QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95]


@pytest.mark.parametrize("name,args", [("laplace", (1.0, 2.0)), ("logistic", (1.0, 2.0)), ("gumbel", (1.0, 2.0)),
                                       ("rayleigh", (2.0,)), ("weibull", (1.5,)), ("pareto", (3.0,)),
                                       ("power", (2.0,)), ("lognormal", (0.0, 0.5)), ("geometric", (0.3,)),
                                       ("triangular", (0.0, 1.0, 3.0)), ("standard_exponential", ())])
def test_inverse_cdf_distributions_match_numpys(name, args):
    """Same dtype and shape as NumPy's, and quantiles within sampling error of NumPy's own draws."""
    got = getattr(R.default_rng(11), name)(*args, size=N).get()
    want = getattr(np.random.default_rng(11), name)(*args, size=N)
    assert got.dtype == want.dtype and got.shape == want.shape
    qa, qb = np.quantile(got, QUANTILES), np.quantile(want, QUANTILES)
    assert np.max(np.abs(qa - qb) / (np.abs(qb) + 0.05)) < 0.05, (qa, qb)


def test_cauchy_median_and_quartiles():
    c = R.default_rng(2).standard_cauchy(N).get()
    assert abs(np.median(c)) < 0.02 and abs(np.subtract(*np.quantile(c, [0.75, 0.25])) - 2.0) < 0.05


def test_choice_with_probabilities():
    p = np.array([0.1, 0.2, 0.7])
    x = R.default_rng(3).choice(3, size=N, p=p).get()
    assert np.max(np.abs(np.bincount(x, minlength=3) / N - p)) < 0.01
    # without replacement: the first pick has the probabilities p; zero-weight entries are never picked
    firsts = np.array([int(R.default_rng(s).choice(3, 2, replace=False, p=p).get()[0]) for s in range(400)])
    assert np.max(np.abs(np.bincount(firsts, minlength=3) / 400 - p)) < 0.07
    assert set(R.default_rng(4).choice(4, 2, replace=False, p=[0.5, 0, 0.5, 0]).get()) == {0, 2}
    assert sorted(R.default_rng(5).choice(5, 5, replace=False, p=[0.2] * 5).get()) == [0, 1, 2, 3, 4]
    words = R.default_rng(6).choice(np.array([10, 20, 30]), size=(4, 5), p=[0.0, 0.5, 0.5]).get()
    assert words.shape == (4, 5) and set(words.ravel()) <= {20, 30}


@pytest.mark.parametrize("call,error,match", [
    (lambda g: g.choice(3, p=[0.5, 0.5]), ValueError, "same size"),
    (lambda g: g.choice(3, p=[0.5, 0.6, -0.1]), ValueError, "non-negative"),
    (lambda g: g.choice(3, p=[0.3, 0.3, 0.3]), ValueError, "sum to 1"),
    (lambda g: g.choice(3, 3, replace=False, p=[0.5, 0.5, 0]), ValueError, "Fewer non-zero"),
    (lambda g: g.choice(-1), ValueError, "positive integer"),
    (lambda g: g.choice([], 1), ValueError, "cannot be empty"),
    (lambda g: g.laplace(0, -1), ValueError, "scale < 0"),
    (lambda g: g.pareto(0), ValueError, "a <= 0"),
    (lambda g: g.geometric(0), ValueError, "p <= 0"),
    (lambda g: g.triangular(1, 0, 2), ValueError, "left > mode"),
    (lambda g: g.integers(0, 5, dtype="float32"), TypeError, "for integers"),
    (lambda g: g.standard_normal(3, dtype="int32"), TypeError, "for standard_normal"),
])
def test_new_distribution_errors_as_numpy(call, error, match):
    with pytest.raises(error, match=match):
        call(np.random.default_rng(0))
    with pytest.raises(error, match=match):
        call(R.default_rng(0))


def test_module_level_functions_like_numpys():
    """np.random.seed/rand/randn/randint/...: one global generator, reseeded by seed(); scalars when no size."""
    R.seed(5)
    a = R.rand(3, 2).get()
    R.seed(5)
    assert (R.rand(3, 2).get() == a).all() and a.shape == (3, 2) and a.dtype == np.float64
    assert isinstance(R.rand(), float) and isinstance(R.randn(), float) and isinstance(R.randint(5), int)
    assert isinstance(R.random(), float) and isinstance(R.normal(), float) and isinstance(R.laplace(), float)
    assert isinstance(R.poisson(3.0), int) and isinstance(R.gamma(2.0), float) and R.binomial(10, 0.5, 3).shape == (3,)
    assert R.dirichlet([1, 1], 2).shape == (2, 2) and R.multivariate_normal([0, 0], np.eye(2), 3).shape == (3, 2)
    r = R.randint(0, 5, size=(2, 3)).get()
    assert r.dtype == np.int64 and r.shape == (2, 3) and r.min() >= 0 and r.max() < 5
    assert R.random_sample((2,)).shape == (2,) and R.uniform(1, 2, size=4).get().min() >= 1
    assert R.normal(0, 1, 3).shape == (3,) and R.laplace(0.0, 1.0, (2,)).shape == (2,)
    assert sorted(R.permutation(5).get()) == list(range(5)) and R.choice(5, 3).shape == (3,)
    x = tnp.arange(6)
    R.shuffle(x)
    assert sorted(x.get()) == list(range(6))
    for mod in (np.random, R):
        with pytest.raises(ValueError, match="Seed must be"):
            mod.seed(-1)
        with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
            mod.rand(2.5)
        with pytest.raises(TypeError, match="for randint"):
            mod.randint(5, dtype=float)


@pytest.mark.parametrize("name,args", [("standard_gamma", (0.3,)), ("standard_gamma", (2.5,)), ("gamma", (2.0, 3.0)),
                                       ("chisquare", (3.0,)), ("beta", (0.5, 2.0)), ("standard_t", (4.0,)),
                                       ("f", (5.0, 8.0)), ("poisson", (0.5,)), ("poisson", (7.0,)),
                                       ("poisson", (1000.0,)), ("binomial", (20, 0.1)), ("binomial", (100, 0.3)),
                                       ("binomial", (1000, 0.9)), ("negative_binomial", (10, 0.9)),
                                       ("wald", (1.5, 2.0)), ("noncentral_chisquare", (3.0, 2.0)),
                                       ("noncentral_chisquare", (0.5, 1.5)), ("noncentral_f", (3.0, 10.0, 2.0)),
                                       ("vonmises", (0.5, 2.0)), ("vonmises", (-2.0, 0.3)), ("vonmises", (1.0, 1e-9))])
def test_rejection_distributions_match_numpys(name, args):
    """Drawn by rejection rounds (tegula/numpy/_random_rejection.py): NumPy's dtype, and quantiles, mean and
    variance within sampling error of NumPy's own draws (both sides cover both Poisson and binomial methods)."""
    n = 100_000
    got = getattr(R.default_rng(13), name)(*args, size=n).get()
    want = getattr(np.random.default_rng(13), name)(*args, size=4 * n)  # NumPy's side: less sampling noise
    assert got.dtype == want.dtype and got.shape == (n,)
    qa, qb = np.quantile(got, QUANTILES), np.quantile(want, QUANTILES)
    if name == "vonmises":  # angles: absolute differences (quantiles near 0 make relative ones meaningless)
        assert np.max(np.abs(qa - qb)) < 0.05, (qa, qb)
    else:
        assert np.max(np.abs(qa - qb) / (np.abs(qb) + 0.05)) < (0.15 if name == "standard_t" else 0.05), (qa, qb)
    assert abs(got.mean() - want.mean()) < 6 * want.std() / np.sqrt(n) + 1e-12
    # F's variance is noisy: with 8 denominator degrees of freedom its fourth moment is infinite (NumPy's own
    # draws of f(5, 8) vary by +-10% in variance from seed to seed at this size)
    assert abs(got.var() / want.var() - 1) < (0.15 if name in ("f", "noncentral_f") else 0.05)


def test_rejection_edges_and_composites():
    g = R.default_rng(0)
    np.testing.assert_array_equal(g.binomial([0, 5, 10], [0.3, 0.0, 1.0]).get(), [0, 0, 10])
    np.testing.assert_array_equal(g.poisson([0.0, 0.0]).get(), [0, 0])
    assert g.standard_gamma([0.0, 1.0]).get()[0] == 0.0
    assert g.binomial(2.5, 0.5, 1000).get().max() <= 2  # n's integer part, as NumPy
    assert g.standard_gamma(2.0, 10, dtype="float32").dtype == np.float32
    d = g.dirichlet([1.0, 2.0, 3.0], 20_000).get()
    assert d.shape == (20_000, 3) and np.allclose(d.sum(axis=1), 1) and np.allclose(d.mean(axis=0), [1 / 6, 1 / 3, 1 / 2],
                                                                                       atol=0.01)
    m = g.multinomial(20, [0.2, 0.3, 0.5], size=50_000).get()
    assert m.dtype == np.int64 and m.shape == (50_000, 3) and (m.sum(axis=1) == 20).all()
    np.testing.assert_allclose(m.mean(axis=0), [4.0, 6.0, 10.0], atol=0.05)
    np.testing.assert_allclose(m.var(axis=0), [3.2, 4.2, 5.0], rtol=0.05)
    m2 = g.multinomial([5, 10], [[0.2, 0.8], [0.5, 0.5]]).get()
    assert m2.shape == (2, 2) and list(m2.sum(axis=1)) == [5, 10]
    assert g.multinomial(5, [0.5, 0.6]).get().sum() == 5  # the last category takes what is left, as NumPy
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    for method in ("svd", "eigh", "cholesky"):
        x = g.multivariate_normal([1.0, -1.0], cov, (200, 100), method=method).get()
        assert x.shape == (200, 100, 2)
        np.testing.assert_allclose(x.reshape(-1, 2).mean(axis=0), [1.0, -1.0], atol=0.03)
        np.testing.assert_allclose(np.cov(x.reshape(-1, 2).T), cov, atol=0.06)


@pytest.mark.parametrize("call,error,match", [
    (lambda g: g.binomial(-1, 0.5), ValueError, "n < 0"), (lambda g: g.binomial(5, 1.5), ValueError, "p < 0"),
    (lambda g: g.gamma(-1), ValueError, "shape < 0"), (lambda g: g.gamma(1, -1), ValueError, "scale < 0"),
    (lambda g: g.poisson(-1), ValueError, "lam < 0"), (lambda g: g.poisson(1e20), ValueError, "too large"),
    (lambda g: g.beta(0, 1), ValueError, "a <= 0"), (lambda g: g.beta(1, -1), ValueError, "b <= 0"),
    (lambda g: g.chisquare(0), ValueError, "df <= 0"), (lambda g: g.dirichlet([1, -1]), ValueError, "alpha < 0"),
    (lambda g: g.standard_t(0), ValueError, "df <= 0"), (lambda g: g.f(0, 1), ValueError, "dfnum <= 0"),
    (lambda g: g.multivariate_normal([0, 0], [[1, 0]]), ValueError, "2 dimensional and square"),
    (lambda g: g.negative_binomial(0, 0.5), ValueError, "n <= 0"),
    (lambda g: g.negative_binomial(1, 1.5), ValueError, "p <= 0"), (lambda g: g.wald(0, 1), ValueError, "mean <= 0"),
    (lambda g: g.wald(1, 0), ValueError, "scale <= 0"), (lambda g: g.noncentral_chisquare(0, 1), ValueError, "df <= 0"),
    (lambda g: g.noncentral_chisquare(1, -1), ValueError, "nonc < 0"),
    (lambda g: g.noncentral_f(1, 0, 1), ValueError, "dfden <= 0"), (lambda g: g.vonmises(0, -1), ValueError, "kappa < 0"),
    (lambda g: g.multinomial(-1, [0.5, 0.5]), ValueError, "n < 0"),
    (lambda g: g.multivariate_normal([0, 0], [[1, 0], [0, 1]], method="bad"), ValueError, "method must be"),
    (lambda g: g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise"), ValueError, "positive-semidefinite"),
])
def test_rejection_errors_as_numpy(call, error, match):
    with pytest.raises(error, match=match):
        call(np.random.default_rng(0))
    with pytest.raises(error, match=match):
        call(R.default_rng(0))


@pytest.mark.parametrize("name,args", [("zipf", (2.0,)), ("zipf", (3.5,)), ("logseries", (0.5,)),
                                       ("logseries", (0.95,)), ("hypergeometric", (10, 20, 8)),
                                       ("hypergeometric", (100, 50, 120))])
def test_discrete_distributions_match_numpys(name, args):
    """The probabilities of the first values, the median and (for hypergeometric) mean and variance, against
    NumPy's own draws."""
    n = 100_000
    got = getattr(R.default_rng(17), name)(*args, size=n).get()
    want = getattr(np.random.default_rng(17), name)(*args, size=n)
    assert got.dtype == want.dtype == np.int64 and got.shape == want.shape
    lo = int(min(got.min(), want.min()))
    pa = np.bincount(np.minimum(got, lo + 40) - lo, minlength=41) / n
    pb = np.bincount(np.minimum(want, lo + 40) - lo, minlength=41) / n
    assert np.max(np.abs(pa - pb)) < 0.006, (pa[:10], pb[:10])
    assert np.median(got) == np.median(want)
    if name == "hypergeometric":
        assert abs(got.mean() - want.mean()) < 0.03 and abs(got.var() / want.var() - 1) < 0.05


@pytest.mark.parametrize("call,match", [(lambda g: g.zipf(1), "a <= 1"), (lambda g: g.logseries(1), "p >= 1"),
                                        (lambda g: g.hypergeometric(-1, 2, 1), "ngood < 0"),
                                        (lambda g: g.hypergeometric(2, 2, 5), "ngood \\+ nbad < nsample"),
                                        (lambda g: g.hypergeometric(2, 2, -1), "nsample < 0")])
def test_discrete_errors_as_numpy(call, match):
    for gen in (np.random.default_rng(0), R.default_rng(0)):
        with pytest.raises(ValueError, match=match):
            call(gen)
    assert int(R.default_rng(0).logseries(0.0)) == 1 and int(R.default_rng(0).hypergeometric(0, 0, 0)) == 0


def test_bytes_permuted_spawn_and_global_state():
    g = R.default_rng(4)
    b = g.bytes(10)
    assert isinstance(b, bytes) and len(b) == 10 and R.default_rng(4).bytes(10) == b
    x = tnp.asarray(np.arange(24).reshape(4, 6))
    for axis in (None, 0, 1):
        p = g.permuted(x, axis=axis).get()
        if axis is None:
            assert sorted(p.ravel()) == list(range(24))
        else:
            np.testing.assert_array_equal(np.sort(p, axis=axis), np.arange(24).reshape(4, 6))
    kids = g.spawn(3)
    draws = [k.random(4).get() for k in kids]
    assert len({d.tobytes() for d in draws}) == 3  # independent streams
    np.testing.assert_array_equal(R.default_rng(4).spawn(3)[1].random(4).get(), draws[1])  # reproducible
    R.seed(9)
    state = R.get_state()
    first = R.rand(5).get()
    R.set_state(state)
    np.testing.assert_array_equal(R.rand(5).get(), first)
    r = R.random_integers(3, 5, size=1000).get()
    assert r.min() == 3 and r.max() == 5
    with pytest.raises(ValueError, match="get_state"):
        R.set_state(("MT19937", None))


def test_multivariate_hypergeometric():
    x = R.default_rng(0).multivariate_hypergeometric([5, 10, 15], 6, size=50_000).get()
    assert x.dtype == np.int64 and x.shape == (50_000, 3) and (x.sum(axis=1) == 6).all()
    np.testing.assert_allclose(x.mean(axis=0), [1.0, 2.0, 3.0], atol=0.02)  # nsample * colors / total
    want_var = [6 * (5 / 30) * (25 / 30) * 24 / 29, 6 * (10 / 30) * (20 / 30) * 24 / 29, 6 * 0.5 * 0.5 * 24 / 29]
    np.testing.assert_allclose(x.var(axis=0), want_var, rtol=0.05)
    for call in (lambda g: g.multivariate_hypergeometric([5, -1], 2), lambda g: g.multivariate_hypergeometric([5, 1], 7),
                 lambda g: g.multivariate_hypergeometric([5, 1], 2, method="x"),
                 lambda g: g.multivariate_hypergeometric([5, 1], -2)):
        with pytest.raises(ValueError) as want:
            call(np.random.default_rng(0))
        with pytest.raises(ValueError) as got:
            call(R.default_rng(0))
        assert str(got.value) == str(want.value)


NAN = float("nan")


def _arr(v):
    """A parameter as an array of the library under test (a tegula array on the device for tegula.numpy)."""
    return lambda xp: xp.asarray(v)


@pytest.mark.parametrize("name,args", [
    ("normal", (0.0, _arr([1.0, -1.0]))), ("normal", (0.0, _arr([-0.0]))), ("exponential", (_arr([-1.0]),)),
    ("uniform", (_arr([0.0, -1e308]), 1e308)), ("uniform", (0.0, _arr(NAN))),
    ("standard_gamma", (_arr([-1.0]),)), ("gamma", (_arr([-1.0]), 1.0)), ("gamma", (1.0, _arr([-1.0]))),
    ("beta", (_arr([0.0]), 1.0)), ("beta", (1.0, _arr([0.0]))), ("chisquare", (_arr([0.0]),)),
    ("standard_t", (_arr([0.0]),)), ("f", (_arr([0.0]), 1.0)), ("f", (1.0, _arr([0.0]))),
    ("noncentral_chisquare", (_arr([0.0]), 1.0)), ("noncentral_chisquare", (1.0, _arr([-1.0]))),
    ("noncentral_f", (1.0, _arr([0.0]), 1.0)), ("noncentral_f", (1.0, 1.0, _arr([-1.0]))),
    ("wald", (_arr([0.0]), 1.0)), ("wald", (1.0, _arr([0.0]))), ("vonmises", (0.0, _arr([-1.0]))),
    ("laplace", (0.0, _arr([-1.0]))), ("logistic", (0.0, _arr([-1.0]))), ("gumbel", (0.0, _arr([-1.0]))),
    ("rayleigh", (_arr([-1.0]),)), ("weibull", (_arr([-1.0]),)), ("pareto", (_arr([0.0]),)), ("power", (_arr([0.0]),)),
    ("lognormal", (0.0, _arr([-1.0]))), ("geometric", (_arr([0.5, NAN]),)),
    ("triangular", (_arr([1.0]), 0.0, 2.0)), ("triangular", (0.0, _arr([3.0]), 2.0)),
    ("triangular", (_arr([1.0]), 1.0, _arr([1.0]))), ("triangular", (1.0, 0.0, _arr([2.0]))),
    ("poisson", (_arr([-1.0]),)), ("poisson", (_arr([NAN]),)), ("poisson", (_arr(NAN),)), ("poisson", (_arr([1e20]),)),
    ("binomial", (_arr([-1]), 0.5)), ("binomial", (5, _arr([1.5]))), ("binomial", (5, _arr(NAN))),
    ("binomial", (_arr([-1]), _arr([1.5]))),
    ("negative_binomial", (_arr([0.0]), 0.5)), ("negative_binomial", (_arr([NAN]), 0.5)),
    ("negative_binomial", (1.0, _arr([1.5]))), ("negative_binomial", (_arr([1e18]), 1e-5)),
    ("zipf", (_arr([1.0]),)), ("zipf", (_arr(NAN),)), ("logseries", (_arr([1.0]),)),
    ("hypergeometric", (_arr([-1]), 2, 1)), ("hypergeometric", (2, 2, _arr([5]))),
    ("hypergeometric", (_arr([-1]), _arr([-1]), _arr([-1]))), ("hypergeometric", (_arr([10 ** 9]), 1, 1)),
    ("multinomial", (_arr([-1]), [0.5, 0.5])), ("dirichlet", (_arr([1.0, -1.0]),)),
])
@pytest.mark.filterwarnings("ignore:overflow encountered")  # NumPy's own, from uniform's range check
def test_device_parameter_errors_as_numpy(name, args):
    """Parameters given as arrays (tegula arrays on the device for tegula.numpy) are checked as NumPy checks its
    arrays: the same exception type and words (which differ from the 0-d case for some)."""
    assert_same_error(lambda xp: getattr(xp.random.default_rng(0), name)(*[a(xp) if callable(a) else a for a in args]))


@pytest.mark.parametrize("name,args", [("standard_gamma", (NAN,)), ("beta", (1.0, NAN)), ("vonmises", (0.0, NAN)),
                                       ("noncentral_chisquare", (0.5, NAN)), ("dirichlet", ([1.0, NAN],))])
def test_nan_parameters_numpy_accepts_give_nan(name, args):
    for params in (args, [tnp.asarray(a) for a in args]):
        assert np.isnan(getattr(R.default_rng(0), name)(*params, size=4).get()).all()


def test_array_parameters_live_on_the_generators_device(monkeypatch):
    """Host array parameters go to the generator's device, not the default one (here a CUDA device this machine
    lacks, so a parameter placed there fails)."""
    monkeypatch.setattr(_core, "_DEFAULT", 0)
    g = R.default_rng(1, device="cpu")
    two = [1.0, 2.0]
    for name, args in [("uniform", ([0.0, 1.0], [2.0, 3.0])), ("normal", (two, two)), ("exponential", (two,)),
                       ("lognormal", (two, two)), ("laplace", (two, two)), ("gamma", (two, two)), ("beta", (two, two)),
                       ("wald", (two, two)), ("noncentral_chisquare", ([0.5, 3.0], two)), ("poisson", ([1.0, 20.0],)),
                       ("binomial", ([5, 50], [0.5, 0.5])), ("multinomial", ([5, 6], [0.5, 0.5]))]:
        r = getattr(g, name)(*args)
        assert _core.device_of(r) == _core.Device("cpu"), name
        assert r.get().shape[0] == 2


def test_random_state_is_the_legacy_api():
    """RandomState: NumPy's legacy methods over a tegula Generator; a seed repeats its numbers, the module-level
    functions are the methods of one global RandomState (np.random.seed(s) then rand == RandomState(s).rand)."""
    a = R.RandomState(5).rand(3, 2).get()
    np.testing.assert_array_equal(R.RandomState(5).rand(3, 2).get(), a)
    R.seed(5)
    np.testing.assert_array_equal(R.rand(3, 2).get(), a)
    rs = R.RandomState(1)
    assert isinstance(rs.normal(), float) and isinstance(rs.randint(10), int)
    x = rs.randint(0, 10, size=1000).get()
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= 9
    assert rs.poisson(3.0, 4).get().shape == (4,) and rs.gamma(2.0, 1.0, size=(2, 3)).get().shape == (2, 3)
    state = rs.get_state()
    first = rs.standard_normal(4).get()
    rs.set_state(state)
    np.testing.assert_array_equal(rs.standard_normal(4).get(), first)
    public = {n for n in dir(np.random.RandomState) if not n.startswith("_")}
    assert public <= set(dir(R.RandomState)), public - set(dir(R.RandomState))
    t = rs.tomaxint(1000).get()
    assert t.dtype == np.int64 and t.min() >= 0 and isinstance(rs.tomaxint(), int)
    with pytest.raises(ValueError, match="Seed must be"):
        R.RandomState(-1)
