// Tests of ir/verifier: SSA scoping, arity, inferred types, region structure, and the messages.
#include "tegula/ir/verifier.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tegula/ir/builder.hpp"
#include "tegula/ir/parser.hpp"

namespace tegula::ir {
namespace {

std::string verify_error(const function& f) {
  try {
    verify(f);
  } catch (const tegula::error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "verified";
  return {};
}

std::string verify_error(const std::string& text) { return verify_error(parse(text)); }

bool has(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

// A small valid function to break in each test: (%n) { %a = add %n, %n; yield }.
function small() {
  function f{"f", {}, {}, {}, {}};
  builder b(f);
  value_id n = b.add_param("n", type::tile(dtype::i32));
  b.set_location({"k.py", 7, 3});
  b.binary(op_kind::add, n, n);
  b.set_location({});
  b.finish();
  verify(f);
  return f;
}

TEST(IrVerifier, AcceptsValidFunctions) {
  EXPECT_NO_THROW(small());
  EXPECT_NO_THROW(verify(parse("func @f() { yield }")));
}

TEST(IrVerifier, MessageHasLocationProblemAndOpText) {
  function f = small();
  f.values[std::size_t(f.body.ops[0].results[0])].t = type::tile(dtype::i64);
  EXPECT_EQ(verify_error(f), "k.py:7:3: add: result types (tile<int64>), expected (tile<int32>)\n  in: %0 = add %n, %n : tile<int64>");
  EXPECT_EQ(verify_error("func @f(%x: array<float32, 1>, %y: array<float16, 1>, %z: tile<int32>) {\n"
                         "%a = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
                         "%b = load %y, %z {padding = \"zero\", shape = [4]} : tile<float16, 4>\n"
                         "%c = add %a, %b : tile<float32, 4> loc(\"k.py\":7:3) yield }"),
            "k.py:7:3: add: operand types tile<float32, 4> and tile<float16, 4> differ\n  in: %c = add %a, %b : tile<float32, 4>");
}

TEST(IrVerifier, Ssa) {
  function f = small();
  f.body.ops[0].operands[0] = 42;  // no such value
  EXPECT_TRUE(has(verify_error(f), "add: value id 42 is out of range")) << verify_error(f);
  f = small();
  value_id later = f.new_value(type::tile(dtype::i32));
  f.body.ops[0].operands[1] = later;  // never defined
  EXPECT_TRUE(has(verify_error(f), "add: uses %?2 before its definition")) << verify_error(f);
  f = small();
  f.body.ops.insert(f.body.ops.begin() + 1, f.body.ops[0]);  // the same result defined twice
  EXPECT_TRUE(has(verify_error(f), "is defined twice")) << verify_error(f);
  f = small();
  f.body.ops[0].results[0] = f.params[0].value;  // redefines a parameter
  EXPECT_TRUE(has(verify_error(f), "is defined twice"));
  f = small();
  std::swap(f.body.ops[0].operands[0], f.body.ops[0].results[0]);  // uses its own result
  EXPECT_TRUE(has(verify_error(f), "before its definition"));
  EXPECT_TRUE(has(verify_error("func @f(%n: tile<int32>) {\n"
                               "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
                               "  %c = gt %n, %z : tile<bool>\n"
                               "  if %c { %in = add %n, %n : tile<int32> yield } { %x = add %in, %n : tile<int32> yield }\n"
                               "  yield }"),
                  "add: uses %in outside the region that defines it"));
}

TEST(IrVerifier, Parameters) {
  EXPECT_TRUE(has(verify_error("func @f(%a: tile<float32, 4>) { yield }"), "parameter %a must be an array or a scalar, got tile<float32, 4>"));
  function f = small();
  f.params.push_back(f.params[0]);
  EXPECT_TRUE(has(verify_error(f), "is listed twice"));
  f = small();
  f.params[0].value = 99;
  EXPECT_TRUE(has(verify_error(f), "parameter 'n' has no value"));
}

TEST(IrVerifier, Arity) {
  function f = small();
  f.body.ops[0].operands.push_back(f.params[0].value);
  EXPECT_TRUE(has(verify_error(f), "add: expected 2 operands, got 3"));
  f = small();
  f.body.ops[0].results.push_back(f.new_value(type::tile(dtype::i32)));
  EXPECT_TRUE(has(verify_error(f), "add: expected 1 results, got 2"));
  f = small();
  f.body.ops[0].regions.emplace_back();
  EXPECT_TRUE(has(verify_error(f), "add: expected 0 regions, got 1"));
  f = small();
  f.body.ops[0].kind = op_kind(250);
  EXPECT_TRUE(has(verify_error(f), "invalid op kind 250"));
}

TEST(IrVerifier, Yields) {
  function f = small();
  f.body.ops.pop_back();
  EXPECT_EQ(verify_error(f), "the function body does not end with yield");
  f = small();
  f.body.ops.insert(f.body.ops.begin(), f.body.ops.back());
  EXPECT_TRUE(has(verify_error(f), "yield must be the last op of its region"));
  f = small();
  f.body.ops.back().operands.push_back(f.params[0].value);
  EXPECT_TRUE(has(verify_error(f), "the function body must yield nothing"));
  f = small();
  f.body.args.push_back(f.new_value(type::tile(dtype::i32)));
  EXPECT_TRUE(has(verify_error(f), "the function body must have no region arguments"));
  EXPECT_TRUE(has(verify_error("func @f(%c: tile<bool>) { if %c { yield } { } yield }"), "if: region does not end with yield"));
}

TEST(IrVerifier, ForLoops) {
  const char* head = "func @f(%n: tile<int32>, %m: tile<int64>, %x: tile<float32>) {\n";
  EXPECT_NO_THROW(verify(parse(std::string(head) +
                               "%r = for %n, %n, %n, %x { ^(%i: tile<int32>, %a: tile<float32>): yield %a } : tile<float32> yield }")));
  EXPECT_TRUE(has(verify_error(std::string(head) + "for %n, %m, %n { ^(%i: tile<int32>): yield } yield }"),
                  "for: lb, ub and step must be integer scalars of one dtype"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "for %x, %x, %x { ^(%i: tile<float32>): yield } yield }"),
                  "for: lb, ub and step must be integer scalars"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "for %n, %n { ^(%i: tile<int32>): yield } yield }"),
                  "for: expected lb, ub, step"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "for %n, %n, %n { ^(%i: tile<int64>): yield } yield }"),
                  "for: region argument %i has type tile<int64>, expected tile<int32>"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "for %n, %n, %n, %x { ^(%i: tile<int32>): yield } yield }"),
                  "for: region has 1 arguments, expected 2"));
  EXPECT_TRUE(has(verify_error(std::string(head) +
                               "%r = for %n, %n, %n, %x { ^(%i: tile<int32>, %a: tile<float32>): yield %i } : tile<float32> yield }"),
                  "for: the body yields (tile<int32>), expected (tile<float32>)"));
  EXPECT_TRUE(has(verify_error(std::string(head) +
                               "%r = for %n, %n, %n, %x { ^(%i: tile<int32>, %a: tile<float32>): yield %a } : tile<int32> yield }"),
                  "for: result types (tile<int32>), expected (tile<float32>)"));
}

TEST(IrVerifier, IfAndWhile) {
  const char* head = "func @f(%n: tile<int32>, %c: tile<bool>, %x: tile<float32>) {\n";
  EXPECT_TRUE(has(verify_error(std::string(head) + "if %n { yield } { yield } yield }"), "if: expected one bool scalar condition"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = if %c { yield %x } { yield %n } : tile<float32> yield }"),
                  "if: the else branch yields (tile<int32>), expected (tile<float32>)"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "if %c { ^(%z: tile<int32>): yield } { yield } yield }"),
                  "if: region has 1 arguments, expected 0"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "if %c { yield } yield }"), "if: expected 2 regions, got 1"));
  const std::string ok_while = std::string(head) +
                               "%w = while %n { ^(%a: tile<int32>): yield %c, %x } { ^(%b: tile<float32>): yield %n } : tile<float32> yield }";
  EXPECT_NO_THROW(verify(parse(ok_while)));
  EXPECT_TRUE(has(verify_error(std::string(head) + "while %n { ^(%a: tile<int32>): yield %n } { ^(): yield %n } yield }"),
                  "while: the before region must yield a bool scalar condition first"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "while %n { ^(%a: tile<int32>): yield %c } { yield %x } yield }"),
                  "while: the after region yields (tile<float32>), expected (tile<int32>)"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "while %n { ^(%a: tile<float32>): yield %c } { yield %n } yield }"),
                  "while: region argument %a has type tile<float32>, expected tile<int32>"));
}

TEST(IrVerifier, ReduceAndScan) {
  const char* head = "func @f(%x: array<float32, 1>, %z: tile<int32>, %id: tile<float32>, %iid: tile<int32>) {\n"
                     "%t = load %x, %z {padding = \"zero\", shape = [8]} : tile<float32, 8>\n";
  const char* body = "{ ^(%a: tile<float32>, %b: tile<float32>): %m = add %a, %b : tile<float32> yield %m }";
  EXPECT_NO_THROW(verify(parse(std::string(head) + "%r = reduce %t, %id {axis = 0, keepdims = 0} " + body + " : tile<float32> yield }")));
  EXPECT_NO_THROW(verify(parse(std::string(head) + "%r = scan %t, %id {axis = -1, reverse = 1} " + body + " : tile<float32, 8> yield }")));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = reduce %t, %iid {axis = 0, keepdims = 0} " + body + " : tile<float32> yield }"),
                  "reduce: identity tile<int32> must be tile<float32>"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = reduce %t, %id {axis = 1, keepdims = 0} " + body + " : tile<float32> yield }"),
                  "reduce: axis 1 is out of range for rank 1"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = reduce %t, %id {axis = 0} " + body + " : tile<float32> yield }"),
                  "reduce: attribute 'keepdims' must be 0 or 1"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = scan %t, %id {axis = 0, keepdims = 0} " + body + " : tile<float32, 8> yield }"),
                  "scan: attribute 'reverse' must be 0 or 1"));
  EXPECT_TRUE(has(verify_error(std::string(head) + "%r = reduce %t, %id {axis = 0, keepdims = 1} " + body + " : tile<float32> yield }"),
                  "reduce: result types (tile<float32>), expected (tile<float32, 1>)"));
  EXPECT_TRUE(has(verify_error(std::string(head) +
                               "%r = reduce %t, %id {axis = 0, keepdims = 0} { ^(%a: tile<float32>, %b: tile<float32>): yield %z } : tile<float32> yield }"),
                  "reduce: the combiner yields (tile<int32>), expected (tile<float32>)"));
  EXPECT_TRUE(has(verify_error(std::string(head) +
                               "%r = reduce %id, %id {axis = 0, keepdims = 0} " + body + " : tile<float32> yield }"),
                  "reduce: input must be a tile of rank >= 1"));
}

TEST(IrVerifier, NonRegionOpsUseInference) {
  EXPECT_TRUE(has(verify_error("func @f(%x: array<float32, 1>, %z: tile<int32>) {\n"
                               "%t = load %x, %z {padding = \"zero\", shape = [8]} : tile<float32, 8>\n"
                               "%s = exp %z : tile<int32> yield }"),
                  "exp: requires float operands, got int32"));
  EXPECT_TRUE(has(verify_error("func @f(%x: array<float32, 2>, %z: tile<int32>) { store %x, %z, %z yield }"),
                  "store: expected 4 operands, got 3"));
  EXPECT_TRUE(has(verify_error("func @f() { %t = constant {dtype = float32, shape = [2], value = 1.0} : tile<float32, 3> yield }"),
                  "constant: result types (tile<float32, 3>), expected (tile<float32, 2>)"));
}

}  // namespace
}  // namespace tegula::ir
