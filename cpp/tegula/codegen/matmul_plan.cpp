// Recognising a tensor-core matrix-product loop (see matmul_plan.hpp).
#include "tegula/codegen/matmul_plan.hpp"

#include <map>

#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/ir/op_traits.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

using ir::op_kind;

bool holds_mma(const ir::region& r) {
  for (const ir::op& o : r.ops) {
    if (o.kind == op_kind::mma) return true;
    for (const ir::region& inner : o.regions)
      if (holds_mma(inner)) return true;
  }
  return false;
}

// Ops whose scalar results the producer may compute: no memory, no regions, no side effects.
bool scalar_pure(const ir::function& f, const ir::op& o) {
  if (!o.regions.empty()) return false;
  for (ir::value_id r : o.results)
    if (!f.type_of(r).is_scalar()) return false;
  // Sources (arange never has a scalar result) and elementwise ops.
  return ir::category_of(o.kind) == ir::op_category::source || is_elementwise(o.kind);
}

struct finder {
  const ir::function& f;
  std::map<ir::value_id, const ir::op*> def;  // defining op of each value in the body and loop body
  std::map<ir::value_id, int> uses;
  void index(const ir::region& r, bool recurse) {
    for (const ir::op& o : r.ops) {
      for (ir::value_id v : o.results) def[v] = &o;
      for (ir::value_id v : o.operands) uses[v]++;
      if (recurse)
        for (const ir::region& inner : o.regions) index(inner, true);
    }
  }
};

// Whether the K loop's bounds depend on the block id (then tiles may take different numbers of K steps).
bool bounds_depend_on_block(const matmul_plan& p, const std::map<ir::value_id, const ir::op*>& def) {
  std::vector<ir::value_id> work(p.loop->operands.begin(), p.loop->operands.begin() + 3);
  std::set<ir::value_id> seen;
  while (!work.empty()) {
    ir::value_id v = work.back();
    work.pop_back();
    auto it = def.find(v);
    if (!seen.insert(v).second || it == def.end()) continue;
    if (it->second->kind == op_kind::block_id) return true;
    work.insert(work.end(), it->second->operands.begin(), it->second->operands.end());
  }
  return false;
}

// Clusters of two: the blocks of a pair release each other's pipeline stages, so they must take the same
// number of K steps, whatever block they run; each copies half of a shared tile's rows, so a copy box
// must split into halves of whole 8-row swizzle atoms. The user asked for pairs: refusing is an error.
void pair_up(const ir::function& f, matmul_plan& p, const std::map<ir::value_id, const ir::op*>& def) {
  auto refuse = [&](const std::string& why) {
    fail(error_kind::invalid_argument, to_string(p.mma->loc), p.mma->loc.known() ? ": " : "", "kernel '", f.name,
         "': cluster=2 cannot pair its blocks: ", why);
  };
  if (bounds_depend_on_block(p, def))
    refuse("the K loop's bounds depend on the block id (both blocks of a pair must take the same K steps)");
  for (const mma_operand* m : {&p.a, &p.b})
    if (m->box_rows % 16 != 0)
      refuse(str("a copy box of ", m->box_rows, " rows does not split into two halves of whole 8-row swizzle atoms"));
  p.pair = true;
}

}  // namespace

std::optional<matmul_plan> plan_matmul(const ir::function& f, const options& opt, std::string& why) {
  why.clear();
  if (!holds_mma(f.body)) return std::nullopt;
  auto no = [&](const std::string& reason) -> std::optional<matmul_plan> {
    why = reason;
    return std::nullopt;
  };
  if (opt.arch != 90) return no(str("wgmma needs an sm_90 GPU, this is sm_", opt.arch));

  // The one top-level loop holding the mma.
  matmul_plan p;
  for (const ir::op& o : f.body.ops) {
    if (o.kind == op_kind::mma) return no("an mma outside a loop over K");
    if (o.kind != op_kind::for_ || !holds_mma(o.regions[0])) continue;
    if (p.loop) return no("two loops hold an mma");
    p.loop = &o;
  }
  if (!p.loop) return no("the mma is not in a top-level for loop over K");
  const ir::region& body = p.loop->regions[0];
  if (p.loop->operands.size() != 4 || body.args.size() != 2)
    return no("the K loop must carry exactly one value, the accumulator");
  const ir::op& y = body.ops.back();
  for (const ir::op& o : body.ops)
    if (o.kind == op_kind::mma) {
      if (p.mma) return no("the K loop holds two mma ops");
      p.mma = &o;
    }
  if (!p.mma || y.kind != op_kind::yield || y.operands.size() != 1 || y.operands[0] != p.mma->results[0] ||
      p.mma->operands[2] != body.args[1])
    return no("the K loop must yield mma(a, b, acc) of its carried accumulator");

  finder fd{f, {}, {}};
  fd.index(f.body, true);
  auto def = [&](ir::value_id v) -> const ir::op* {
    auto it = fd.def.find(v);
    return it == fd.def.end() ? nullptr : it->second;
  };
  auto in_body = [&](const ir::op* o) {
    for (const ir::op& b : body.ops)
      if (&b == o) return true;
    return false;
  };

  // Which array parameter is which spec.
  std::map<ir::value_id, array_spec> specs;
  std::size_t ai = 0;
  for (const ir::param& prm : f.params)
    if (f.type_of(prm.value).is_array()) {
      specs[prm.value] = ai < opt.arrays.size() ? opt.arrays[ai] : array_spec{false, false};
      ++ai;
    }

  const ir::type& ta = f.type_of(p.mma->operands[0]);
  const ir::type& tb = f.type_of(p.mma->operands[1]);
  p.bm = int(ta.shape[0]);
  p.bk = int(ta.shape[1]);
  p.bn = int(tb.shape[1]);
  p.in = ta.elem;
  const bool tf32 = p.mma->attr("tf32") && p.mma->int_attr("tf32") == 1;
  if (p.in == ir::dtype::f32 && !tf32)
    return no("float32 inputs need allow_tf32=True for the tensor cores (float32 products stay exact otherwise)");
  if (p.in != ir::dtype::bf16 && p.in != ir::dtype::f16 && p.in != ir::dtype::f32 && !ir::is_float8(p.in))
    return no(str("the tensor cores take bfloat16, float16, float8 or TF32 inputs, not ", ir::name(p.in)));
  const int eb = ir::size_bytes(p.in);
  p.kstep = p.in == ir::dtype::f32 ? 8 : ir::is_float8(p.in) ? 32 : 16;

  // The operands: loads of 2-D arrays (B possibly transposed), used by the mma alone.
  auto operand = [&](ir::value_id v, bool is_a, mma_operand& m) -> std::string {
    const ir::op* d = def(v);
    m.k_major = true;
    if (!is_a && d && d->kind == op_kind::permute && d->ints_attr("perm") == std::vector<std::int64_t>{1, 0}) {
      if (fd.uses[v] != 1) return "the transposed B tile has other uses";
      v = d->operands[0];
      d = def(v);
    } else if (!is_a) {
      m.k_major = false;
    }
    const char* which = is_a ? "A" : "B";
    if (!d || d->kind != op_kind::load || !in_body(d)) return str("the ", which, " tile is not loaded in the K loop");
    if (fd.uses[v] != 1) return str("the ", which, " tile has uses besides the mma");
    if (d->string_attr("padding") != "zero") return str("the ", which, " load pads with ", d->string_attr("padding"));
    m.array = d->operands[0];
    m.load = d;
    if (f.type_of(m.array).rank() != 2) return str("the ", which, " array is not 2-D");
    // Rows need not be 16-byte aligned: the launcher repacks such an array for the copy engine.
    auto s = specs.find(m.array);
    if (s == specs.end() || !s->second.last_dim_contiguous)
      return str("the ", which, " array is not contiguous along its last axis (the copy engine reads rows)");
    return {};
  };
  if (std::string e = operand(p.mma->operands[0], true, p.a); !e.empty()) return no(e);
  if (std::string e = operand(p.mma->operands[1], false, p.b); !e.empty()) return no(e);
  if ((p.in == ir::dtype::f32 || ir::is_float8(p.in)) && !p.b.k_major)
    return no(str(p.in == ir::dtype::f32 ? "TF32" : "float8", " wgmma reads B only K-major: load B as a (BN, BK) tile "
                  "of an (N, K) array and transpose it"));

  // Tile sizes the kernel supports.
  const int span = 128 / eb;  // elements per swizzled 128-byte row
  if (p.bk % span != 0) return no(str("BK = ", p.bk, " is not a multiple of ", span, " (128 bytes of ", ir::name(p.in), ")"));
  if (p.bm == 64) { p.consumers = 1; p.mb = 1; }
  else if (p.bm == 128) { p.consumers = 2; p.mb = 1; }
  else if (p.bm == 256) { p.consumers = 2; p.mb = 2; }
  else return no(str("BM = ", p.bm, " is not 64, 128 or 256"));
  if (p.bn > 256 || p.bn % (p.b.k_major ? 8 : span) != 0)
    return no(str("BN = ", p.bn, " is not a multiple of ", p.b.k_major ? 8 : span, " up to 256"));
  if (p.mb * p.bn / 2 > 128) return no(str("a ", p.bm, " x ", p.bn, " accumulator needs more than 128 registers per thread"));
  p.a.box_cols = span;
  p.a.box_rows = p.bm;
  p.a.boxes = p.bk / span;
  p.a.bytes = std::int64_t(p.bm) * p.bk * eb;
  p.b.box_cols = span;
  p.b.box_rows = p.b.k_major ? p.bn : p.bk;
  p.b.boxes = p.b.k_major ? p.bk / span : p.bn / span;
  p.b.bytes = std::int64_t(p.bn) * p.bk * eb;
  if (p.b.box_rows > 256 || p.a.box_rows > 256) return no("a copy box has more than 256 rows");

  // The producer's slice: what the load indices and the loop bounds are computed from. Every op in
  // it must be a scalar computation (no memory, no regions).
  std::vector<ir::value_id> work(p.loop->operands.begin(), p.loop->operands.begin() + 3);
  for (const ir::op* l : {p.a.load, p.b.load}) work.insert(work.end(), l->operands.begin() + 1, l->operands.end());
  std::set<ir::value_id> seen;
  while (!work.empty()) {
    ir::value_id v = work.back();
    work.pop_back();
    if (!seen.insert(v).second) continue;
    const ir::op* d = def(v);
    if (!d) continue;  // a parameter or the loop's induction variable
    if (!scalar_pure(f, *d)) return no(str("the loads' tile indices depend on '", ir::info(d->kind).text, "', not a scalar computation"));
    bool top = false;
    for (const ir::op& o : f.body.ops) top = top || &o == d;
    if (!top && !in_body(d)) return no("the loads' tile indices are computed inside a nested region");
    p.producer_ops.insert(d);
    work.insert(work.end(), d->operands.begin(), d->operands.end());
  }
  for (const ir::op& o : body.ops)
    if (&o != p.mma && &o != p.a.load && &o != p.b.load && o.kind != op_kind::yield && !p.producer_ops.count(&o) &&
        !(o.kind == op_kind::permute && o.results[0] == p.mma->operands[1]))
      return no(str("the K loop computes '", ir::info(o.kind).text, "' besides the loads and the mma"));
  if (opt.cluster == 2) pair_up(f, p, fd.def);
  // One warpgroup per tile (BM = 64): two of them take turns, when every tile takes the same K steps (a
  // warpgroup skips the other's stages of the ring by counting them).
  // A 128 x (BN <= 128) tile fits one warpgroup's registers (two m64 blocks, at most 128 floats a thread): one
  // warpgroup per tile in two teams, rather than two warpgroups on one tile, so one team's epilogue overlaps the
  // other's main loop.
  const bool same_steps = !p.pair && !bounds_depend_on_block(p, fd.def);
  if (p.bm == 128 && p.bn <= 128 && same_steps) { p.consumers = 1; p.mb = 2; }
  if (p.consumers == 1 && same_steps) p.teams = 2;
  return p;
}

}  // namespace tegula::codegen
