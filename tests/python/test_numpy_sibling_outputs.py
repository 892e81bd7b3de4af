"""Sibling outputs (docs/array_engine.md): when a pending array is computed, other pending arrays of its shape that
Python still holds and that read the same inputs are computed by the same kernel (Black-Scholes' call and put: one
pass over S, K, T). Values are NumPy's whatever the order they are used in; kernel counts on the CPU interpreter
(which runs the GPU's kernels)."""
import numpy as np

import tegula
import tegula.numpy as tnp
from numpy_util import assert_same, device, rng, t  # noqa: F401


def launches(f):
    with tegula.profile(gpu_timing=False) as p:
        f()
    return [r.name for r in p.launches]


def black_scholes(m, S, K, T, r=0.05, v=0.2):
    d1 = (m.log(S / K) + (r + 0.5 * v * v) * T) / (v * m.sqrt(T))
    d2 = d1 - v * m.sqrt(T)
    nd = lambda d: 0.5 * (1 + m.tanh(0.7978845608 * (d + 0.044715 * d ** 3)))  # noqa: E731
    call = S * nd(d1) - K * m.exp(-r * T) * nd(d2)
    put = call - S + K * m.exp(-r * T)
    return call, put


def test_black_scholes_call_and_put(device, rng):
    s, k, tt = rng.uniform(10, 50, 5000), rng.uniform(10, 50, 5000), rng.uniform(0.1, 2, 5000)
    want = black_scholes(np, s, k, tt)
    for first in (0, 1):
        call, put = black_scholes(tnp, t(s, device), t(k, device), t(tt, device))
        order = (call, put) if first == 0 else (put, call)
        got = [x.get() for x in order]
        np.testing.assert_allclose(got[0], want[first], rtol=1e-12, atol=1e-10)
        np.testing.assert_allclose(got[1], want[1 - first], rtol=1e-12, atol=1e-10)


def test_black_scholes_is_one_kernel(rng):
    args = [tnp.asarray(rng.uniform(10, 50, 1000), device="cpu") for _ in range(3)]
    for first in (0, 1):
        call, put = black_scholes(tnp, *args)

        def use():
            (call, put)[first].get()
            (call, put)[1 - first].get()

        assert launches(use) == ["tegula_array_kernel"]


def test_siblings_of_other_dtypes(device, rng):
    x, y = rng.standard_normal(300), rng.standard_normal(300)
    a, b = t(x, device), t(y, device)
    s = a + b
    mask = a > b
    z = (a * 1j + b).astype("complex64")
    n = (a * 10).astype("int16")
    assert_same(s, x + y)
    assert_same(mask, x > y)
    assert_same(z, (x * 1j + y).astype("complex64"))
    assert_same(n, (x * 10).astype("int16"))


def test_siblings_count(rng):
    a = tnp.asarray(rng.standard_normal(300), device="cpu")
    b = tnp.asarray(rng.standard_normal(300), device="cpu")
    other = tnp.asarray(rng.standard_normal(300), device="cpu")
    s, d, m = a + b, a - b, tnp.maximum(a, b)
    unrelated = other * 2  # reads nothing the others read: its own kernel when used
    assert launches(lambda: s.get()) == ["tegula_array_kernel"]
    assert not d._pending and not m._pending and unrelated._pending
    assert launches(lambda: (d.get(), m.get())) == []
    assert launches(lambda: unrelated.get()) == ["tegula_array_kernel"]


def test_random_held_expressions_in_random_order(device):
    r = np.random.default_rng(99)
    xs = [r.standard_normal((20, 30)) for _ in range(4)]
    ts = [t(x, device) for x in xs]
    for _ in range(20):
        made = []
        for _ in range(int(r.integers(2, 6))):
            i, j = (int(v) for v in r.integers(0, 4, 2))
            op = int(r.integers(0, 4))
            src = made[int(r.integers(0, len(made)))] if made and r.random() < 0.4 else None
            base_t, base_x = (ts[i], xs[i]) if src is None else src
            if op == 0:
                made.append((base_t * ts[j] + 1, base_x * xs[j] + 1))
            elif op == 1:
                made.append((tnp.where(base_t > ts[j], base_t, -ts[j]), np.where(base_x > xs[j], base_x, -xs[j])))
            elif op == 2:
                made.append((tnp.sin(base_t) - ts[j][::-1], np.sin(base_x) - xs[j][::-1]))
            else:
                made.append((base_t.T.T * 0.5, base_x * 0.5))
        for k in r.permutation(len(made)):
            assert_same(made[k][0], made[k][1])
