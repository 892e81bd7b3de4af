"""Matrix-product tile kernels shared by the CPU (interpreter) and GPU suites, the bench and the examples.

Each kernel walks K in BK steps accumulating `tt.mma` into a float32 tile; on an H200 the loop runs on
the tensor cores (wgmma fed by the copy engine) and everything after it is fused into the epilogue."""
import numpy as np

import tegula.tile as tt


@tt.kernel
def matmul(a, b, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int], GROUP: tt.Constant[int]):
    """c = a @ b. Tiles are visited GROUP tile-rows at a time, so neighbouring blocks share A and B panels in L2."""
    pid = tt.bid(0)
    num_m = tt.num_tiles(c, 0, (BM, BN))
    num_n = tt.num_tiles(c, 1, (BM, BN))
    width = GROUP * num_n
    first_m = (pid // width) * GROUP
    rows = tt.minimum(num_m - first_m, GROUP)
    pm = first_m + (pid % width) % rows
    pn = (pid % width) // rows
    acc = tt.zeros((BM, BN), tt.float32)
    for k in range(tt.num_tiles(a, 1, (BM, BK))):
        x = tt.load(a, index=(pm, k), shape=(BM, BK))
        y = tt.load(b, index=(k, pn), shape=(BK, BN))
        acc = tt.mma(x, y, acc)
    tt.store(c, index=(pm, pn), tile=acc.astype(c.dtype))


@tt.kernel
def matmul_bias_act(a, b, bias, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int],
                    GROUP: tt.Constant[int], ACT: tt.Constant[str]):
    """c = act(a @ b + bias) with act "relu", "gelu" (tanh form) or "none": one kernel, the epilogue fused."""
    pid = tt.bid(0)
    num_m = tt.num_tiles(c, 0, (BM, BN))
    num_n = tt.num_tiles(c, 1, (BM, BN))
    width = GROUP * num_n
    first_m = (pid // width) * GROUP
    rows = tt.minimum(num_m - first_m, GROUP)
    pm = first_m + (pid % width) % rows
    pn = (pid % width) // rows
    acc = tt.zeros((BM, BN), tt.float32)
    for k in range(tt.num_tiles(a, 1, (BM, BK))):
        acc = tt.mma(tt.load(a, index=(pm, k), shape=(BM, BK)), tt.load(b, index=(k, pn), shape=(BK, BN)), acc)
    v = acc + tt.load(bias, index=(pn,), shape=(BN,)).astype(tt.float32)
    if ACT == "relu":
        v = tt.maximum(v, 0.0)
    if ACT == "gelu":
        v = 0.5 * v * (1.0 + tt.tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)))
    tt.store(c, index=(pm, pn), tile=v.astype(c.dtype))


@tt.kernel
def matmul_nt(a, bt, c, BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int], TF32: tt.Constant[bool]):
    """c = a @ bt.T with bt stored (N, K), as a torch Linear weight: B reaches the tensor cores K-major."""
    pid = tt.bid(0)
    num_n = tt.num_tiles(c, 1, (BM, BN))
    pm = pid // num_n
    pn = pid % num_n
    acc = tt.zeros((BM, BN), tt.float32)
    for k in range(tt.num_tiles(a, 1, (BM, BK))):
        x = tt.load(a, index=(pm, k), shape=(BM, BK))
        y = tt.load(bt, index=(pn, k), shape=(BN, BK))
        acc = tt.mma(x, y.T, acc, allow_tf32=TF32)
    tt.store(c, index=(pm, pn), tile=acc.astype(c.dtype))


@tt.kernel
def bmm(a, b, c, M: tt.Constant[int], BM: tt.Constant[int], BN: tt.Constant[int], BK: tt.Constant[int]):
    """Batched c[i] = a[i] @ b[i] over arrays flattened to 2-D, a (batch*M, K), b (batch*K, N), c (batch*M, N)
    with M and K multiples of BM and BK: grid axis 1 is the batch, each block one (BM, BN) tile of it."""
    pid = tt.bid(0)
    batch = tt.bid(1)
    num_n = tt.num_tiles(c, 1, (BM, BN))
    k_tiles = tt.num_tiles(a, 1, (BM, BK))
    pm = batch * (M // BM) + pid // num_n
    pn = pid % num_n
    acc = tt.zeros((BM, BN), tt.float32)
    for k in range(k_tiles):
        x = tt.load(a, index=(pm, k), shape=(BM, BK))
        y = tt.load(b, index=(batch * k_tiles + k, pn), shape=(BK, BN))
        acc = tt.mma(x, y, acc)
    tt.store(c, index=(pm, pn), tile=acc.astype(c.dtype))


def grid(m, n, bm, bn):
    return -(-m // bm) * -(-n // bn)


def gelu_ref(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def rel_error(got, ref):
    """‖got − ref‖ / ‖ref‖ in float64 (NaN when anything is NaN)."""
    got = np.asarray(got, np.float64)
    ref = np.asarray(ref, np.float64)
    return float(np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-300))


# The autotuned matmul: tile sizes and pipeline depth chosen by timing on the first call of each shape.
matmul_tuned = tt.autotune(configs=[
    tt.Config(BM=128, BN=256, BK=64, GROUP=8),
    tt.Config(BM=128, BN=256, BK=64, GROUP=16, num_stages=3),
    tt.Config(BM=128, BN=128, BK=64, GROUP=8),
    tt.Config(BM=256, BN=128, BK=64, GROUP=8),
])(matmul)


def tuned_grid(m, n):
    return lambda cfg: grid(m, n, cfg["BM"], cfg["BN"])
