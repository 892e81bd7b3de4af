// Test helper for passes: run a pass on .tir text and check the invariants every pass keeps.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"

namespace tegula::testing_util {

// Parses and verifies `text`, runs `pass`, and returns the printed result. Checks that the input
// is unchanged (passes return new IR), that the result verifies, and that the pass is idempotent.
template <class Pass>
std::string run_pass(Pass pass, const std::string& text) {
  const ir::function in = ir::parse(text);
  ir::verify(in);
  const std::string before = ir::print(in, true);
  const ir::function out = pass(in);
  EXPECT_EQ(ir::print(in, true), before) << "the pass modified its input";
  EXPECT_NO_THROW(ir::verify(out)) << ir::print(out);
  const std::string result = ir::print(out);
  EXPECT_EQ(ir::print(pass(out)), result) << "not idempotent";
  return result;
}

// Wraps body lines (each indented by two spaces, ending with yield) in a function header.
inline std::string func(const std::string& params, const std::string& body) {
  return "func @f(" + params + ") {\n" + body + "}\n";
}

}  // namespace tegula::testing_util
