"""Tile kernels behind tegula.numpy's data-dependent operations (compaction, advanced-index gather/scatter):
written in tegula.tile, so they run on the GPU and on the CPU interpreter alike."""
import tegula.tile as tt

TILE = 1024


@tt.kernel
def compress(x, keep, pos, out, T: tt.Constant[int], W: tt.Constant[int]):
    """out[pos[i] - 1] = x[i] where keep[i]: pos is the inclusive cumsum of keep (each kept element's 1-based rank).
    W = 2: an element is two scalars side by side (a complex number read as its float pair: x and out hold 2n and
    2m scalars), moved by the same launch."""
    offs = tt.arange(T).astype(tt.int64) + tt.bid(0).astype(tt.int64) * T
    inside = offs < keep.shape[0]
    k = tt.gather(keep, (offs,), mask=inside)
    p = tt.gather(pos, (offs,), mask=inside) - 1
    if W == 1:
        tt.scatter(out, (p,), tt.gather(x, (offs,), mask=inside), mask=inside & k)
    else:
        tt.scatter(out, (p * 2,), tt.gather(x, (offs * 2,), mask=inside), mask=inside & k)
        tt.scatter(out, (p * 2 + 1,), tt.gather(x, (offs * 2 + 1,), mask=inside), mask=inside & k)


@tt.kernel
def expand(out, keep, pos, vals, T: tt.Constant[int], W: tt.Constant[int]):
    """out[i] = vals[pos[i] - 1] where keep[i] (compress's inverse: a boolean assignment): pos and W as for
    compress."""
    offs = tt.arange(T).astype(tt.int64) + tt.bid(0).astype(tt.int64) * T
    inside = offs < keep.shape[0]
    k = tt.gather(keep, (offs,), mask=inside)
    p = tt.gather(pos, (offs,), mask=inside) - 1
    if W == 1:
        tt.scatter(out, (offs,), tt.gather(vals, (p,), mask=inside & k), mask=inside & k)
    else:
        tt.scatter(out, (offs * 2,), tt.gather(vals, (p * 2,), mask=inside & k), mask=inside & k)
        tt.scatter(out, (offs * 2 + 1,), tt.gather(vals, (p * 2 + 1,), mask=inside & k), mask=inside & k)


@tt.kernel
def indexed(base, idx, pre, post, vals, pre_step, post_step, col_tiles, TR: tt.Constant[int],
            TC: tt.Constant[int], PRE_TABLE: tt.Constant[bool], POST_TABLE: tt.Constant[bool],
            WRITE: tt.Constant[bool]):
    """Advanced indexing over 1-D `base` (the storage span) and 2-D `vals` (R, Q), R = P * B:
    vals[r, q] is base[pre(r // B) + idx[r % B] + post(q)], B = idx.shape[0]. pre(p) is pre[p] or
    p * pre_step, post(q) is post[q] or q * post_step (a table only where the axes do not merge into one
    stride). WRITE scatters vals into base (repeated offsets: one write wins), else vals is gathered.
    The grid is 1-D (row tiles x col_tiles) because CUDA caps the second grid axis at 65535 blocks.
    Offsets are int64 throughout: a storage span can pass 2**31 elements."""
    g = tt.bid(0)
    rt = g // col_tiles
    ct = g - rt * col_tiles
    rows = tt.arange(TR).astype(tt.int64) + rt.astype(tt.int64) * TR
    cols = tt.arange(TC).astype(tt.int64) + ct.astype(tt.int64) * TC
    row_ok = rows < vals.shape[0]
    col_ok = cols < vals.shape[1]
    B = idx.shape[0]
    p = rows // B
    r = tt.gather(idx, (rows - p * B,), mask=row_ok)
    if PRE_TABLE:
        r = r + tt.gather(pre, (p,), mask=row_ok)
    else:
        r = r + p * pre_step
    if POST_TABLE:
        c = tt.gather(post, (cols,), mask=col_ok)
    else:
        c = cols * post_step
    offs = tt.broadcast_to(tt.expand_dims(r, 1), (TR, TC)) + tt.broadcast_to(tt.expand_dims(c, 0), (TR, TC))
    # the 2-D mask from broadcast int64 tiles, not from broadcast bool tiles: the GPU code generator gets a
    # (TR, 1) & (1, TC) bool broadcast wrong today for TR = 8, TC = 128 (the interpreter does not)
    ok = (tt.broadcast_to(tt.expand_dims(rows, 1), (TR, TC)) < vals.shape[0]) & \
        (tt.broadcast_to(tt.expand_dims(cols, 0), (TR, TC)) < vals.shape[1])
    if WRITE:
        tt.scatter(base, (offs,), tt.load(vals, index=(rt, ct), shape=(TR, TC)), mask=ok)
    else:
        tt.store(vals, index=(rt, ct), tile=tt.gather(base, (offs,), mask=ok))
