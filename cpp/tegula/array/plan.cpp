// Planning a materialisation (see plan.hpp): space, leaf views, kernel shape, tiles, key.
#include "tegula/array/plan.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;

std::int64_t pow2_at_least(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// The column tile of a single-row space (a 1-D or contiguous array): three sizes, not a power of two per size.
// The tile is a compile-time constant of the kernel, so each size class compiles the same expression again; with
// one row the wider tile costs a few masked lanes of one block, and an expression used at many small sizes (a loop
// whose arrays shrink, say) compiles at most three times instead of up to thirteen.
std::int64_t one_row_tile(std::int64_t C, std::int64_t cap) {
  return std::min<std::int64_t>(C <= 256 ? 256 : C <= 1024 ? 1024 : 4096, std::max<std::int64_t>(cap, 1));
}

// A map graph whose threads hold more values per element than this gets a smaller tile (see make_plan).
constexpr std::size_t long_graph = 24;

// The values per element a thread of plan p's kernel holds, as codegen/layout.cpp's groups_per_thread counts them in
// the emitted body (a tile value per computed node, per array read and per scalar broadcast). A complex node is
// its two parts and the real ops it expands into (emit_complex.cpp): three for most, ten for a division (Smith's
// two branches), a power or a transcendental function. Computed nodes alone undercount a stencil of many views
// (vadv's and cavity_flow's 64 x 64 tiles at 1024 threads spilled at ptxas's 64 registers) and a complex graph
// (stockham_fft's twiddles, exp(-2j * pi * i * j / R**k)).
std::size_t tile_values(const plan& p) {
  static const bool by_computed = get_config().tile_by_computed;  // the earlier rule, for A/B runs
  if (by_computed) {
    std::size_t computed = 0;
    for (const auto& x : p.order) computed += x->pending() ? 1 : 0;
    return computed;
  }
  auto complex_weight = [](const node& x) -> std::size_t {
    using ir::op_kind;
    if (x.kind == node_kind::binary) return x.op == op_kind::div || x.op == op_kind::pow ? 10 : 3;
    if (x.kind == node_kind::unary) return x.op == op_kind::neg || x.op == op_kind::abs ? 3 : 10;
    return 3;
  };
  std::size_t n = 0;  // p.order: every node of the graph, leaves and scalars included
  for (const auto& x : p.order)
    n += ir::is_complex(x->t) || (x->kind == node_kind::binary && ir::is_complex(x->compute)) ? complex_weight(*x) : 1;
  return n;
}

// Small graphs: a linear scan beats hashing; past small_graph nodes an index keeps planning linear.
constexpr std::size_t small_graph = 32;

int find_seen(const plan& p, const node* n) {
  if (!p.seen_index.empty()) {
    auto it = p.seen_index.find(n);
    return it == p.seen_index.end() ? -1 : it->second;
  }
  for (const auto& [k, v] : p.seen)
    if (k == n) return v;
  return -1;
}

void collect(const node_ptr& n, plan& p, const substitutes& subst) {
  if (find_seen(p, n.get()) >= 0) return;
  if (n->pending())
    for (const auto& in : n->inputs) collect(in, p, subst);
  p.seen.emplace_back(n.get(), static_cast<int>(p.order.size()));
  if (p.seen.size() > small_graph) {
    if (p.seen_index.empty())
      for (const auto& [k, v] : p.seen) p.seen_index.emplace(k, v);
    else
      p.seen_index.emplace(n.get(), p.seen.back().second);
  }
  if (subst.empty()) {
    p.order.push_back(n);
  } else {
    auto s = subst.find(n.get());
    p.order.push_back(s == subst.end() ? n : s->second);
  }
}

// One group of space axes (extents, strides) as a single (extent, stride), or nullopt.
std::optional<std::pair<std::int64_t, std::int64_t>> merge(const std::int64_t* ext, const std::int64_t* str,
                                                           int n) {
  std::int64_t extent = 1, stride = 0;
  bool any = false;
  for (int i = 0; i < n; ++i)
    if (ext[i] == 0) return std::make_pair(std::int64_t(0), std::int64_t(1));  // no elements: any stride
  for (int i = n; i-- > 0;) {  // innermost first
    if (ext[i] == 1) continue;
    if (!any) {
      extent = ext[i], stride = str[i], any = true;
    } else if (str[i] == stride * extent) {
      extent *= ext[i];
    } else {
      return std::nullopt;
    }
  }
  return std::make_pair(extent, stride);
}

bool reduce_has_split(op_kind op) { return op != op_kind::argmax && op != op_kind::argmin; }

// A dense layout of `shape` whose memory order is the space's axis order `perm` (the last space
// axis varies fastest): what a copy into the space, and a scan's result, get.
layout space_ordered(const dims& shape, const std::vector<int>& perm) {
  const std::size_t nd = shape.size();
  dims permuted(nd), strides(nd);
  for (std::size_t k = 0; k < nd; ++k) permuted[k] = shape[perm[k]];
  dims cs = c_strides(permuted);
  for (std::size_t k = 0; k < nd; ++k) strides[perm[k]] = cs[k];
  return layout{shape, strides, 0};
}

}  // namespace

namespace {

// A view's 16-byte alignment (what vector loads and stores need): its address (0: a fresh allocation, always
// aligned), its row pitch and its batch pitch, for items of `item` bytes. Only a view with contiguous rows can be
// read by vectors, so only it is called aligned: a strided view (durbin's np.flip(r[:k])) whose address is 16-byte
// aligned at every other k then builds one kernel, not two (codegen asks for both flags before it vectorises).
bool aligned_view(const view2d& w, std::uintptr_t address, int item) {
  return w.contiguous && address % 16 == 0 && (w.rows == 1 || (w.row_stride * item) % 16 == 0) &&
         (w.batches == 1 || (w.batch_stride * item) % 16 == 0);
}

// A col_loop view's flags as its kernel sees it, transposed to (cols, rows): contiguous when its rows are, aligned
// when that and its address and column pitch are (address 0: a fresh allocation).
void transposed_flags(view2d& w, std::uintptr_t address) {
  const int item = size_bytes(w.t);
  w.contiguous = w.rows == 1 || w.row_stride == 1;
  w.aligned = w.contiguous && address % 16 == 0 && (w.cols == 1 || (w.col_stride * item) % 16 == 0);
}
void transposed_flags(view2d& w) { transposed_flags(w, w.address); }

bool same_view(const view2d& a, const view2d& b) {
  return a.address == b.address && a.t == b.t && a.rows == b.rows && a.cols == b.cols && a.batches == b.batches &&
         a.row_stride == b.row_stride && a.col_stride == b.col_stride && a.batch_stride == b.batch_stride &&
         a.col_bcast == b.col_bcast && a.row_bcast == b.row_bcast && a.batch_bcast == b.batch_bcast &&
         a.contiguous == b.contiguous && a.aligned == b.aligned;
}

// The parameter already holding view w, or -1 (a scan of the few leaves of a small graph, an index past them).
int find_view(const plan& p, const view2d& w) {
  if (p.leaf_index.empty()) {
    for (std::size_t k = 0; k < p.leaves.size(); ++k)
      if (same_view(p.leaves[k], w)) return static_cast<int>(k);
    return -1;
  }
  auto [lo, hi] = p.leaf_index.equal_range(w.address);
  for (auto it = lo; it != hi; ++it)
    if (same_view(p.leaves[it->second], w)) return it->second;
  return -1;
}

}  // namespace

std::pair<view2d, view2d> complex_parts(const view2d& w) {
  view2d re = w;
  re.t = ir::component(w.t);
  re.row_stride *= 2, re.col_stride *= 2, re.batch_stride *= 2;
  re.contiguous = re.cols == 1;
  re.aligned = false;
  view2d im = re;
  im.address += static_cast<std::uintptr_t>(size_bytes(re.t));
  return {re, im};
}

kernel::scalar_arg scalar_parameter(const plan& p, std::size_t i) {
  const node* s = p.scalars[i];
  const bool second = i > 0 && p.scalars[i - 1] == s;  // an iota's step, a complex scalar's imaginary part
  if (s->kind == node_kind::iota)
    return {iota_wide(s->t), second ? s->fstep : s->fvalue, second ? s->istep : s->ivalue};
  if (ir::is_complex(s->t)) return {ir::component(s->t), second ? s->fimag : s->fvalue, 0};
  return {s->t, s->fvalue, s->ivalue};
}

void plan::reset() {
  shape = kernel_shape::map;
  R = C = TR = TC = parts = B = 1;
  batched = row_result = false;
  order.clear(), leaf_of.clear(), inputs_flat.clear(), inputs_begin.clear(), leaves.clear(), scalars.clear();
  out = view2d{};
  perm.clear();
  key.clear();
  ncols = 1, grid = 1;
  seen.clear(), seen_index.clear(), leaf_strides.clear(), leaf_index.clear();
  sibling_at.clear(), sibling_out.clear();
}

bool make_plan(plan& p, plan_blocker& blocker, const node_ptr& root, std::uintptr_t out_address, int sm_count,
               const substitutes& subst, const layout* out_view, const std::vector<node_ptr>* siblings) {
  p.reset();
  if (root->kind == node_kind::library) fail(error_kind::internal, "a library call has no array kernel plan");
  if (siblings)
    for (const auto& s : *siblings) collect(s, p, subst);
  collect(root, p, subst);  // the root last: p.order.back()
  if (siblings && p.order.back().get() != root.get() && !subst.count(root.get()))
    fail(error_kind::internal, "a sibling output reads the root");
  for (std::size_t i = 0; i < p.order.size(); ++i) {
    p.inputs_begin.push_back(static_cast<int>(p.inputs_flat.size()));
    for (const auto& in : p.order[i]->inputs) p.inputs_flat.push_back(find_seen(p, in.get()));
  }
  p.inputs_begin.push_back(static_cast<int>(p.inputs_flat.size()));
  auto blocked = [&](plan_blocker b) {
    blocker = std::move(b);
    return false;
  };

  const bool scan_root = root->kind == node_kind::scan;
  const bool reduce_root = root->kind == node_kind::reduce || scan_root;  // scans run along the columns too
  // A 0-d expression of full reductions of one shape, (b[i] - L[i, :i] @ x[:i]) / L[i, i]: one row holding the
  // reductions' input, its value computed after them in the same kernel (one kernel, not a reduction and then
  // the expression).
  const node* full = nullptr;
  if (!reduce_root && root->shape.empty())
    for (const auto& n : p.order)
      if (n->kind == node_kind::reduce && n->shape.empty() && n->inputs[0]->size() > 0 &&
          n->inputs[0]->size() <= max_row_tile && (!full || n->inputs[0]->shape == full->shape))
        full = n->inputs[0].get();
  bool epilogue = full != nullptr;
  for (const auto& n : p.order)  // every reduction of the graph must be such a full one
    if (epilogue && n->kind == node_kind::reduce && (!n->shape.empty() || n->inputs[0]->shape != full->shape))
      epilogue = false;
  p.row_result = reduce_root || epilogue;
  const dims& S = reduce_root ? root->inputs[0]->shape : epilogue ? full->shape : root->shape;
  if (out_view && (scan_root || out_view->shape != root->shape))
    fail(error_kind::internal, "an output view is for elementwise or reduction roots of its shape");
  if (S.size() > 64) fail(error_kind::invalid_argument, "arrays may have at most 64 dimensions");
  const int nd = static_cast<int>(S.size());
  bool inner = false;
  for (const auto& n : p.order) {
    if (n != root && (n->kind == node_kind::scan || n->kind == node_kind::iota || n->kind == node_kind::library))
      return blocked({n, nullptr, nullptr, {}});
    if (n == root || n->kind != node_kind::reduce) continue;
    if (epilogue) {  // checked above: full reductions of the space
      inner = true;
      continue;
    }
    bool fits = n->inputs[0]->shape == S && nd > 0 && n->axes == std::vector<int>{nd - 1} && n->keepdims &&
                (!reduce_root || root->axes == std::vector<int>{nd - 1}) && !scan_root && S[nd - 1] <= max_row_tile;
    if (!fits) return blocked({n, nullptr, nullptr, {}});
    inner = true;
  }

  // The space's axis order: kept axes, then reduced ones.
  std::vector<int> reduced;
  if (reduce_root) reduced = root->axes;
  else if (epilogue) for (int i = 0; i < nd; ++i) reduced.push_back(i);
  else if (inner) reduced = {nd - 1};
  for (int i = 0; i < nd; ++i)
    if (std::find(reduced.begin(), reduced.end(), i) == reduced.end()) p.perm.push_back(i);
  for (int a : reduced) p.perm.push_back(a);

  // Leaves broadcast to the space, permuted, their groups merged: batches [0, bsplit), rows [bsplit, split),
  // columns [split, nd). bsplit 0 is the plain 2-D space.
  struct leaf_view {
    std::pair<std::int64_t, std::int64_t> batches{1, 0}, rows, cols;
  };
  auto view_of = [&](const std::int64_t* strides, int bsplit, int split) -> std::optional<leaf_view> {
    std::int64_t e[64], st[64];
    for (int i = 0; i < nd; ++i) e[i] = S[p.perm[i]], st[i] = strides[p.perm[i]];
    auto r = merge(e + bsplit, st + bsplit, split - bsplit), c = merge(e + split, st + split, nd - split);
    if (!r || !c) return std::nullopt;
    leaf_view v{{1, 0}, *r, *c};
    if (bsplit > 0) {
      auto bt = merge(e, st, bsplit);
      if (!bt) return std::nullopt;
      v.batches = *bt;
    }
    return v;
  };
  // Each leaf's strides broadcast to the space (NumPy's rule: missing or extent-1 axes get 0).
  int nleaves = 0;
  for (const auto& n : p.order) {
    if (n->kind != node_kind::leaf) continue;
    ++nleaves;
    const int ln = n->lay.ndim();
    for (int i = 0; i < nd; ++i) {
      int j = i - (nd - ln);
      p.leaf_strides.push_back(j < 0 || (n->lay.shape[j] == 1 && S[i] != 1) ? 0 : n->lay.strides[j]);
    }
  }
  auto strides_of = [&](int leaf) { return p.leaf_strides.data() + static_cast<std::ptrdiff_t>(leaf) * nd; };
  // A given output view's strides over the space's axes (a reduction's reduced axes: 0).
  std::int64_t out_strides[64] = {};
  if (out_view) {
    if (!p.row_result) {
      for (int i = 0; i < nd; ++i) out_strides[i] = out_view->strides[i];
    } else if (reduce_root) {
      int k = 0;  // the kept axes in order: the result's axes (with keepdims, at their own places)
      for (int i = 0; i < nd; ++i)
        if (std::find(reduced.begin(), reduced.end(), i) == reduced.end())
          out_strides[i] = out_view->strides[root->keepdims ? i : k++];
    }
  }
  auto all_merge = [&](int bsplit, int split) {
    for (int l = 0; l < nleaves; ++l)
      if (!view_of(strides_of(l), bsplit, split)) return false;
    return !out_view || view_of(out_strides, bsplit, split).has_value();
  };
  // Whether axes [split, nd) merge into one column group in every leaf (and the output view).
  auto columns_merge = [&](int split) {
    std::int64_t e[64], st[64];
    for (int i = split; i < nd; ++i) e[i] = S[p.perm[i]];
    for (int l = 0; l <= nleaves; ++l) {
      if (l == nleaves && !out_view) break;
      const std::int64_t* s = l < nleaves ? strides_of(l) : out_strides;
      for (int i = split; i < nd; ++i) st[i] = s[p.perm[i]];
      if (!merge(e + split, st + split, nd - split)) return false;
    }
    return true;
  };
  // Elementwise graphs take the widest group of inner axes that merges in every leaf as their columns: all of them
  // (one flat space: every leaf dense in the same order), else, say, hdiff's views of one (I + 4, J + 4, K) array,
  // in_field[1:I + 3, 1:J + 3, :], with rows of J * K contiguous elements (K = 160 alone would fill 160 lanes of a
  // 256-wide tile and batch the I axis).
  int split = nd - static_cast<int>(reduced.size());
  if (!reduce_root && !inner) {
    split = std::max(nd - 1, 0);
    while (split > 0 && columns_merge(split - 1)) --split;
  }
  // Where the kept axes of some leaf (or of the output view) do not merge into one stride, the innermost kept
  // axis becomes the rows and the outer ones the batches, where the output view merges so. A leaf that still does
  // not merge is copied into the space's order below (as it would be unbatched: batching never copies more). A
  // reduction batches only where every leaf it reads in place has a tile dense in memory: its reduced axes
  // contiguous, or its rows (all(x * w[:, :, None], axis=1): rows of stride 1 interleave with columns of stride 3,
  // and the tile reads whole sectors). Strided columns of strided rows would be read uncoalesced; a copy into the
  // space's order serves those better.
  int bsplit = 0;
  if (split >= 2 && !scan_root && !all_merge(0, split) &&
      (!out_view || view_of(out_strides, split - 1, split).has_value())) {
    bool coalesced = true;
    if (reduce_root)
      for (int l = 0; l < nleaves && coalesced; ++l) {
        auto v = view_of(strides_of(l), split - 1, split);
        coalesced = !v || v->cols.second == 0 || v->cols.second == 1 || v->cols.first == 1 ||
                    (v->rows.second == 1 && v->rows.first > 1 && v->cols.second <= 2 * v->rows.first);
      }
    if (coalesced) bsplit = split - 1;
  }
  p.batched = bsplit > 0;
  for (int i = 0; i < nd; ++i) (i < bsplit ? p.B : i < split ? p.R : p.C) *= S[p.perm[i]];
  p.ncols = p.C;
  // A given output view must merge as the leaves do; checked before any leaf is copied for this plan.
  std::optional<leaf_view> out_merged;
  if (out_view && !(out_merged = view_of(out_strides, bsplit, split))) {
    blocker.out_unfit = true;
    return false;
  }

  // A root reduction whose every leaf has contiguous rows (or is broadcast along them) and strided columns (at
  // least one of them; none with contiguous columns of strided rows): the col_loop shape.
  auto column_major = [&] {
    if (!reduce_root || scan_root || inner || p.batched || p.R < 2 || p.C < 2 || !reduce_has_split(root->op))
      return false;
    bool strided = false;
    for (int l = 0; l < nleaves; ++l) {
      auto v = view_of(strides_of(l), 0, split);
      if (!v) return false;  // copied into the space's order first: its rows are then contiguous
      const std::int64_t rs = v->rows.second, cs = v->cols.second;
      if (rs == 0) continue;  // one value per column
      if (rs != 1 || cs == 1) return false;
      strided = strided || cs != 0;
    }
    return strided;
  };

  // Kernel shape and tiles.
  if (!reduce_root && !inner) {
    p.shape = kernel_shape::map;
    // A long graph's threads own fewer elements each (codegen/layout.cpp: groups_per_thread, to keep its values
    // in registers); a 1024-element tile then keeps its blocks at 256 threads or fewer, which pack the SMs
    // better than 1024-thread blocks at that register count.
    const std::int64_t tile = tile_values(p) > long_graph ? 1024 : 4096;
    // One row, or a few rows that fit one tile of a size-class width (stockham_fft's (2, 2^i) twiddles for every
    // i): the class, not the power of two of the columns (still one block over a few rows); one kernel for many
    // widths. More rows: a power-of-two width, as many rows as the tile holds.
    const std::int64_t width = one_row_tile(p.C, tile);
    if (pow2_at_least(p.R) * width <= tile) {
      p.TC = width;
      p.TR = pow2_at_least(p.R);
    } else {
      p.TC = std::min<std::int64_t>(pow2_at_least(p.C), tile);
      p.TR = std::min<std::int64_t>(pow2_at_least(p.R), std::max<std::int64_t>(tile / p.TC, 1));
    }
  } else if (column_major()) {
    // Rows of a (TC, TR) tile are TR contiguous elements: every warp reads whole sectors, where a rows or
    // row_loop block would read one element per TC-strided column (bench/probe_matvec_pairs.py on an H100:
    // A.sum(0) of 16000^2 float64 at 946 GB/s against CuPy's 2900). Column ranges in parallel (partials) where
    // the rows alone make fewer than 4 blocks per SM.
    p.shape = kernel_shape::col_loop;
    const std::int64_t tile = tile_values(p) > long_graph ? 1024 : 4096;
    p.TR = std::min<std::int64_t>(pow2_at_least(p.R), 128);
    p.TC = std::min<std::int64_t>(pow2_at_least(p.C), std::max<std::int64_t>(tile / p.TR, 1));
    const std::int64_t row_blocks = (p.R + p.TR - 1) / p.TR, chunks = (p.C + p.TC - 1) / p.TC;
    if (p.R * p.C >= (std::int64_t(1) << 20))
      p.parts = std::clamp<std::int64_t>((4 * sm_count + row_blocks - 1) / row_blocks, 1, chunks);
  } else if (inner || p.C <= max_row_tile) {
    p.shape = kernel_shape::rows;
    // One row (a full reduction, or one with an epilogue: trisolv's (b[i] - L[i, :i] @ x[:i]) / L[i, i] at every
    // length i) takes the size classes of one_row_tile: a loop over lengths compiles 4 kernels, not one per power of
    // two. Not a one-column epilogue: its 0-d leaves could not be told from its one column (both load a full tile).
    p.TC = p.R == 1 && (!inner || p.C > 1) ? std::max(one_row_tile(p.C, max_row_tile), pow2_at_least(p.C))
                                           : pow2_at_least(p.C);
    p.TR = std::min<std::int64_t>(pow2_at_least(p.R), std::max<std::int64_t>(2048 / p.TC, 1));
  } else if (scan_root) {
    p.shape = kernel_shape::scan_loop;
    p.TC = 4096;
  } else if (p.B * p.R >= 2 * sm_count || !reduce_has_split(root->op) || p.batched) {
    p.shape = kernel_shape::row_loop;
    p.TC = 4096;
  } else {
    p.shape = kernel_shape::split;
    p.TC = 4096;
    std::int64_t chunks = (p.C + p.TC - 1) / p.TC;
    p.parts = std::clamp<std::int64_t>(8 * sm_count / p.R, 1, chunks);
  }

  // Leaf views (a leaf whose groups do not merge is copied first, into the space's order).
  int li = 0;
  p.leaf_of.assign(p.order.size(), -1);
  for (std::size_t i = 0; i < p.order.size(); ++i) {
    const auto& n = p.order[i];
    if (n->kind == node_kind::scalar || n->kind == node_kind::iota) {
      p.leaf_of[i] = static_cast<int>(p.scalars.size());
      p.scalars.push_back(n.get());
      // An iota: its start, then its step; a complex scalar: its real, then its imaginary part.
      if (n->kind == node_kind::iota || ir::is_complex(n->t)) p.scalars.push_back(n.get());
      continue;
    }
    if (n->kind != node_kind::leaf) continue;
    const std::int64_t* leaf_strides = strides_of(li++);
    auto v = view_of(leaf_strides, bsplit, split);
    if (!v) {
      const node* key = nullptr;
      for (const auto& [k, v] : p.seen)
        if (v == static_cast<int>(i)) key = k;
      // Dense in the space's order over the axes the leaf varies along; stride 0 along those it is broadcast
      // over (a window times a weight, (N, K, K, C, 1) * (1, K, K, C, F): the window is copied once, not F times).
      dims own = S;
      for (int a = 0; a < nd; ++a)
        if (leaf_strides[a] == 0) own[a] = 1;
      layout target = space_ordered(own, p.perm);
      target.shape = S;
      for (int a = 0; a < nd; ++a)
        if (own[a] == 1) target.strides[a] = 0;
      if (!view_of(target.strides.data(), bsplit, split)) target = space_ordered(S, p.perm);  // dense over all
      return blocked({nullptr, n, key, target});
    }
    view2d w;
    w.t = n->t;
    const int item = size_bytes(n->t);
    w.address = element_address(*n);
    w.row_stride = v->rows.second;
    w.col_stride = v->cols.second;
    w.batch_stride = v->batches.second;
    w.col_bcast = p.C > 1 && w.col_stride == 0;
    w.row_bcast = p.R > 1 && w.row_stride == 0;
    w.batch_bcast = p.B > 1 && w.batch_stride == 0;
    w.rows = w.row_bcast ? 1 : p.R;
    w.cols = w.col_bcast ? 1 : p.C;
    w.batches = w.batch_bcast ? 1 : p.B;
    w.contiguous = w.cols == 1 || w.col_stride == 1;
    w.aligned = aligned_view(w, w.address, item);
    // The same view read twice (hdiff's shifted views of in_field, pushed down from its four uses of lap_field:
    // 50 leaves, 13 distinct) is one parameter and one load; the tile IR's cse then merges what is computed
    // from equal loads.
    if (int same = find_view(p, w); same >= 0) {
      p.leaf_of[i] = same;
      continue;
    }
    p.leaf_of[i] = static_cast<int>(p.leaves.size());
    if (p.leaves.size() >= small_graph) {
      if (p.leaf_index.empty())
        for (std::size_t k = 0; k < p.leaves.size(); ++k) p.leaf_index.emplace(p.leaves[k].address, static_cast<int>(k));
      p.leaf_index.emplace(w.address, p.leaf_of[i]);
    }
    if (ir::is_complex(n->t)) {  // two float views: the real parts, then the imaginary parts
      auto [re, im] = complex_parts(w);
      p.leaves.push_back(re);
      p.leaves.push_back(im);
    } else {
      p.leaves.push_back(w);
    }
  }

  // The result.
  p.out_t = root->t;
  if (stores_partials(p) && ir::is_float(root->t) && size_bytes(root->t) == 2) p.out_t = dtype::f32;
  p.out.t = p.out_t;
  p.out.address = out_address;
  p.out.rows = p.R;
  p.out.batches = p.B;
  if (out_view && !stores_partials(p)) {  // written through the given view: its merged strides
    p.out.cols = p.row_result ? 1 : p.C;
    p.out.row_stride = out_merged->rows.second, p.out.batch_stride = out_merged->batches.second;
    p.out.col_stride = p.row_result ? 1 : out_merged->cols.second;
    p.out.contiguous = p.out.cols == 1 || p.out.col_stride == 1;
  } else if (!p.row_result || scan_root) {  // the result has the space's shape (scans: in the space's axis order)
    p.out.cols = p.C, p.out.row_stride = p.C, p.out.col_stride = 1, p.out.batch_stride = p.R * p.C;
  } else if (p.shape == kernel_shape::split) {
    p.out.cols = p.parts, p.out.row_stride = p.parts, p.out.col_stride = 1;
  } else if (stores_partials(p)) {  // col_loop: the partials as a (parts, R) array, each part's rows contiguous
    p.out.cols = p.parts, p.out.row_stride = 1, p.out.col_stride = p.R;
    p.out.contiguous = false;
  } else {
    p.out.cols = 1, p.out.row_stride = 1, p.out.col_stride = 1, p.out.batch_stride = p.R;
  }
  p.out.aligned = aligned_view(p.out, out_address, size_bytes(p.out_t));
  if (p.shape == kernel_shape::col_loop) {  // the kernel reads and writes every view transposed: (cols, rows)
    for (auto& w : p.leaves) transposed_flags(w);
    transposed_flags(p.out, out_address);
  }
  if (siblings) {
    if (p.row_result || out_view || p.shape != kernel_shape::map) fail(error_kind::internal, "sibling outputs of a non-map plan");
    for (const auto& s : *siblings) {
      view2d w = p.out;
      w.t = s->t;
      w.address = 0;  // a fresh allocation
      w.aligned = aligned_view(w, 0, size_bytes(s->t));
      p.sibling_at.push_back(find_seen(p, s.get()));
      p.sibling_out.push_back(w);
    }
  }
  // Scans are stored in the space's axis order (their result has the input's shape).
  p.out_layout = out_view && !stores_partials(p) ? *out_view : scan_root ? space_ordered(S, p.perm) : contiguous(root->shape);
  auto tiles = [](std::int64_t n, std::int64_t t) { return (n + t - 1) / t; };
  switch (p.shape) {
    case kernel_shape::map: p.grid = p.B * tiles(p.R, p.TR) * tiles(p.C, p.TC); break;
    case kernel_shape::rows:
    case kernel_shape::row_loop:
    case kernel_shape::scan_loop: p.grid = p.B * tiles(p.R, p.TR); break;
    case kernel_shape::split: p.grid = p.R * p.parts; break;
    case kernel_shape::col_loop: p.grid = tiles(p.R, p.TR) * p.parts; break;
  }

  // The key: everything the generated kernel depends on, nothing that only its parameters carry.
  // Written through a pointer into a buffer sized for the worst case (the string keeps its capacity
  // between plans), not appended char by char.
  std::string& k = p.key;
  k.resize(32 + p.order.size() * (8 + 3 * sizeof(int)) + p.sibling_at.size() * (2 + sizeof(int)));
  char* w = k.data();
  auto byte = [&w](int c) { *w++ = static_cast<char>(c); };
  auto word = [&w](auto v) {
    std::memcpy(w, &v, sizeof v);
    w += sizeof v;
  };
  byte(static_cast<int>(root->device));
  byte(static_cast<int>(p.shape));
  word(p.TR), word(p.TC);
  byte(p.C == p.TC ? 'e' : 'm');  // exact rows need no column mask
  byte(static_cast<int>(p.out_t));
  byte(p.out.aligned ? 'a' : 'u');
  byte(p.out.contiguous ? 'c' : 's');
  byte(p.batched ? '3' : '2');
  byte(p.row_result ? 'r' : 'f');
  byte(static_cast<int>(p.sibling_at.size()));
  for (std::size_t i = 0; i < p.sibling_at.size(); ++i) {
    byte(static_cast<int>(p.sibling_out[i].t));
    byte(p.sibling_out[i].aligned ? 'a' : 'u');
    word(p.sibling_at[i]);
  }
  for (std::size_t i = 0; i < p.order.size(); ++i) {
    const auto& n = p.order[i];
    byte(static_cast<int>(n->kind));
    byte(static_cast<int>(n->t));
    byte(static_cast<int>(n->compute));
    byte(static_cast<int>(n->op));
    if (n->kind == node_kind::leaf) {
      const view2d& v = p.leaves[p.leaf_of[i]];
      byte((v.col_bcast ? 1 : 0) | (v.row_bcast ? 2 : 0) | (v.contiguous ? 4 : 0) | (v.aligned ? 8 : 0) |
           (v.batch_bcast ? 16 : 0));
      word(p.leaf_of[i]);  // which parameter: a view read twice is one
    }
    if (n->kind == node_kind::reduce) byte(n->keepdims ? 'k' : 'r');
    if (n->kind == node_kind::scan) byte('s');
    if (n->kind == node_kind::part) byte('0' + static_cast<int>(n->ivalue));
    for (int j = p.inputs_begin[i]; j < p.inputs_begin[i + 1]; ++j) word(p.inputs_flat[j]);
    byte(';');
  }
  k.resize(static_cast<std::size_t>(w - k.data()));
  return true;
}

}  // namespace tegula::array
