// The tile IR's text form (.tir): printing. parser.hpp reads the same text back.
//
//   func @softmax(%x: array<float32, 2>, %out: array<float32, 2>) {
//     %0 = block_id {axis = 0} : tile<int32>
//     %1 = constant {dtype = int32, value = 0} : tile<int32>
//     %2 = load %x, %0, %1 {padding = "neg_inf", shape = [1, 4096]} : tile<float32, 1x4096>
//     %3 = max %2 {axis = 1, keepdims = 1} : tile<float32, 1x1>
//     %4, %5 = for %lb, %ub, %st, %a0, %b0 {
//     ^(%i: tile<int32>, %a: tile<float32>, %b: tile<int32>):
//       yield %a, %b
//     } : tile<float32>, tile<int32>
//     store %out, %0, %1, %2 loc("k.py":7:3)
//     yield
//   }
//
// Grammar (whitespace and newlines are insignificant; "//" starts a comment to the end of the line):
//   function := 'func' '@' (ident | string) '(' [value ':' type (',' value ':' type)*] ')' [loc]
//               '{' op* '}'
//   op       := [value (',' value)* '='] opname [value (',' value)*] [attrs] region*
//               [':' type (',' type)*] [loc]
//   attrs    := '{' key '=' attr (',' key '=' attr)* '}'        keys sorted by name, as op::attrs
//   attr     := int | float | string | '[' [int (',' int)*] ']' | dtype-name
//   region   := '{' ['^' '(' [value ':' type (',' value ':' type)*] ')' ':'] op* '}'
//   type     := 'tile' '<' dtype [',' int ('x' int)*] '>' | 'array' '<' dtype ',' rank '>'
//   value    := '%' digits | '%' ident ['.' digits]
//   loc      := 'loc' '(' string ':' line ':' column ')'
// Floats always carry '.', 'e', "inf" or "nan" (1.0, not 1) and are printed with the fewest digits
// that read back to the same double; strings escape '"', '\\' and control bytes (\n, \t, \xHH).
// Op names are ops.def's texts; result types follow ':' (none for ops without results).
//
// Value names: a value whose name (value_info::name, or param::name) is an identifier prints as
// %name, repeats of one name as %name.1, %name.2, ...; other values are numbered %0, %1, ... in
// textual order. The numbering depends only on the text order, so
// print(parse(print(f))) == print(f) for every function, valid or not, that parse accepts.
#pragma once
#include <string>

#include "tegula/ir/ir.hpp"

namespace tegula::ir {

std::string print(const function& f, bool with_locations = false);

// One op as its first printed line (regions elided as "{...}"), with the value names print(f)
// uses: for error messages. Never throws on malformed IR (unknown values print as %?<id>).
std::string print_op(const function& f, const op& o);

// One value's printed name ("%x", "%3") as print(f) names it; "%?<id>" when f never defines it.
std::string print_value(const function& f, value_id v);

// An attribute value as the printer writes it (also a stable key, e.g. for CSE).
std::string print_attribute(const attribute& a);

// `s` as a quoted, escaped .tir string literal.
std::string quote(const std::string& s);

}  // namespace tegula::ir
