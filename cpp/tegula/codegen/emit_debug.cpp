// Emission of print (printf per owned element, labelled with block and element index) and assert.
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// printf conversion and argument for a register value of dtype t.
std::pair<std::string, std::string> printf_arg(ir::dtype t, const std::string& e) {
  using ir::dtype;
  switch (t) {
    case dtype::b1: return {"%s", "(" + e + ") ? \"True\" : \"False\""};
    case dtype::i8: case dtype::i16: case dtype::i32: return {"%d", "(int)(" + e + ")"};
    case dtype::u8: case dtype::u16: case dtype::u32: return {"%u", "(unsigned)(" + e + ")"};
    case dtype::i64: return {"%lld", "(long long)(" + e + ")"};
    case dtype::u64: return {"%llu", "(unsigned long long)(" + e + ")"};
    default: return {"%g", "(double)(" + e + ")"};
  }
}

// Splits a "{}" format into the literal pieces around the placeholders ("{{" and "}}" escape).
bool split_format(const std::string& f, std::vector<std::string>& pieces) {
  pieces.assign(1, "");
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f.compare(i, 2, "{{") == 0 || f.compare(i, 2, "}}") == 0) {
      pieces.back() += f[i];
      ++i;
    } else if (f.compare(i, 2, "{}") == 0) {
      pieces.emplace_back();
      ++i;
    } else if (f[i] == '{' || f[i] == '}') {
      return false;
    } else {
      pieces.back() += f[i];
    }
  }
  return true;
}

std::string coords_format(int rank) {
  std::string s = "(";
  for (int d = 0; d < rank; ++d) s += d ? ", %d" : "%d";
  return s + ")";
}

std::string coords_args(int rank) {
  std::string s;
  for (int d = 0; d < rank; ++d) s += str(", c", d);
  return s;
}

}  // namespace

void emitter::emit_print(const ir::op& o) {
  const ir::attribute* fa = o.attr("format");
  std::string fmt;
  if (fa && std::holds_alternative<std::string>(*fa)) fmt = std::get<std::string>(*fa);
  else for (std::size_t i = 0; i < o.operands.size(); ++i) fmt += i ? " {}" : "{}";
  std::vector<std::string> pieces;
  if (!split_format(fmt, pieces)) unsupported(o, "its format may only contain {} placeholders ({{ and }} for braces)");
  if (pieces.size() != o.operands.size() + 1)
    unsupported(o, str("its format has ", pieces.size() - 1, " placeholders for ", o.operands.size(), " operands"));
  ir::value_id like = -1;
  for (ir::value_id v : o.operands)
    if (!layout(v).replicated) like = v;
  if (like >= 0) check_same_layout(o, like, o.operands);
  const int rank = like >= 0 ? type_of(like).rank() : 0;
  if (int(o.operands.size()) + rank + 3 > 32) unsupported(o, "printf takes at most 32 arguments");
  auto emit_printf = [&](const std::string& slot) {
    std::string text = like >= 0 ? "[block (%d, %d, %d) index " + coords_format(rank) + "] " : "[block (%d, %d, %d)] ";
    std::string args = like >= 0 ? coords_args(rank) : "";
    for (std::size_t i = 0; i < o.operands.size(); ++i) {
      auto [conv, arg] = printf_arg(dtype_of(o.operands[i]), at(o.operands[i], slot));
      text += c_escape(pieces[i], true) + conv;
      args += ", " + arg;
    }
    text += c_escape(pieces.back(), true) + "\\n";
    line(str("printf(\"", text, "\", ", bid_[0], ", ", bid_[1], ", ", bid_[2], args, ");"));
  };
  if (like < 0) {
    open(str("if (", tid_, " == 0)"));
    emit_printf("");
    close();
    return;
  }
  elements_loop(layout(like), [&] {
    flat_to_coords(type_of(like).shape, "f_", "c");
    emit_printf("s_");
  });
}

void emitter::emit_assert(const ir::op& o) {
  const ir::value_id c = o.operands.at(0);
  std::string msg;
  if (const ir::attribute* m = o.attr("message"); m && std::holds_alternative<std::string>(*m)) msg = std::get<std::string>(*m);
  std::string where = to_string(o.loc);
  std::string head = c_escape((where.empty() ? "" : where + ": ") + "assertion failed" + (msg.empty() ? "" : ": " + msg), true);
  const tile_layout l = layout(c);
  const std::string ok = [&](const std::string& e) { return cvt(dtype_of(c), ir::dtype::b1, e); }(l.replicated ? name(c) : at(c, "s_"));
  if (l.replicated) {
    open(str("if (!", ok, ")"));
    line(str("if (" + tid_ + " == 0) printf(\"", head, " (block (%d, %d, %d))\\n\", ", bid_[0], ", ", bid_[1], ", ", bid_[2], ");"));
    line("__trap();");
    close();
    return;
  }
  const int rank = type_of(c).rank();
  elements_loop(l, [&] {
    open(str("if (!", ok, ")"));
    flat_to_coords(type_of(c).shape, "f_", "c");
    line(str("printf(\"", head, " (block (%d, %d, %d), index ", coords_format(rank),
             ")\\n\", ", bid_[0], ", ", bid_[1], ", ", bid_[2], coords_args(rank), ");"));
    line("__trap();");
    close();
  });
}

}  // namespace tegula::codegen
