// Thread mapping of tile values: threads per block, vector width and per-thread register arrays.
#include "tegula/codegen/layout.hpp"

#include <algorithm>

#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// The vector width a load or store of elements of `bytes` bytes wants: one 16-byte access.
int wanted_vec(int bytes) { return std::max(1, 16 / std::max(1, bytes)); }

}  // namespace

// Shapes that differ only by leading unit axes have the same row-major order: they share one layout (so a
// (1, R, C) load reshaped to (R, C) stays in registers).
std::vector<std::int64_t> layout_key(const std::vector<std::int64_t>& shape) {
  std::size_t lead = 0;
  while (lead + 1 < shape.size() && shape[lead] == 1) ++lead;
  return std::vector<std::int64_t>(shape.begin() + static_cast<std::ptrdiff_t>(lead), shape.end());
}

namespace {

void collect(const ir::function& f, const ir::region& r, std::map<std::vector<std::int64_t>, int>& want) {
  for (const ir::op& o : r.ops) {
    auto note = [&](ir::value_id tile, ir::value_id array) {
      const ir::type& t = f.type_of(tile);
      if (!t.is_tile() || t.numel() <= 1) return;
      int v = wanted_vec(ir::size_bytes(f.type_of(array).elem));
      int& w = want[layout_key(t.shape)];
      w = std::max(w, v);
    };
    if (o.kind == ir::op_kind::load && !o.results.empty()) note(o.results[0], o.operands[0]);
    if (o.kind == ir::op_kind::store && o.operands.size() >= 2) note(o.operands.back(), o.operands[0]);
    for (const ir::region& inner : o.regions) collect(f, inner, want);
  }
}

// Ops that make a distributed tile value (more than one element): each is a register array in every thread.
int tile_values(const ir::function& f, const ir::region& r) {
  int n = 0;
  for (const ir::op& o : r.ops) {
    for (ir::value_id v : o.results) {
      const ir::type& t = f.type_of(v);
      if (t.is_tile() && t.numel() > 1) ++n;
    }
    for (const ir::region& inner : o.regions) n += tile_values(f, inner);
  }
  return n;
}

// How many vector groups of each distributed tile a thread owns: four (more work per thread, more loads in
// flight) unless the body is long, where each group multiplies the registers its live values need: Black-Scholes
// in float32 (46 tile values) takes 125 registers at four groups (25% occupancy), 64 at two, 40 at one.
int groups_per_thread(int values) { return values <= 24 ? 4 : values <= 40 ? 2 : 1; }

// The elements of one distributed shape a thread of an array kernel holds at most (its groups times their width).
constexpr std::int64_t max_thread_elements = 16;

}  // namespace

tile_layout kernel_layout::of(const ir::type& t) const {
  if (!t.is_tile()) fail(error_kind::internal, "codegen: layout of a non-tile type ", to_string(t));
  tile_layout l;
  l.numel = t.numel();
  if (l.numel <= 1) return l;
  l.replicated = false;
  if (!fragment_shape.empty() && t.shape == fragment_shape) {
    l.fragment = true;
    l.vec = 2;
    l.frag_mb = frag_mb;
    l.frag_n = int(t.shape[1]);
    l.groups = int(l.numel / 2);
    l.per_thread = frag_mb * l.frag_n / 4;
    l.full = true;
    return l;
  }
  auto it = vec_of.find(layout_key(t.shape));
  l.vec = it == vec_of.end() ? 1 : it->second;
  l.groups = int(l.numel / l.vec);
  l.per_thread = (l.groups + threads - 1) / threads;
  l.full = l.groups % threads == 0;
  return l;
}

kernel_layout plan_layout(const ir::function& f, bool long_bodies_fewer_groups) {
  std::map<std::vector<std::int64_t>, int> want;
  collect(f, f.body, want);
  kernel_layout k;
  // Every distributed shape gets a width: the memory ops' wish, else 4; then halved to divide the
  // last extent (so a group stays within one row and numel / V is exact).
  for (const ir::value_info& v : f.values) {
    if (!v.t.is_tile() || v.t.numel() <= 1) continue;
    const auto key = layout_key(v.t.shape);
    if (k.vec_of.count(key)) continue;
    auto it = want.find(key);
    int vec = std::min(16, it == want.end() ? 4 : it->second);
    while (vec > 1 && key.back() % vec != 0) vec /= 2;
    k.vec_of[key] = vec;
  }
  std::int64_t threads = 32;
  const std::int64_t per_thread = long_bodies_fewer_groups ? groups_per_thread(tile_values(f, f.body)) : 4;
  for (const auto& [shape, vec] : k.vec_of) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::int64_t groups = n / vec;
    // Array kernels: a shape whose width a narrow dtype set (a bool or int8 store: 16 per group) would give each
    // thread 64 elements of every wider value of that shape at four groups (mandelbrot's float64 `hypot(x, y) < 2`
    // took 255 registers and spilled); at most max_thread_elements a thread.
    const std::int64_t g = long_bodies_fewer_groups
                               ? std::max<std::int64_t>(1, std::min<std::int64_t>(per_thread, max_thread_elements / vec))
                               : per_thread;
    std::int64_t t = (groups + g - 1) / g;
    t = (t + 31) / 32 * 32;
    threads = std::max(threads, std::min<std::int64_t>(t, 1024));
  }
  k.threads = int(threads);
  return k;
}

}  // namespace tegula::codegen
