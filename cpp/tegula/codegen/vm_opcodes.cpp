// The array VM's instruction set, enumerated from ops.def's traits (see vm_opcodes.hpp).
#include "tegula/codegen/vm_opcodes.hpp"

#include <map>
#include <tuple>

#include "tegula/ir/op_traits.hpp"

namespace tegula::codegen::vm {
namespace {

using ir::dtype;
using ir::op_kind;

// Bumped whenever the VM's instruction encoding or parameter block (vm_source.cpp, vm_program.hpp) changes, so an
// image built before the change is not used after it.
constexpr std::uint64_t layout_version = 1;

bool takes(ir::operand_dtypes d, dtype t) {
  switch (d) {
    case ir::operand_dtypes::any: return true;
    case ir::operand_dtypes::numeric: return !ir::is_bool(t);
    case ir::operand_dtypes::floating: return ir::is_float(t);
    case ir::operand_dtypes::int_bool: return ir::is_bool(t) || ir::is_int(t);
    case ir::operand_dtypes::integer: return ir::is_int(t);
  }
  return false;
}

struct tables {
  std::vector<signature> codes;
  std::map<std::tuple<int, int, int, int, int, int>, int> index;  // (op, arity, in0, in1, in2, out) -> code
  std::vector<std::pair<op_kind, dtype>> combines;
  std::uint64_t hash = 0;
};

void add(tables& t, op_kind op, std::initializer_list<dtype> in, dtype out) {
  signature s;
  s.op = op;
  s.arity = static_cast<std::uint8_t>(in.size());
  int k = 0;
  for (dtype d : in) s.in[k++] = d;
  s.out = out;
  t.index.emplace(std::make_tuple(int(op), int(s.arity), int(s.in[0]), int(s.in[1]), int(s.in[2]), int(out)),
                  static_cast<int>(t.codes.size()));
  t.codes.push_back(s);
}

tables build() {
  tables t;
  const auto& regs = register_dtypes();
  for (std::size_t i = 0; i < ir::op_count; ++i) {
    const auto op = static_cast<op_kind>(i);
    if (!ir::is_elementwise(op)) continue;
    const ir::op_traits& tr = ir::traits_of(op);
    if (op == op_kind::astype || op == op_kind::bitcast) {
      for (dtype from : regs)
        for (dtype to : regs)
          if (from != to && (op == op_kind::astype || ir::size_bytes(from) == ir::size_bytes(to)))
            add(t, op, {from}, to);
      continue;
    }
    for (dtype d : regs) {
      if (!takes(tr.dtypes, d)) continue;
      switch (tr.category) {
        case ir::op_category::unary: add(t, op, {d}, d); break;
        case ir::op_category::binary: add(t, op, {d, d}, d); break;
        case ir::op_category::comparison: add(t, op, {d, d}, dtype::b1); break;
        case ir::op_category::select: add(t, op, {dtype::b1, d, d}, d); break;
        default: break;
      }
    }
  }
  for (op_kind r : {op_kind::reduce_sum, op_kind::reduce_prod, op_kind::reduce_max, op_kind::reduce_min})
    for (dtype d : regs) t.combines.emplace_back(r, d);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  auto mix = [&h](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(layout_version);
  mix(ir::op_count);
  for (const signature& s : t.codes) mix(std::uint64_t(s.op) | std::uint64_t(s.arity) << 8 | std::uint64_t(s.in[0]) << 16 |
                                         std::uint64_t(s.in[1]) << 24 | std::uint64_t(s.in[2]) << 32 |
                                         std::uint64_t(s.out) << 40);
  for (const auto& [r, d] : t.combines) mix(std::uint64_t(r) << 8 | std::uint64_t(d));
  t.hash = h;
  return t;
}

const tables& the_tables() {
  static const tables t = build();
  return t;
}

}  // namespace

const std::vector<dtype>& register_dtypes() {
  static const std::vector<dtype> d = {dtype::b1,  dtype::i8,  dtype::i16,  dtype::i32, dtype::i64,
                                       dtype::u8,  dtype::u16, dtype::u32,  dtype::u64, dtype::f16,
                                       dtype::bf16, dtype::f32, dtype::f64};
  return d;
}

const std::vector<signature>& opcodes() { return the_tables().codes; }

int opcode_of(op_kind op, const dtype* in, int arity, dtype out) {
  if (arity < 1 || arity > 3) return -1;
  dtype d[3] = {dtype::b1, dtype::b1, dtype::b1};
  for (int k = 0; k < arity; ++k) d[k] = in[k];
  const auto& idx = the_tables().index;
  auto it = idx.find(std::make_tuple(int(op), arity, int(d[0]), int(d[1]), int(d[2]), int(out)));
  return it == idx.end() ? -1 : it->second;
}

int combine_code_of(op_kind reduction, dtype t) {
  const auto& c = the_tables().combines;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c[i].first == reduction && c[i].second == t) return static_cast<int>(i);
  return -1;
}

int combine_code_count() { return static_cast<int>(the_tables().combines.size()); }

std::uint64_t table_hash() { return the_tables().hash; }

}  // namespace tegula::codegen::vm
