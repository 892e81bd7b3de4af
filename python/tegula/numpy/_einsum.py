"""einsum: NumPy's subscripts (explicit '->' or implicit output, '...' broadcasting, repeated indices as
diagonals) evaluated as pairwise contractions, left to right. Each pair becomes one batched matmul (cuBLASLt on the
GPU) over (batch, left, contracted) x (batch, contracted, right) after summing the indices only one side has."""
from __future__ import annotations

import string

import numpy as _np

from ._common import _arr
from ._manipulation import broadcast_to, diagonal
from ._matmul import matmul

_LETTERS = set(string.ascii_letters)


def _parse(subscripts, operands):
    s = subscripts.replace(" ", "")
    if "->" in s:
        ins, out = s.split("->")
        explicit = True
    else:
        ins, out, explicit = s, None, False
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string"
                         if len(operands) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the subscripts string")
    # '...': replaced by fresh capital-free letters per broadcast dimension.
    unused = [c for c in string.ascii_uppercase + string.ascii_lowercase if c not in s]
    ell_dims = 0
    for t, op in zip(terms, operands):
        if "..." in t:
            ell_dims = max(ell_dims, op.ndim - len(t.replace("...", "")))
    ell = "".join(unused[:ell_dims])
    fixed = []
    for t, op in zip(terms, operands):
        if "..." in t:
            k = op.ndim - len(t.replace("...", ""))
            t = t.replace("...", ell[ell_dims - k:] if k else "")
        if len(t) != op.ndim:
            raise ValueError(f"operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             f"ellipsis provided to broadcast the extra dimensions." if op.ndim > len(t) else
                             f"einstein sum subscripts string contains too many subscripts for operand")
        for c in t:
            if c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters")
        fixed.append(t)
    if explicit:
        out = out.replace("...", ell)
        for c in out:
            if not any(c in t for t in fixed):
                raise ValueError(f"einstein sum subscripts string included output subscript '{c}' which never appeared in "
                                 "an input")
    else:
        counts = {}
        for t in fixed:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return fixed, out


def _diagonals(x, t):
    """x with repeated subscripts of t reduced to their diagonal: (array, subscripts without repeats)."""
    while True:
        dup = next((c for c in t if t.count(c) > 1), None)
        if dup is None:
            return x, t
        i = t.index(dup)
        j = t.index(dup, i + 1)
        x = diagonal(x, 0, i, j)  # the diagonal becomes the last axis
        t = "".join(c for k, c in enumerate(t) if k not in (i, j)) + dup


def _sum_only_here(x, t, keep):
    """Sum the axes of x whose subscripts appear in no other term and not in the output."""
    axes = tuple(i for i, c in enumerate(t) if c not in keep)
    if axes:
        x = x.sum(axis=axes)
        t = "".join(c for c in t if c in keep)
    return x, t


def _pair(a, ta, b, tb, keep):
    """Contract a (subscripts ta) with b (tb), keeping the subscripts in `keep`: one batched matmul."""
    batch = [c for c in ta if c in tb and c in keep]
    contract = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    size = {}
    for x, t in ((a, ta), (b, tb)):
        for c, e in zip(t, x.shape):
            if c in size and size[c] != e and 1 not in (size[c], e):
                raise ValueError(f"operands could not be broadcast together with remapped shapes: subscript '{c}' is "
                                 f"{size[c]} and {e}")
            size[c] = max(size.get(c, 1), e)
    pa = a.transpose([ta.index(c) for c in batch + left + contract]) if a.ndim else a
    pb = b.transpose([tb.index(c) for c in batch + contract + right]) if b.ndim else b
    pa = broadcast_to(pa, tuple(size[c] for c in batch + left + contract))
    pb = broadcast_to(pb, tuple(size[c] for c in batch + contract + right))
    if not contract:  # an outer or elementwise product: a broadcast multiply (fused), no matmul
        ea = pa.reshape(pa.shape + (1,) * len(right))
        eb = pb.reshape(tuple(size[c] for c in batch) + (1,) * len(left) + tuple(size[c] for c in right))
        return ea * eb, "".join(batch + left + right)
    nb, nl, nc, nr = (int(_np.prod([size[c] for c in g], dtype=_np.int64)) for g in (batch, left, contract, right))
    r = matmul(pa.reshape(nb, nl, nc), pb.reshape(nb, nc, nr))
    return r.reshape(tuple(size[c] for c in batch + left + right)), "".join(batch + left + right)


def _interleaved(args):
    """NumPy's interleaved form einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) as (subscripts, operands):
    each sublist's integers (or Ellipsis) become letters."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def word(sub):
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, (int, _np.integer)) and 0 <= int(s) < len(letters):
                out.append(letters[int(s)])
            else:
                raise ValueError("subscript is not within the valid range [0, 52)")
        return "".join(out)

    ops, subs = list(args[0::2]), list(args[1::2])
    explicit = len(args) % 2 == 1
    if explicit:
        target = ops.pop()  # the last item of an odd-length list is the output sublist
        return ",".join(word(x) for x in subs) + "->" + word(target), ops
    return ",".join(word(x) for x in subs), ops


def einsum(subscripts, *operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts,) + operands)
    ops = [_arr(x) for x in operands]
    if not ops:
        raise ValueError("No input operands")
    terms, target = _parse(subscripts, ops)
    xs = []
    for x, t in zip(ops, terms):
        xs.append(_diagonals(x, t))
    # Left to right: each step keeps what the output or a later term still needs.
    x, t = xs[0]
    rest = [tt for _, tt in xs[1:]]
    x, t = _sum_only_here(x, t, set(target) | set("".join(rest)))
    for k, (y, u) in enumerate(xs[1:]):
        later = set("".join(rest[k + 1:]))
        y, u = _sum_only_here(y, u, set(target) | set(t) | later)
        x, t = _pair(x, t, y, u, set(target) | later)
    x, t = _sum_only_here(x, t, set(target))
    r = x.transpose([t.index(c) for c in target]) if target else x
    if dtype is not None:
        r = r.astype(dtype)
    if out is not None:
        out._assign(r)
        return out
    return r
