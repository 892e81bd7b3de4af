"""Tile kernels behind tegula.numpy's data-dependent operations (compaction, row gather/scatter):
written in tegula.tile, so they run on the GPU and on the CPU interpreter alike."""
import tegula.tile as tt

TILE = 1024


@tt.kernel
def compress(x, keep, pos, out, T: tt.Constant[int]):
    """out[pos[i]] = x[i] where keep[i]: pos is the inclusive cumsum of keep, minus one."""
    offs = tt.arange(T) + tt.bid(0) * T
    inside = offs < x.shape[0]
    k = tt.gather(keep, (offs,), mask=inside)
    p = tt.gather(pos, (offs,), mask=inside)
    v = tt.gather(x, (offs,), mask=inside)
    tt.scatter(out, (p,), v, mask=inside & k)


@tt.kernel
def take_rows(x, idx, out, TR: tt.Constant[int], TC: tt.Constant[int]):
    """out[i, j] = x[idx[i], j] (2-D x and out; idx already in range)."""
    rows = tt.arange(TR) + tt.bid(0) * TR
    cols = tt.arange(TC) + tt.bid(1) * TC
    src = tt.gather(idx, (rows,), mask=rows < out.shape[0])
    r = tt.broadcast_to(tt.expand_dims(src, 1), (TR, TC))
    c = tt.broadcast_to(tt.expand_dims(cols, 0), (TR, TC))
    ok = tt.broadcast_to(tt.expand_dims(rows < out.shape[0], 1), (TR, TC)) & (c < out.shape[1])
    tt.store(out, index=(tt.bid(0), tt.bid(1)), tile=tt.gather(x, (r, c), mask=ok))


@tt.kernel
def put_rows(out, idx, v, TR: tt.Constant[int], TC: tt.Constant[int]):
    """out[idx[i], j] = v[i, j] (2-D out and v; idx already in range; repeated indices: one wins)."""
    rows = tt.arange(TR) + tt.bid(0) * TR
    cols = tt.arange(TC) + tt.bid(1) * TC
    dst = tt.gather(idx, (rows,), mask=rows < v.shape[0])
    r = tt.broadcast_to(tt.expand_dims(dst, 1), (TR, TC))
    c = tt.broadcast_to(tt.expand_dims(cols, 0), (TR, TC))
    ok = tt.broadcast_to(tt.expand_dims(rows < v.shape[0], 1), (TR, TC)) & (c < v.shape[1])
    tt.scatter(out, (r, c), tt.load(v, index=(tt.bid(0), tt.bid(1)), shape=(TR, TC)), mask=ok)
