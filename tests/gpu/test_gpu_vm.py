"""The array VM on the GPU (issue #26): every elementwise op family at every dtype it takes, casts, where, broadcasts,
strided and batched views, iotas, complex expressions, sibling outputs and every reduction shape, run on the VM
(mode 'always') against the fused kernel (mode 'never') and NumPy in float64; and the first-run path: the VM runs an
expression once while its fused kernel compiles in the background, the fused kernel after wait_for_compiles()."""
import numpy as np
import pytest

import tegula.numpy as tnp
from tegula import _tegula

FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
TOL = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 2e-6, "float64": 1e-13}


@pytest.fixture
def rng():
    return np.random.default_rng()


@pytest.fixture
def vm_mode():
    prev = _tegula.array_vm_mode()
    yield lambda m: _tegula.set_array_vm_mode(m)
    _tegula.set_array_vm_mode(prev)


def gpu(x):
    return tnp.asarray(x, device="cuda")


def both(vm_mode, make):
    """make() evaluated on the VM and by the fused kernel: (vm result, fused result) as NumPy arrays; checks that
    the VM really ran."""
    vm_mode("always")
    before = tnp.kernel_stats()["vm_launches"]
    on_vm = make()
    on_vm = on_vm.get() if isinstance(on_vm, tnp.ndarray) else on_vm
    assert tnp.kernel_stats()["vm_launches"] > before, "the VM did not run: " + str(_tegula.array_last_run())
    vm_mode("never")
    fused = make()
    fused = fused.get() if isinstance(fused, tnp.ndarray) else fused
    return np.asarray(on_vm), np.asarray(fused)


def close(got, ref, dtype):
    if np.dtype(dtype).kind in "fc":
        tol = TOL.get(str(np.dtype(dtype).name).replace("complex64", "float32").replace("complex128", "float64"), 1e-6)
        np.testing.assert_allclose(got.astype(np.complex128 if np.iscomplexobj(got) else np.float64),
                                   ref.astype(np.complex128 if np.iscomplexobj(ref) else np.float64),
                                   rtol=tol * 4, atol=tol * 4, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, ref)


def test_the_image_loads():
    info = _tegula.array_vm_info(0)
    assert info["opcodes"] > 500
    assert info["available"] or "compiling" in info["why"], info
    tnp.wait_for_compiles()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fn", ["exp", "log", "sqrt", "sin", "cos", "tanh", "floor", "ceil", "abs", "negative",
                                "expm1", "log1p", "arctan", "rint", "trunc", "arcsinh", "log2", "exp2"])
def test_float_unary(rng, vm_mode, dtype, fn):
    x = (rng.random(4099) * 3 + 0.1).astype(dtype)
    a = gpu(x)
    f = getattr(tnp, fn)
    vm, fused = both(vm_mode, lambda: f(a) * 2)
    close(vm, fused, dtype)
    close(vm, (getattr(np, fn)(x.astype(np.float64)) * 2).astype(dtype), dtype)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "floor_divide", "remainder", "maximum", "minimum",
                                "less", "greater_equal", "not_equal"])
def test_binary(rng, vm_mode, dtype, op):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    hi = min(int(info.max), 1000) if info else 100
    lo = 0 if info is not None and info.min == 0 else -hi
    x = rng.integers(lo, hi, 5000).astype(dtype) if info else rng.standard_normal(5000).astype(dtype) * 10
    y = rng.integers(lo, hi, 5000).astype(dtype) if info else rng.standard_normal(5000).astype(dtype) * 10
    if op in ("floor_divide", "remainder"):
        y[::7] = 0  # NumPy's integer // and % by zero give 0
    a, b = gpu(x), gpu(y)
    f = getattr(tnp, op)
    vm, fused = both(vm_mode, lambda: f(a, b))
    close(vm, fused, vm.dtype)  # the VM computes what the fused kernel computes
    if dtype == "float16" and op in ("floor_divide", "remainder"):
        return  # NumPy's float16 divmod rounds differently near multiples of y (the fused kernel's rule, not the VM's)
    with np.errstate(all="ignore"):
        ref = getattr(np, op)(x, y)
    close(vm, ref, vm.dtype)


@pytest.mark.parametrize("dtype", INTS + ["bool"])
def test_bitwise_and_shifts(rng, vm_mode, dtype):
    x = rng.integers(0, 120, 3000).astype(dtype)
    y = rng.integers(0, 7, 3000).astype(dtype)
    a, b = gpu(x), gpu(y)
    ops = [(tnp.bitwise_and, np.bitwise_and), (tnp.bitwise_or, np.bitwise_or), (tnp.bitwise_xor, np.bitwise_xor),
           (tnp.invert, np.invert)]
    if dtype != "bool":
        ops += [(tnp.left_shift, np.left_shift), (tnp.right_shift, np.right_shift)]
    for t, n in ops:
        vm, fused = both(vm_mode, lambda: t(a) if t is tnp.invert else t(a, b))
        close(vm, fused, dtype)
        close(vm, n(x) if n is np.invert else n(x, y), dtype)


@pytest.mark.parametrize("src", FLOATS + INTS + ["bool"])
def test_casts(rng, vm_mode, src):
    x = (rng.standard_normal(2000) * 50).astype(src) if src != "bool" else rng.random(2000) > 0.5
    a = gpu(x)
    for dst in FLOATS + INTS + ["bool"]:
        if src == dst:
            continue
        vm, fused = both(vm_mode, lambda: (a + a).astype(dst))
        close(vm, fused, dst)


def test_where_pow_and_float_binaries(rng, vm_mode):
    x = rng.random(3000) + 0.5
    y = rng.standard_normal(3000)
    a, b = gpu(x), gpu(y)
    for make, ref in [(lambda: tnp.where(a > 1.0, a ** b, tnp.arctan2(b, a)), np.where(x > 1.0, x ** y, np.arctan2(y, x))),
                      (lambda: tnp.hypot(a, b) + tnp.copysign(a, b), np.hypot(x, y) + np.copysign(x, y)),
                      (lambda: (a.astype("float32") / b.astype("float32")) ** 2, (x.astype("float32") / y.astype("float32")) ** 2)]:
        vm, fused = both(vm_mode, make)
        close(vm, fused, vm.dtype)
        close(vm, ref.astype(vm.dtype), vm.dtype)


def test_broadcasts_views_batches_and_iota(rng, vm_mode):
    x = rng.standard_normal((64, 300))
    y = rng.standard_normal(300)
    z = rng.standard_normal((6, 40, 50))
    a, b, c = gpu(x), gpu(y), gpu(z)
    cases = [(lambda: a[:, None, :1] * b[None, :, None], x[:, None, :1] * y[None, :, None]),
             (lambda: a[::2, 3:250:3] - a[1::2, 3:250:3].T.T, x[::2, 3:250:3] - x[1::2, 3:250:3]),
             (lambda: c[1:-1, 1:-1, 1:-1] * 2 + c[:-2, 1:-1, 2:], z[1:-1, 1:-1, 1:-1] * 2 + z[:-2, 1:-1, 2:]),
             (lambda: tnp.arange(5000) * 3 - 7, np.arange(5000) * 3 - 7),
             (lambda: tnp.linspace(0, 1, 1001) ** 2, np.linspace(0, 1, 1001) ** 2)]
    for make, ref in cases:
        vm, fused = both(vm_mode, make)
        close(vm, fused, vm.dtype)
        close(vm, ref, vm.dtype)


def test_complex_expressions(rng, vm_mode):
    x, y = rng.standard_normal(3000), rng.standard_normal(3000)
    a, b = gpu(x), gpu(y)
    vm, fused = both(vm_mode, lambda: tnp.abs((a + 1j * b) * (a - 2j) / (b + 1j)))
    close(vm, fused, "float64")
    close(vm, np.abs((x + 1j * y) * (x - 2j) / (y + 1j)), "float64")
    vm, fused = both(vm_mode, lambda: (a + 1j * b).astype("complex64") * (1 + 1j))
    close(vm, fused, "complex64")


def test_sibling_outputs(rng, vm_mode):
    s, k = rng.random(10000) + 1, rng.random(10000) + 1
    S, K = gpu(s), gpu(k)

    def make():
        call = tnp.exp(-S) * K + S
        put = call - S * 2
        call._materialize()  # put is a held sibling: one kernel computes both
        return tnp.stack([call, put])

    vm, fused = both(vm_mode, make)
    close(vm, fused, "float64")
    call = np.exp(-s) * k + s
    close(vm, np.stack([call, call - s * 2]), "float64")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("shape, axis", [((1 << 20,), None), ((3, 200_001), 1), ((300, 2000), 1), ((20_000, 7), 0),
                                         ((6, 50, 70), (0, 2)), ((257, 33), -1)])
@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reductions(rng, vm_mode, dtype, shape, axis, op):
    if dtype == "bool" and op in ("prod",):
        pytest.skip("bool prod is an int64 product of 0/1")
    x = rng.standard_normal(shape)
    x = (x > 0) if dtype == "bool" else (x * (1 if op == "prod" else 20)).astype(dtype)
    if op == "prod":
        x = np.where(np.abs(x) < 0.5, 1, x).astype(x.dtype) if dtype != "bool" else x
        x = x[..., :64] if x.ndim > 1 and axis in (1, -1) else x.reshape(-1)[:4000] if axis is None else x
    a = gpu(x)
    vm, fused = both(vm_mode, lambda: getattr(a * 1 if dtype != "bool" else a, op)(axis=axis))
    ref = getattr(x * 1 if dtype != "bool" else x, op)(axis=axis)
    if np.dtype(vm.dtype).kind in "iub":
        close(vm, fused, vm.dtype)
        close(vm, ref.astype(vm.dtype), vm.dtype)
        return
    tol = {"float16": 3e-2, "float32": 1e-4, "float64": 1e-10}[np.dtype(vm.dtype).name]
    if op == "prod":
        # Against the float64 product: NumPy rounds a float16 product at every step, so near float16's largest
        # value NumPy and a wider accumulator overflow at different places. Within 2x of it either may.
        exact = np.prod(x.astype(np.float64), axis=axis)
        big = float(np.finfo(vm.dtype).max)
        for got in (vm, fused):
            got = np.asarray(got, dtype=np.float64)
            inside, beyond = np.abs(exact) < big / 2, np.abs(exact) > big * 2
            np.testing.assert_allclose(got[inside], exact[inside], rtol=tol)
            assert np.all(np.isinf(got[beyond]) & (np.sign(got[beyond]) == np.sign(exact[beyond])))
    else:
        scale = np.abs(x.astype(np.float64)).sum(axis=axis) if op == "sum" else np.abs(ref.astype(np.float64))
        np.testing.assert_allclose(vm.astype(np.float64), ref.astype(np.float64), rtol=tol, atol=tol * np.max(scale) + 1e-30)
        np.testing.assert_allclose(vm.astype(np.float64), fused.astype(np.float64), rtol=tol, atol=tol * np.max(scale) + 1e-30)


def test_mean_and_softmax(rng, vm_mode):
    x = rng.standard_normal((513, 1000)).astype(np.float32)
    a = gpu(x)

    def softmax():
        e = tnp.exp(a - a.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    vm, fused = both(vm_mode, softmax)
    r = np.exp(x - x.max(1, keepdims=True))
    close(vm, r / r.sum(1, keepdims=True), "float32")
    vm, fused = both(vm_mode, lambda: a.mean(axis=0) - a.std(axis=0))
    np.testing.assert_allclose(vm, x.mean(0) - x.std(0), rtol=1e-4, atol=1e-5)


COPY_VIEWS = [
    ("reversed", (100_003,), lambda v: v[::-3]),
    ("transposed", (300, 701), lambda v: v.T),
    ("strided 2-D", (400, 900), lambda v: v[1::2, ::-3]),
    ("3-D permuted", (30, 40, 50), lambda v: v.transpose(2, 0, 1)),
    ("4-D permuted", (6, 7, 8, 9), lambda v: v.transpose(3, 1, 2, 0)),  # 4 axes: 9 launches of the last three
    ("5-D permuted", (2, 3, 4, 9, 9), lambda v: v.transpose(4, 3, 2, 1, 0)),  # 81 launches: no VM form
]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int8", "uint16", "int64", "bool",
                                   "complex64"])
@pytest.mark.parametrize("name, shape, view", COPY_VIEWS, ids=[c[0] for c in COPY_VIEWS])
def test_copies(rng, vm_mode, dtype, name, shape, view):
    """Strided copies (ascontiguousarray of a view) run on the VM (up to three axes after coalescing; complex as its
    two parts) and agree with the copy kernel bit for bit."""
    x = rng.standard_normal(shape) * 40
    if dtype == "bool":
        x = x > 0
    elif dtype == "complex64":
        x = x + 1j * rng.standard_normal(shape)
    host = lambda r: r.astype("float32").get() if dtype == "bfloat16" else r.get()  # noqa: E731
    a = gpu(x).astype(dtype)
    a._materialize()
    want = np.ascontiguousarray(view(host(a)))
    vm_ran = name != "5-D permuted"
    results = {}
    for mode in ("always", "never"):
        vm_mode(mode)
        before = tnp.kernel_stats()["vm_launches"]
        c = tnp.ascontiguousarray(view(a))
        c._materialize()
        assert (tnp.kernel_stats()["vm_launches"] > before) == (vm_ran and mode == "always"), _tegula.array_last_run()
        results[mode] = host(c)
    np.testing.assert_array_equal(results["always"], results["never"])
    np.testing.assert_array_equal(results["always"], want)


def test_casting_assignment_copies_on_the_vm(rng, vm_mode):
    """dst[view] = leaf of another dtype: the assignment's copy converts on the VM."""
    x = rng.standard_normal((200, 300)) * 100
    a = gpu(x)
    a._materialize()
    got = {}
    for mode in ("always", "never"):
        vm_mode(mode)
        out = tnp.zeros((300, 400), dtype="int32")
        out._materialize()
        out[::1, 50:250] = a.T
        got[mode] = out.get()
    np.testing.assert_array_equal(got["always"], got["never"])
    ref = np.zeros((300, 400), dtype="int32")
    ref[:, 50:250] = x.T
    np.testing.assert_array_equal(got["always"], ref)


def test_first_run_uses_the_vm_then_the_fused_kernel(rng, vm_mode):
    vm_mode("first")
    x = gpu(rng.standard_normal(100_000))
    # an expression no other test builds: its kernel is not compiled in this process yet
    make = lambda: tnp.cosh(x) * 0.25 - tnp.arcsinh(x * x) / 3.5 + tnp.expm1(-tnp.abs(x)) * tnp.tanh(x)  # noqa: E731
    s0 = tnp.kernel_stats()
    first = make().get()
    s1 = tnp.kernel_stats()
    on_vm, note = _tegula.array_last_run()
    assert s1["vm_launches"] == s0["vm_launches"] + 1 and on_vm, note
    assert s1["background_starts"] == s0["background_starts"] + 1
    tnp.wait_for_compiles()
    second = make().get()
    s2 = tnp.kernel_stats()
    assert s2["vm_launches"] == s1["vm_launches"], "the fused kernel was ready: the VM should not have run"
    assert not _tegula.array_last_run()[0]
    np.testing.assert_allclose(first, second, rtol=1e-12, atol=1e-14)
    ref = np.cosh(x.get()) * 0.25 - np.arcsinh(x.get() ** 2) / 3.5 + np.expm1(-np.abs(x.get())) * np.tanh(x.get())
    np.testing.assert_allclose(second, ref, rtol=1e-12, atol=1e-14)


def test_background_compile_off_waits(rng, vm_mode):
    x = gpu(rng.standard_normal(1000))
    with tnp.background_compile(False):
        s0 = tnp.kernel_stats()
        (tnp.sinh(x) * 1.75 + tnp.arccos(x / 9)).get()
        s1 = tnp.kernel_stats()
    assert s1["vm_launches"] == s0["vm_launches"] and s1["background_starts"] == s0["background_starts"]


def test_graphs_too_large_for_one_program_run_in_parts(rng, vm_mode):
    """A graph whose every op has a VM form but that is too large for one program (more arrays than max_leaves, more
    instructions than max_code: stockham_fft's 4-term complex butterfly at paper) runs on the VM in parts (its
    largest part materialised first, cut again while too large), not waiting for its compile."""
    xs = [rng.standard_normal(3000) for _ in range(30)]  # 30 arrays read
    zs = rng.standard_normal((4, 5000)) + 1j * rng.standard_normal((4, 5000))
    w = np.exp(-2j * np.pi * np.arange(16).reshape(4, 4) / 16)

    def many():
        acc = None
        for i, x in enumerate(xs):
            term = gpu(x) * (i + 1.0)
            acc = term if acc is None else acc + tnp.sin(term)
        return acc

    def long_complex():
        z = gpu(zs)
        acc = None
        for j in range(4):
            t = gpu(w[:, j:j + 1]) * (tnp.exp(-1j * z[j:j + 1, :]) * z[j:j + 1, :] + 0.5j)
            acc = t if acc is None else acc + t
        return acc

    for make, ref in ((many, None), (long_complex, None)):
        before = tnp.kernel_stats()["vm_launches"]
        on_vm, fused = both(vm_mode, make)
        assert tnp.kernel_stats()["vm_launches"] - before > 1  # in parts
        close(on_vm, fused, fused.dtype.name)
    host = None
    for i, x in enumerate(xs):
        term = x * (i + 1.0)
        host = term if host is None else host + np.sin(term)
    vm_mode("always")
    close(many().get(), host, "float64")


def test_parts_of_a_first_run_start_no_compiles_of_their_own(rng, vm_mode):
    """In the default mode a graph too large for one VM program runs in parts on its first run, and only the whole
    graph's fused kernel compiles in the background (the parts' kernels would never run again)."""
    xs = [rng.standard_normal(2000) for _ in range(33)]  # a structure no other test builds
    vm_mode("first")
    before = tnp.kernel_stats()
    acc = None
    for i, x in enumerate(xs):
        term = gpu(x) * (i + 2.0)
        acc = term if acc is None else acc + tnp.cos(term)
    got = acc.get()
    after = tnp.kernel_stats()
    assert after["vm_launches"] - before["vm_launches"] > 1
    assert after["background_starts"] - before["background_starts"] <= 1
    host = None
    for i, x in enumerate(xs):
        term = x * (i + 2.0)
        host = term if host is None else host + np.cos(term)
    close(got, host, "float64")
    tnp.wait_for_compiles()
