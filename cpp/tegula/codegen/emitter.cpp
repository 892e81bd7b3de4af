// The CUDA emitter: walks post-pass IR once and writes the kernel body (internal to codegen).
#include "tegula/codegen/emitter.hpp"

#include <algorithm>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/matmul_plan.hpp"
#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

using ir::op_kind;

// The largest shared memory a block may use on sm_80..sm_90 (227 KiB).
constexpr std::int64_t max_shared_bytes = 227 * 1024;

void count_uses(const ir::region& r, std::vector<int>& uses, std::map<ir::value_id, bool>& written) {
  for (const ir::op& o : r.ops) {
    for (ir::value_id v : o.operands) uses.at(std::size_t(v))++;
    if (ir::writes_memory(o.kind) && !o.operands.empty()) written[o.operands[0]] = true;
    for (const ir::region& inner : o.regions) count_uses(inner, uses, written);
  }
}

}  // namespace

emitter::emitter(const ir::function& f, const options& o, const matmul_plan* mm) : f_(f), opt_(o), lay_(plan_layout(f, o.long_bodies_fewer_groups)) {
  if (mm) {
    mm_ = mm;
    // Tiles live in the consumer warpgroups; the (BM, BN) shape in the wgmma accumulator layout.
    lay_.threads = 128 * mm->consumers;
    lay_.fragment_shape = {mm->bm, mm->bn};
    lay_.frag_mb = mm->mb;
  }
  names_.resize(f.values.size());
  for (std::size_t i = 0; i < f.values.size(); ++i) {
    std::string n = sanitize(f.values[i].name);
    names_[i] = str("v", i, n.empty() ? "" : "_", n);
    ir::dtype e = f.values[i].t.elem;
    if (e == ir::dtype::f16) needs_.f16 = true;
    if (e == ir::dtype::bf16) needs_.bf16 = true;
    if (ir::is_float8(e)) needs_.f8 = true;
  }
  uses_.assign(f.values.size(), 0);
  std::map<ir::value_id, bool> written;
  count_uses(f.body, uses_, written);

  std::size_t array_params = 0;
  for (const ir::param& p : f.params)
    if (f.type_of(p.value).is_array()) ++array_params;
  if (!o.arrays.empty() && o.arrays.size() != array_params)
    fail(error_kind::invalid_argument, "codegen: options.arrays has ", o.arrays.size(), " entries for ", array_params,
         " array parameters of '", f.name, "'");
  std::size_t index = 0;
  for (const ir::param& p : f.params) {
    const ir::type& t = f.type_of(p.value);
    if (!t.is_array()) continue;
    array_info a;
    a.value = p.value;
    std::string n = sanitize(p.name.empty() ? f.values.at(std::size_t(p.value)).name : p.name);
    a.name = str("a", p.value, n.empty() ? "" : "_", n);
    a.elem = t.elem;
    a.rank = t.rank();
    // Without a specialization, assume nothing: strided and unaligned (correct, just slower).
    a.spec = o.arrays.empty() ? array_spec{false, false} : o.arrays[index];
    a.written = written.count(p.value) > 0;
    arrays_[p.value] = a;
    ++index;
  }
}

// ---- text

void emitter::line(const std::string& s) { body_ << std::string(std::size_t(indent_) * 2, ' ') << s << '\n'; }

void emitter::open(const std::string& head) {
  line(head.empty() ? "{" : head + " {");
  ++indent_;
}

void emitter::otherwise() {
  --indent_;
  line("} else {");
  ++indent_;
}

void emitter::close(const std::string& tail) {
  --indent_;
  line("}" + tail);
}

void emitter::note_op(const ir::op& o) {
  std::string s = "// ";
  for (std::size_t i = 0; i < o.results.size(); ++i) s += (i ? ", " : "") + name(o.results[i]);
  if (!o.results.empty()) s += " = ";
  s += ir::info(o.kind).text;
  s += "(";
  for (std::size_t i = 0; i < o.operands.size(); ++i) {
    ir::value_id v = o.operands[i];
    auto it = arrays_.find(v);
    s += (i ? ", " : "") + (it != arrays_.end() ? it->second.name : name(v));
  }
  s += ")";
  if (!o.results.empty() && type_of(o.results[0]).is_tile()) s += " : " + to_string(type_of(o.results[0]));
  if (o.loc.known()) s += "  @ " + to_string(o.loc);
  line(s);
}

std::string emitter::fresh(const std::string& stem) { return stem + "_" + std::to_string(unique_++); }

// ---- values

tile_layout emitter::layout(ir::value_id v) const { return lay_.of(type_of(v)); }

std::string emitter::at(ir::value_id v, const std::string& slot) const {
  if (layout(v).replicated) return name(v);
  return name(v) + "[" + slot + "]";
}

void emitter::declare(ir::value_id v, bool zero) {
  const ir::type& t = type_of(v);
  tile_layout l = layout(v);
  std::string decl = reg_type(t.elem) + " " + name(v);
  if (!l.replicated) decl += str("[", l.slots(), "]");
  // Slots of unowned groups are zeroed too: reading never-written registers (the elementwise loops
  // run over every slot) let ptxas -O3 miscompile a broadcast on the H200 (test_gpu_tile_broadcast).
  if (zero || (!l.replicated && !l.full)) decl += l.replicated ? " = 0" : " = {}";
  line(decl + ";");
}

void emitter::assign(ir::value_id dst, ir::value_id src) {
  tile_layout l = layout(dst);
  if (l.replicated) {
    line(name(dst) + " = " + name(src) + ";");
    return;
  }
  line("#pragma unroll");
  line(str("for (int i_ = 0; i_ < ", l.slots(), "; ++i_) ", name(dst), "[i_] = ", at(src, "i_"), ";"));
}

const array_info& emitter::array(const ir::op& o, ir::value_id v) const {
  auto it = arrays_.find(v);
  if (it == arrays_.end()) unsupported(o, "its array operand is not an array parameter of the kernel");
  return it->second;
}

void emitter::check_same_layout(const ir::op& o, ir::value_id like, const std::vector<ir::value_id>& vs) const {
  tile_layout l = layout(like);
  for (ir::value_id v : vs) {
    tile_layout m = layout(v);
    if (m.replicated) continue;
    if (l.replicated || m.numel != l.numel || m.vec != l.vec || type_of(v).shape != type_of(like).shape)
      fail(error_kind::internal, to_string(o.loc), (o.loc.known() ? ": " : ""), "codegen: '", ir::info(o.kind).text,
           "' mixes tile shapes ", to_string(type_of(v)), " and ", to_string(type_of(like)),
           " (the verifier should have required explicit broadcasts)");
  }
}

void emitter::unsupported(const ir::op& o, const std::string& why) const {
  std::string where = to_string(o.loc);
  fail(error_kind::invalid_argument, where, where.empty() ? "" : ": ", "cannot generate CUDA for '",
       ir::info(o.kind).text, "' in kernel '", f_.name, "': ", why);
}

std::string emitter::cvt(ir::dtype from, ir::dtype to, const std::string& e) {
  bool narrow_to = to == ir::dtype::f16 || to == ir::dtype::bf16 || ir::is_float8(to);
  if (narrow_to && from != to && (from == ir::dtype::f64 || ir::is_int(from))) needs_.narrow_from_double = true;
  return convert(from, to, e);
}

// ---- loops over owned elements

void emitter::group_index(const tile_layout& l) {
  if (!l.fragment) {
    line(str("const int g_ = k_ * ", lay_.threads, " + ", tid_, ";"));
    line(str("[[maybe_unused]] const int gf_ = g_ * ", l.vec, ";"));
    return;
  }
  const int q = l.frag_n / 4;
  line(str("[[maybe_unused]] const int g_ = k_;"));
  line(str("const int gf_ = ((", tid_, " >> 7) * ", 64 * l.frag_mb, " + (k_ / ", q, ") * 64 + ((", tid_,
           " >> 5) & 3) * 16 + ((", tid_, " & 31) >> 2) + (k_ & 1) * 8) * ", l.frag_n, " + ((k_ % ", q,
           ") >> 1) * 8 + (", tid_, " & 3) * 2;"));
}

void emitter::groups_loop(const tile_layout& l, const std::function<void()>& body) {
  line("#pragma unroll");
  open(str("for (int k_ = 0; k_ < ", l.per_thread, "; ++k_)"));
  group_index(l);
  if (!l.full) open(str("if (g_ < ", l.groups, ")"));
  body();
  if (!l.full) close();
  close();
}

void emitter::elements_loop(const tile_layout& l, const std::function<void()>& body) {
  groups_loop(l, [&] {
    line("#pragma unroll");
    open(str("for (int j_ = 0; j_ < ", l.vec, "; ++j_)"));
    line(str("[[maybe_unused]] const int s_ = k_ * ", l.vec, " + j_;"));
    line("[[maybe_unused]] const int f_ = gf_ + j_;");
    body();
    close();
  });
}

void emitter::flat_to_coords(const std::vector<std::int64_t>& shape, const std::string& flat, const std::string& prefix) {
  const int r = int(shape.size());
  // Leading extents of 1 have coordinate 0; the first larger axis takes what the others leave.
  int first = 0;
  while (first < r - 1 && shape[std::size_t(first)] == 1) ++first;
  for (int d = 0; d < first; ++d) line(str("[[maybe_unused]] const int ", prefix, d, " = 0;"));
  if (first >= r - 1) {
    if (r > 0) line(str("[[maybe_unused]] const int ", prefix, r - 1, " = ", flat, ";"));
    return;
  }
  std::string rest = fresh("r");
  line(str("int ", rest, " = ", flat, ";"));
  for (int d = r - 1; d > first; --d) {
    if (shape[std::size_t(d)] == 1) {
      line(str("[[maybe_unused]] const int ", prefix, d, " = 0;"));
      continue;
    }
    line(str("[[maybe_unused]] const int ", prefix, d, " = ", rest, " % ", shape[std::size_t(d)], "; ", rest, " /= ",
             shape[std::size_t(d)], ";"));
  }
  line(str("[[maybe_unused]] const int ", prefix, first, " = ", rest, ";"));
}

// ---- shared memory

std::string emitter::smem(const std::string& ctype, std::int64_t byte_offset) {
  return str("reinterpret_cast<", ctype, "*>(tg_smem + ", byte_offset, ")");
}

void emitter::need_smem(const ir::op& o, std::int64_t bytes) {
  if (bytes > max_shared_bytes)
    unsupported(o, str("it needs ", bytes, " bytes of shared memory per block, more than the ", max_shared_bytes,
                       " a block can have; use smaller tiles"));
  smem_bytes_ = std::max(smem_bytes_, bytes);
}

void emitter::barrier() {
  if (lambda_depth_ > 0 && current_)
    unsupported(*current_, "it needs a block-wide barrier, which a reduce/scan combine region cannot contain");
  line(barrier_);
}

void emitter::stage(ir::value_id v, const std::string& s, ir::dtype as) {
  barrier();  // earlier readers of the buffer are done
  tile_layout l = layout(v);
  if (l.replicated) {
    line(str("if (", tid_, " == 0) ", s, "[0] = ", cvt(dtype_of(v), as, name(v)), ";"));
  } else {
    elements_loop(l, [&] { line(str(s, "[f_] = ", cvt(dtype_of(v), as, at(v, "s_")), ";")); });
  }
  barrier();
}

// ---- ops

void emitter::emit_region(const ir::region& r, const std::function<void(const ir::op&)>& on_yield) {
  for (std::size_t i = 0; i < r.ops.size(); ++i) {
    const ir::op& o = r.ops[i];
    if (o.kind == op_kind::yield) {
      if (i + 1 != r.ops.size()) unsupported(o, "a yield must be the last op of its region");
      on_yield(o);
      return;
    }
    emit_op(o);
  }
  if (r.ops.empty() || r.ops.back().kind != op_kind::yield)
    fail(error_kind::internal, "codegen: a region of '", f_.name, "' does not end in yield");
}

void emitter::emit_op(const ir::op& o) {
  const ir::op* saved = current_;
  current_ = &o;
  for (ir::value_id r : o.results) {
    const ir::type& t = type_of(r);
    if (!t.is_tile()) unsupported(o, "it produces an array value; only parameters may be arrays");
    if (t.numel() > max_slots * 1024 || lay_.of(t).slots() > max_slots)
      unsupported(o, str("its result ", to_string(t), " needs more than ", max_slots,
                         " registers per thread (a block holds tiles in registers); use smaller tiles"));
  }
  if (lambda_depth_ > 0 && !is_elementwise(o.kind) && o.kind != op_kind::constant && o.kind != op_kind::for_ &&
      o.kind != op_kind::if_ && o.kind != op_kind::while_)
    unsupported(o, "a reduce/scan combine region may contain only elementwise ops, constants and control flow");
  note_op(o);
  switch (o.kind) {
    case op_kind::constant:
    case op_kind::arange:
    case op_kind::block_id:
    case op_kind::num_blocks:
    case op_kind::dim:
    case op_kind::num_tiles: emit_source(o); break;
    case op_kind::load: emit_load(o); break;
    case op_kind::store: emit_store(o); break;
    case op_kind::gather: emit_gather(o); break;
    case op_kind::scatter: emit_scatter(o); break;
    case op_kind::atomic_add:
    case op_kind::atomic_max:
    case op_kind::atomic_min:
    case op_kind::atomic_cas: emit_atomic(o); break;
    case op_kind::reshape:
    case op_kind::expand_dims: emit_reshape(o); break;
    case op_kind::permute: emit_permute(o); break;
    case op_kind::broadcast_to: emit_broadcast(o); break;
    case op_kind::mma: emit_mma(o); break;
    case op_kind::reduce_sum:
    case op_kind::reduce_prod:
    case op_kind::reduce_max:
    case op_kind::reduce_min:
    case op_kind::argmax:
    case op_kind::argmin:
    case op_kind::reduce: emit_reduction(o); break;
    case op_kind::cumsum:
    case op_kind::cumprod:
    case op_kind::scan: emit_scan(o); break;
    case op_kind::print: emit_print(o); break;
    case op_kind::assert_: emit_assert(o); break;
    case op_kind::for_: emit_for(o); break;
    case op_kind::if_: emit_if(o); break;
    case op_kind::while_: emit_while(o); break;
    case op_kind::yield: unsupported(o, "a yield outside the end of a region");
    // Every elementwise op (ops.def category): one C expression per element (scalar_expr).
#include "tegula/ir/elementwise_cases.inc"
      emit_elementwise(o);
      break;
  }
  current_ = saved;
}

}  // namespace tegula::codegen
