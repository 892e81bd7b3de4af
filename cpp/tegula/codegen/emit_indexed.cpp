// Emission of gather, scatter and atomics: per owned element offsets, masks and bounds checks.
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

bool has_mask(const ir::op& o) { return o.attr("has_mask") && o.int_attr("has_mask") != 0; }

// The operands of an indexed op: array, one offset tile per axis, `values` value tiles, [mask].
struct indexed {
  std::vector<ir::value_id> offsets, values;
  ir::value_id mask = -1;
};

}  // namespace

namespace {

indexed split(const ir::op& o, int rank, int values) {
  indexed x;
  const bool m = has_mask(o);
  std::size_t want = std::size_t(1 + rank + values + (m ? 1 : 0));
  if (o.operands.size() != want)
    fail(error_kind::invalid_argument, to_string(o.loc), o.loc.known() ? ": " : "", "cannot generate CUDA for '",
         ir::info(o.kind).text, "': it has ", o.operands.size(), " operands, expected ", want,
         " (array, ", rank, " offsets, ", values, values == 1 ? " value" : " values", m ? ", mask)" : ")");
  for (int d = 0; d < rank; ++d) x.offsets.push_back(o.operands[std::size_t(1 + d)]);
  for (int i = 0; i < values; ++i) x.values.push_back(o.operands[std::size_t(1 + rank + i)]);
  if (m) x.mask = o.operands.back();
  return x;
}

}  // namespace

void emitter::emit_gather(const ir::op& o) {
  const ir::value_id r = o.results.at(0);
  const array_info& a = array(o, o.operands.at(0));
  indexed x = split(o, a.rank, 0);
  std::vector<ir::value_id> all = x.offsets;
  if (x.mask >= 0) all.push_back(x.mask);
  check_same_layout(o, r, all);
  const ir::dtype t = dtype_of(r);
  if (t != a.elem) unsupported(o, "the result's dtype differs from the array's");
  const std::string pad = padding_expr(o, t);
  const tile_layout l = layout(r);
  declare(r);
  auto body = [&](const std::string& slot, const std::string& dst) {
    std::string ok = x.mask >= 0 ? at(x.mask, slot) : "true", off = "0";
    for (int d = 0; d < a.rank; ++d) {
      line(str("const long long q", d, "_ = (long long)(", at(x.offsets[std::size_t(d)], slot), ");"));
      ok += str(" && (unsigned long long)q", d, "_ < (unsigned long long)", a.shape(d));
      off += str(" + q", d, "_ * ", d == a.rank - 1 ? a.last_stride() : a.stride(d));
    }
    line(str(dst, " = (", ok, ") ? ", from_storage(a.elem, a.name + "[" + off + "]"), " : ", pad, ";"));
  };
  if (l.replicated) {
    open("");
    body("", name(r));
    close();
  } else {
    elements_loop(l, [&] { body("s_", name(r) + "[s_]"); });
  }
}

void emitter::emit_scatter(const ir::op& o) {
  const array_info& a = array(o, o.operands.at(0));
  indexed x = split(o, a.rank, 1);
  std::vector<ir::value_id> all = x.offsets;
  all.push_back(x.values[0]);
  if (x.mask >= 0) all.push_back(x.mask);
  ir::value_id like = all[0];
  for (ir::value_id v : all)
    if (!layout(v).replicated) like = v;
  check_same_layout(o, like, all);
  if (dtype_of(x.values[0]) != a.elem) unsupported(o, "the value's dtype differs from the array's");
  auto body = [&](const std::string& slot, const std::string& guard) {
    std::string ok = guard + (x.mask >= 0 ? " && " + at(x.mask, slot) : ""), off = "0";
    for (int d = 0; d < a.rank; ++d) {
      line(str("const long long q", d, "_ = (long long)(", at(x.offsets[std::size_t(d)], slot), ");"));
      ok += str(" && (unsigned long long)q", d, "_ < (unsigned long long)", a.shape(d));
      off += str(" + q", d, "_ * ", d == a.rank - 1 ? a.last_stride() : a.stride(d));
    }
    line(str("if (", ok, ") ", a.name, "[", off, "] = ", to_storage(a.elem, at(x.values[0], slot)), ";"));
  };
  const tile_layout l = layout(like);
  if (l.replicated) {
    open("");
    body("", tid_ + " == 0");
    close();
  } else {
    elements_loop(l, [&] { body("s_", "true"); });
  }
}

void emitter::emit_atomic(const ir::op& o) {
  const ir::value_id r = o.results.at(0);
  const array_info& a = array(o, o.operands.at(0));
  const bool cas = o.kind == ir::op_kind::atomic_cas;
  indexed x = split(o, a.rank, cas ? 2 : 1);
  std::vector<ir::value_id> all = x.offsets;
  for (ir::value_id v : x.values) all.push_back(v);
  if (x.mask >= 0) all.push_back(x.mask);
  check_same_layout(o, r, all);
  const ir::dtype t = a.elem;
  for (ir::value_id v : x.values)
    if (dtype_of(v) != t) unsupported(o, "the value's dtype differs from the array's");
  if (dtype_of(r) != t) unsupported(o, "the result's dtype differs from the array's");
  const std::string S = storage_type(t), R = reg_type(t);
  const tile_layout l = layout(r);
  const bool broadcast_old = l.replicated && uses_.at(std::size_t(r)) > 0;
  if (broadcast_old) need_smem(o, 16);

  // The statement performing the update at pointer `p_` with register value `val_` (and `cmp_`).
  auto update = [&]() -> std::string {
    using ir::dtype;
    const std::string p = "p_";
    switch (o.kind) {
      case ir::op_kind::atomic_add:
        if (t == dtype::f32 || t == dtype::f64 || t == dtype::i32 || t == dtype::u32)
          return str("atomicAdd(", p, ", val_)");
        if (t == dtype::i64 || t == dtype::u64)
          return str("(", R, ")atomicAdd(reinterpret_cast<unsigned long long*>(", p, "), (unsigned long long)val_)");
        break;
      case ir::op_kind::atomic_max:
      case ir::op_kind::atomic_min: {
        const char* fn = o.kind == ir::op_kind::atomic_max ? "atomicMax" : "atomicMin";
        if (t == dtype::i32 || t == dtype::u32 || t == dtype::u64) return str(fn, "(", p, ", val_)");
        if (t == dtype::i64) return str(fn, "(", p, ", val_)");
        break;
      }
      case ir::op_kind::atomic_cas:
        if (t == dtype::i32 || t == dtype::u32 || t == dtype::u64) return str("atomicCAS(", p, ", cmp_, val_)");
        if (t == dtype::i64)
          return str("(long long)atomicCAS(reinterpret_cast<unsigned long long*>(", p,
                     "), (unsigned long long)cmp_, (unsigned long long)val_)");
        break;
      default: break;
    }
    // Everything else: a compare-and-swap loop applying the same elementwise rule as the interpreter.
    needs_.atomics = true;
    std::string next;
    if (cas) {
      next = str("old_ == ", to_storage(t, "cmp_"), " ? ", to_storage(t, "val_"), " : old_");
    } else {
      ir::op_kind k = o.kind == ir::op_kind::atomic_add ? ir::op_kind::add
                      : o.kind == ir::op_kind::atomic_max ? ir::op_kind::maximum : ir::op_kind::minimum;
      next = to_storage(t, scalar_expr(k, {t, t}, t, {from_storage(t, "old_"), "val_"}, needs_));
    }
    return str(from_storage(t, str("tg_atomic_update(p_, [=](", S, " old_) -> ", S, " { return ", next, "; })")));
  };

  auto body = [&](const std::string& slot, const std::string& guard, const std::string& dst) {
    std::string ok = guard + (x.mask >= 0 ? " && " + at(x.mask, slot) : ""), off = "0";
    for (int d = 0; d < a.rank; ++d) {
      line(str("const long long q", d, "_ = (long long)(", at(x.offsets[std::size_t(d)], slot), ");"));
      ok += str(" && (unsigned long long)q", d, "_ < (unsigned long long)", a.shape(d));
      off += str(" + q", d, "_ * ", d == a.rank - 1 ? a.last_stride() : a.stride(d));
    }
    open(str("if (", ok, ")"));
    line(str(S, "* const p_ = ", a.name, " + (", off, ");"));
    line(str("const ", R, " val_ = ", at(x.values.back(), slot), ";"));
    if (cas) line(str("const ", R, " cmp_ = ", at(x.values[0], slot), ";"));
    line(str(dst, " = ", update(), ";"));
    close();
  };

  declare(r, true);  // masked-off and out-of-bounds elements read as 0
  if (l.replicated) {
    // One update per block (thread 0); the old value reaches every thread through shared memory.
    if (broadcast_old) barrier();
    open("");
    body("", tid_ + " == 0", name(r));
    if (broadcast_old) line(str("if (", tid_, " == 0) *", smem(R, 0), " = ", name(r), ";"));
    close();
    if (broadcast_old) {
      barrier();
      line(str(name(r), " = *", smem(R, 0), ";"));
    }
  } else {
    elements_loop(l, [&] { body("s_", "true", name(r) + "[s_]"); });
  }
}

}  // namespace tegula::codegen
