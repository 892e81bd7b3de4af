// Compiling a body function's post-pass IR to an array VM program (see vm_program.hpp).
#include "tegula/codegen/vm_program.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <unordered_map>
#include <variant>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/vm_opcodes.hpp"
#include "tegula/ir/op_traits.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen::vm {
namespace {

using ir::dtype;
using ir::op_kind;

// A parameter's role, from its name (array/emit.cpp: emit_body names them).
struct param_role {
  enum { leaf, scalar, col, out, other } what = other;
  int index = 0;
};

param_role role_of(const std::string& name, const ir::type& t, int* out_count) {
  auto number = [&](std::size_t from) { return from < name.size() ? std::atoi(name.c_str() + from) : 0; };
  if (name == "col") return {param_role::col, 0};
  if (t.is_array() && name.size() > 1 && name[0] == 'x') return {param_role::leaf, number(1)};
  if (t.is_array() && name.rfind("out", 0) == 0) return {param_role::out, (*out_count)++};
  if (t.is_tile() && name.size() > 1 && name[0] == 's') return {param_role::scalar, number(1)};
  return {param_role::other, 0};
}

bool one_element(const ir::type& t) { return t.is_tile() && t.numel() == 1; }

}  // namespace

std::uint64_t register_bits(dtype t, double v) {
  std::uint64_t bits = 0;
  switch (t) {
    case dtype::f16: case dtype::bf16: case dtype::f32: {
      float f = float(t == dtype::f16 ? round_to_float16(v) : t == dtype::bf16 ? round_to_bfloat16(v) : v);
      std::memcpy(&bits, &f, sizeof f);
      return bits;
    }
    case dtype::f64: std::memcpy(&bits, &v, sizeof v); return bits;
    case dtype::b1: return v != 0 ? 1 : 0;
    default: break;
  }
  if (std::isnan(v)) return 0;
  // ints: truncated toward zero, saturating to the int64 range (uint64 above it), then wrapped to t's width
  if (t == dtype::u64 && v >= 9.2233720368547758e18) return v >= 1.8446744073709552e19 ? ~std::uint64_t(0) : std::uint64_t(v);
  if (v >= 9.2233720368547758e18) return register_bits(t, INT64_MAX);
  if (v <= -9.2233720368547758e18) return register_bits(t, INT64_MIN);
  return register_bits(t, static_cast<std::int64_t>(v));
}

std::uint64_t register_bits(dtype t, std::int64_t v) {
  if (ir::is_float(t)) return register_bits(t, double(v));
  if (t == dtype::b1) return v != 0 ? 1 : 0;
  const int bits = 8 * ir::size_bytes(t);
  std::uint64_t u = static_cast<std::uint64_t>(v);
  if (bits < 64) {
    u &= (std::uint64_t(1) << bits) - 1;
    if (ir::is_signed_int(t) && (u >> (bits - 1)) & 1) u |= ~((std::uint64_t(1) << bits) - 1);  // sign-extended
  }
  return u;  // the slot's low bytes hold the value (little-endian), as the union member reads it
}

namespace {
// The refusals of a body whose every op the VM runs but that is too large for one program (past max_regs, max_code,
// max_leaves or max_pool): its parts are programs (size_refusal).
constexpr const char* too_many_values = "more live values than the VM's slots";
constexpr const char* too_many_instructions = "more instructions than a VM program holds";
constexpr const char* too_many_arrays = "more arrays read than a VM program takes";
constexpr const char* too_many_scalars = "more scalars and constants than the VM's pool";
}  // namespace

bool size_refusal(const std::string& why) {
  return why == too_many_values || why == too_many_instructions || why == too_many_arrays || why == too_many_scalars;
}

std::optional<program> compile_program(const ir::function& body, bool reduce, std::string* why) {
  auto refuse = [&](const std::string& reason) -> std::optional<program> {
    if (why) *why = reason;
    return std::nullopt;
  };
  program prog;
  std::unordered_map<ir::value_id, param_role> roles;
  int outs = 0;
  for (const auto& p : body.params) {
    param_role r = role_of(p.name, body.type_of(p.value), &outs);
    roles[p.value] = r;
    if (r.what == param_role::leaf) prog.n_leaves = std::max(prog.n_leaves, r.index + 1);
    if (r.what == param_role::scalar) prog.n_scalars = std::max(prog.n_scalars, r.index + 1);
  }
  const auto& ops = body.body.ops;
  // Last use of each value (its slot is free after it).
  std::unordered_map<ir::value_id, std::size_t> last_use;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (!ops[i].regions.empty()) return refuse("control flow");
    for (ir::value_id v : ops[i].operands) last_use[v] = i;
  }
  std::unordered_map<ir::value_id, int> slot;  // value -> slot
  std::vector<int> free_slots;
  int next_slot = 0;
  bool overflow = false;
  auto new_slot = [&]() {
    if (!free_slots.empty()) {
      int s = free_slots.back();
      free_slots.pop_back();
      return s;
    }
    if (next_slot >= max_regs) overflow = true;
    return next_slot++;
  };
  auto emit = [&](kind k, int dst, int a = 0, int b = 0, int c = 0, int code = 0) {
    instr in;
    in.k = static_cast<std::uint8_t>(k);
    in.dst = static_cast<std::uint8_t>(dst), in.a = static_cast<std::uint8_t>(a), in.b = static_cast<std::uint8_t>(b);
    in.c = static_cast<std::uint8_t>(c), in.code = static_cast<std::uint16_t>(code);
    prog.code.push_back(in);
  };
  std::map<std::pair<std::uint64_t, int>, int> const_index;  // (bits, dtype) -> pool index
  std::unordered_map<ir::value_id, int> const_of;      // a constant's value -> its pool index (fetched at first use)
  // The slot of operand v (a parameter's value is fetched into a slot at its first use).
  auto operand = [&](ir::value_id v) -> int {
    auto it = slot.find(v);
    if (it != slot.end()) return it->second;
    if (auto c = const_of.find(v); c != const_of.end()) {
      int s = new_slot();
      emit(kind::pool, s, prog.n_scalars + c->second);  // constants follow the scalar parameters in the pool
      slot[v] = s;
      return s;
    }
    auto r = roles.find(v);
    if (r == roles.end()) return -1;
    int s = new_slot();
    if (r->second.what == param_role::scalar) emit(kind::pool, s, r->second.index);
    else if (r->second.what == param_role::col) emit(kind::col, s);
    else return -1;
    slot[v] = s;
    return s;
  };
  auto release = [&](const ir::op& o, std::size_t i) {
    for (ir::value_id v : o.operands) {
      auto lu = last_use.find(v);
      auto s = slot.find(v);
      if (lu != last_use.end() && lu->second == i && s != slot.end()) {
        free_slots.push_back(s->second);
        slot.erase(s);
      }
    }
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const ir::op& o = ops[i];
    const op_kind k = o.kind;
    if (k == op_kind::yield) continue;
    if (k == op_kind::load) {
      auto r = roles.find(o.operands.at(0));
      if (r == roles.end() || r->second.what != param_role::leaf) return refuse("a load of a non-leaf array");
      if (!one_element(body.type_of(o.results.at(0)))) return refuse("a load of more than one element");
      int s = new_slot();
      emit(kind::load, s, r->second.index);
      slot[o.results[0]] = s;
      release(o, i);
      continue;
    }
    if (k == op_kind::store) {
      auto r = roles.find(o.operands.at(0));
      if (r == roles.end() || r->second.what != param_role::out) return refuse("a store to a non-output array");
      int v = operand(o.operands.back());
      if (v < 0) return refuse("a store of an unknown value");
      if (!one_element(body.type_of(o.operands.back()))) return refuse("a store of more than one element");
      if (reduce) {  // the value the reduce kernel combines
        if (r->second.index != 0 || prog.yields) return refuse("a reduce body stores more than one value");
        emit(kind::yield, 0, v);
        prog.yields = true;
        prog.yield_t = body.type_of(o.operands.back()).elem;
      } else {
        emit(kind::store, 0, r->second.index, v);
        prog.n_outs = std::max(prog.n_outs, r->second.index + 1);
      }
      release(o, i);
      continue;
    }
    if (k == op_kind::constant) {
      const ir::value_id res = o.results.at(0);
      if (!one_element(body.type_of(res))) return refuse("a constant of more than one element");
      const dtype t = body.type_of(res).elem;
      const ir::attribute* a = o.attr("value");
      std::uint64_t bits = 0;
      if (auto* iv = a ? std::get_if<std::int64_t>(a) : nullptr) bits = register_bits(t, *iv);
      else if (auto* dv = a ? std::get_if<double>(a) : nullptr) bits = register_bits(t, *dv);
      else return refuse("a constant without a value");
      auto [ci, fresh] = const_index.emplace(std::make_pair(bits, int(t)), int(prog.constants.size()));
      if (fresh) prog.constants.push_back(bits);
      const int pool_at = ci->second;
      const_of[res] = pool_at;  // fetched into a slot where an op first reads it (not for load indices)
      continue;
    }
    if (k == op_kind::reshape || k == op_kind::broadcast_to || k == op_kind::expand_dims || k == op_kind::permute) {
      if (!one_element(body.type_of(o.results.at(0)))) return refuse("a broadcast to more than one element");
      const ir::value_id src = o.operands.at(0);
      int a = operand(src);
      if (a < 0) return refuse("a reshape of an unknown value");
      auto lu = last_use.find(src);
      if (lu != last_use.end() && lu->second == i) {  // its last use: the result takes over the slot
        slot.erase(src);
        slot[o.results[0]] = a;
        continue;
      }
      int s = new_slot();
      emit(kind::move, s, a);
      slot[o.results[0]] = s;
      continue;
    }
    if (ir::is_elementwise(k)) {
      dtype in[3];
      int src[3] = {0, 0, 0};
      const int arity = static_cast<int>(o.operands.size());
      if (arity < 1 || arity > 3) return refuse("an elementwise op of odd arity");
      for (int j = 0; j < arity; ++j) {
        in[j] = body.type_of(o.operands[std::size_t(j)]).elem;
        src[j] = operand(o.operands[std::size_t(j)]);
        if (src[j] < 0) return refuse("an operand the VM cannot read");
      }
      const dtype out = body.type_of(o.results.at(0)).elem;
      const int code = opcode_of(k, in, arity, out);
      if (code < 0)
        return refuse(std::string("no VM opcode for '") + ir::info(k).text + "' at " + std::string(ir::name(in[0])) +
                      " -> " + std::string(ir::name(out)));
      release(o, i);
      int s = new_slot();
      emit(kind::op, s, src[0], src[1], src[2], code);
      slot[o.results[0]] = s;
      continue;
    }
    if (k == op_kind::block_id || k == op_kind::num_tiles || k == op_kind::dim || k == op_kind::num_blocks) {
      // index arithmetic left by the emitter (unused once loads index one element); dce keeps none in a body
      return refuse(std::string("an index op '") + ir::info(k).text + "'");
    }
    return refuse(std::string("op '") + ir::info(k).text + "' has no VM form");
  }
  if (overflow) return refuse(too_many_values);
  if (reduce && !prog.yields) return refuse("a reduce body yields nothing");
  if (prog.code.size() > std::size_t(max_code)) return refuse(too_many_instructions);
  if (prog.n_leaves > max_leaves) return refuse(too_many_arrays);
  if (prog.n_scalars + int(prog.constants.size()) > max_pool) return refuse(too_many_scalars);
  if (prog.n_outs > max_outs) return refuse("more outputs than a VM program writes");
  return prog;
}

std::string describe(const program& prog) {
  std::string s;
  const auto& codes = opcodes();
  for (const instr& in : prog.code) {
    switch (static_cast<kind>(in.k)) {
      case kind::op: {
        const signature& sg = codes.at(in.code);
        s += str("r", int(in.dst), " = ", ir::info(sg.op).text, " ", ir::name(sg.in[0]));
        if (sg.out != sg.in[0]) s += str("->", ir::name(sg.out));
        s += str(" r", int(in.a));
        if (sg.arity > 1) s += str(", r", int(in.b));
        if (sg.arity > 2) s += str(", r", int(in.c));
        break;
      }
      case kind::load: s += str("r", int(in.dst), " = load x", int(in.a)); break;
      case kind::pool:
        s += in.a < prog.n_scalars ? str("r", int(in.dst), " = scalar s", int(in.a))
                                   : str("r", int(in.dst), " = constant #", in.a - prog.n_scalars);
        break;
      case kind::col: s += str("r", int(in.dst), " = column"); break;
      case kind::move: s += str("r", int(in.dst), " = r", int(in.a)); break;
      case kind::store: s += str("store out", int(in.a), ", r", int(in.b)); break;
      case kind::yield: s += str("yield r", int(in.a), " (", ir::name(prog.yield_t), ")"); break;
    }
    s += "\n";
  }
  return s;
}

}  // namespace tegula::codegen::vm
