// Emission of tile load/store: per-element bounds checks, 16-byte vector accesses on the fast path.
#include <limits>
#include <variant>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// The widest access (4, 8 or 16 bytes) that moves a group of `vec` elements of `bytes` bytes in
// whole chunks, or 0 when groups are too small for vector access.
int access_bytes(int vec, int bytes) {
  int w = vec * bytes;
  if (vec < 2 || w < 4) return 0;
  return w >= 16 ? 16 : w >= 8 ? 8 : 4;
}

const char* word_type(int w) { return w == 16 ? "uint4" : w == 8 ? "uint2" : "unsigned"; }

}  // namespace

std::string emitter::padding_expr(const ir::op& o, ir::dtype t) const {
  const ir::attribute* p = o.attr("padding");
  double v = 0;
  if (!p) return literal(t, 0.0);
  if (auto* s = std::get_if<std::string>(p)) {
    const std::string& n = *s;
    if (n == "zero" || n == "zeros" || n == "0") return literal(t, 0.0);
    if (n == "neg_inf" || n == "-inf") return lowest_literal(t);
    if (n == "pos_inf" || n == "inf") return highest_literal(t);
    if (n == "nan") return ir::is_float(t) ? literal(t, std::numeric_limits<double>::quiet_NaN()) : literal(t, 0.0);
    unsupported(o, "unknown padding '" + n + "' (expected zero, neg_inf, pos_inf or nan)");
  }
  if (auto* i = std::get_if<std::int64_t>(p)) return literal(t, *i);
  if (auto* d = std::get_if<double>(p)) v = *d;
  else unsupported(o, "its padding attribute is neither a name nor a number");
  return literal(t, v);
}

// "const long long b<d>_ = index_d * tile_d;": the tile's first element along each axis.
void emitter::emit_tile_bases(const ir::op& o, const ir::type& t, int rank) {
  for (int d = 0; d < rank; ++d) {
    ir::value_id ix = o.operands[std::size_t(1 + d)];
    if (!layout(ix).replicated) unsupported(o, "its indices must be scalars");
    line(str("const long long b", d, "_ = (long long)(", name(ix), ") * ", t.shape[std::size_t(d)], ";"));
  }
}

// In-bounds condition (starting from `ok`) and element offset of a one-element tile at b<d>_.
std::pair<std::string, std::string> emitter::scalar_address(const array_info& a, std::string ok) const {
  std::string off = "0";
  for (int d = 0; d < a.rank; ++d) {
    ok += str(" && (unsigned long long)b", d, "_ < (unsigned long long)", a.shape(d));
    off += str(" + b", d, "_ * ", d == a.rank - 1 ? a.last_stride() : a.stride(d));
  }
  return {ok, off};
}

// Inside a groups loop: the group's coordinates c<d>, `rows_ok_` (every axis but the last in
// bounds, and `rows_ok`), the row's offset `o_` and the first element along the last axis `el_`.
void emitter::emit_group_address(const array_info& a, const ir::type& t, const tile_layout& l, std::string rows_ok) {
  const int last = a.rank - 1;
  flat_to_coords(t.shape, "gf_", "c");
  std::string off = "0";
  for (int d = 0; d < last; ++d) {
    rows_ok += str(" && (unsigned long long)(b", d, "_ + c", d, ") < (unsigned long long)", a.shape(d));
    off += str(" + (b", d, "_ + c", d, ") * ", a.stride(d));
  }
  line("const bool rows_ok_ = " + rows_ok + ";");
  line("const long long o_ = " + off + ";");
  line(str("const long long el_ = b", last, "_ + c", last, ";"));
}

// The group is wholly in bounds and its run-time offset is aligned for `ew`-element vector access.
std::string emitter::vector_guard(const array_info& a, const tile_layout& l, int ew) const {
  return str("if (rows_ok_ && el_ >= 0 && el_ <= ", a.shape(a.rank - 1), " - ", l.vec, " && ((o_ + el_) & ", ew - 1,
             ") == 0)");
}

void emitter::emit_load(const ir::op& o) {
  const ir::value_id r = o.results.at(0);
  const array_info& a = array(o, o.operands.at(0));
  const ir::type& t = type_of(r);
  if (t.rank() != a.rank) unsupported(o, str("the tile has rank ", t.rank(), " but the array has rank ", a.rank));
  if (int(o.operands.size()) != 1 + a.rank) unsupported(o, str("it needs ", a.rank, " index operands"));
  if (t.elem != a.elem) unsupported(o, "the tile's dtype differs from the array's");
  const std::string pad = padding_expr(o, t.elem);
  const tile_layout l = layout(r);
  const int rank = a.rank;
  declare(r);
  open("");
  emit_tile_bases(o, t, rank);
  auto elem = [&](const std::string& off) { return from_storage(a.elem, a.name + "[" + off + "]"); };
  if (l.replicated) {
    auto [ok, off] = scalar_address(a, "true");
    line(str(name(r), " = (", ok, ") ? ", elem(off), " : ", pad, ";"));
    close();
    return;
  }
  if (l.fragment) {
    emit_fragment_access(o, a, r, false);
    close();
    return;
  }
  const int last = rank - 1;
  const int eb = ir::size_bytes(a.elem);
  const int w = (a.spec.last_dim_contiguous && a.spec.aligned_16) ? access_bytes(l.vec, eb) : 0;
  line("#pragma unroll");
  open(str("for (int k_ = 0; k_ < ", l.per_thread, "; ++k_)"));
  group_index(l);
  emit_group_address(a, t, l, l.full ? "true" : str("g_ < ", l.groups));
  auto scalar_path = [&] {
    line("#pragma unroll");
    open(str("for (int j_ = 0; j_ < ", l.vec, "; ++j_)"));
    line("const long long e_ = el_ + j_;");
    line(str(name(r), "[k_ * ", l.vec, " + j_] = (rows_ok_ && (unsigned long long)e_ < (unsigned long long)",
             a.shape(last), ") ? ", elem("o_ + e_ * " + a.last_stride()), " : ", pad, ";"));
    close();
  };
  if (w == 0) {
    scalar_path();
  } else {
    const int ew = w / eb, chunks = l.vec / ew;
    open(vector_guard(a, l, ew));
    line(str("// ", l.vec * eb, " contiguous aligned bytes: ", chunks, " x ", w, "-byte vector load"));
    line("#pragma unroll");
    open(str("for (int c_ = 0; c_ < ", chunks, "; ++c_)"));
    line(str("union { ", word_type(w), " u; ", storage_type(a.elem), " e[", ew, "]; } w_;"));
    std::string ptr = str("reinterpret_cast<const ", word_type(w), "*>(", a.name, " + o_ + el_ + c_ * ", ew, ")");
    line(str("w_.u = ", a.written ? "*" + ptr : "__ldg(" + ptr + ")", ";"));
    line("#pragma unroll");
    line(str("for (int j_ = 0; j_ < ", ew, "; ++j_) ", name(r), "[k_ * ", l.vec, " + c_ * ", ew, " + j_] = ",
             from_storage(a.elem, "w_.e[j_]"), ";"));
    close();
    otherwise();
    scalar_path();
    close();
  }
  close();
  close();
}

void emitter::emit_store(const ir::op& o) {
  const array_info& a = array(o, o.operands.at(0));
  if (int(o.operands.size()) != 2 + a.rank) unsupported(o, str("it needs ", a.rank, " index operands and a tile"));
  const ir::value_id v = o.operands.back();
  const ir::type& t = type_of(v);
  if (!t.is_tile() || t.rank() != a.rank)
    unsupported(o, str("the tile has rank ", t.rank(), " but the array has rank ", a.rank));
  if (t.elem != a.elem) unsupported(o, "the tile's dtype differs from the array's");
  const tile_layout l = layout(v);
  const int rank = a.rank;
  open("");
  emit_tile_bases(o, t, rank);
  auto put = [&](const std::string& off, const std::string& val) {
    return str(a.name, "[", off, "] = ", to_storage(a.elem, val), ";");
  };
  if (l.replicated) {
    auto [ok, off] = scalar_address(a, tid_ + " == 0");
    line(str("if (", ok, ") ", put(off, name(v))));
    close();
    return;
  }
  if (l.fragment) {
    if (!emit_tma_store(o, a, v)) emit_fragment_access(o, a, v, true);
    close();
    return;
  }
  const int last = rank - 1;
  const int eb = ir::size_bytes(a.elem);
  const int w = (a.spec.last_dim_contiguous && a.spec.aligned_16) ? access_bytes(l.vec, eb) : 0;
  groups_loop(l, [&] {
    emit_group_address(a, t, l, "true");
    auto scalar_path = [&] {
      line("#pragma unroll");
      open(str("for (int j_ = 0; j_ < ", l.vec, "; ++j_)"));
      line("const long long e_ = el_ + j_;");
      line(str("if (rows_ok_ && (unsigned long long)e_ < (unsigned long long)", a.shape(last), ") ",
               put("o_ + e_ * " + a.last_stride(), str(name(v), "[k_ * ", l.vec, " + j_]"))));
      close();
    };
    if (w == 0) {
      scalar_path();
      return;
    }
    const int ew = w / eb, chunks = l.vec / ew;
    open(vector_guard(a, l, ew));
    line(str("// ", l.vec * eb, " contiguous aligned bytes: ", chunks, " x ", w, "-byte vector store"));
    line("#pragma unroll");
    open(str("for (int c_ = 0; c_ < ", chunks, "; ++c_)"));
    line(str("union { ", word_type(w), " u; ", storage_type(a.elem), " e[", ew, "]; } w_;"));
    line("#pragma unroll");
    line(str("for (int j_ = 0; j_ < ", ew, "; ++j_) w_.e[j_] = ",
             to_storage(a.elem, str(name(v), "[k_ * ", l.vec, " + c_ * ", ew, " + j_]")), ";"));
    line(str("*reinterpret_cast<", word_type(w), "*>(", a.name, " + o_ + el_ + c_ * ", ew, ") = w_.u;"));
    close();
    otherwise();
    scalar_path();
    close();
  });
  close();
}

}  // namespace tegula::codegen
