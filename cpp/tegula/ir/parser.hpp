// The tile IR's text form (.tir): parsing (the grammar is in printer.hpp).
#pragma once
#include <string>

#include "tegula/ir/ir.hpp"

namespace tegula::ir {

// Reads one function. Malformed text throws tegula::error(invalid_argument)
// "<filename>:line:col: expected ..." (or "...: undefined value %x", "...: value %x is defined
// twice"); it never crashes. Only syntax and names are checked here: types and SSA scoping are
// the verifier's job (verifier.hpp), so parse(print(f)) works for any printed function.
// Value names are unique within the text (the printer makes them so); a name is usable after the
// op that defines it, and an op's results are not in scope inside its own regions.
function parse(const std::string& text, const std::string& filename = "<tir>");

}  // namespace tegula::ir
