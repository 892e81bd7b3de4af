// Tests of ir/printer and ir/parser: exact round trips, value naming, and errors (never crashes) on bad text.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "tegula/ir/builder.hpp"
#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"

namespace tegula::ir {
namespace {

const char* kernel = R"(func @k(%x: array<float32, 2>, %out: array<float32, 2>, %n: tile<int32>) {
  %0 = block_id {axis = 0} : tile<int32>
  %1 = constant {dtype = int32, value = 0} : tile<int32>
  %2 = load %x, %0, %1 {padding = "neg_inf", shape = [1, 64]} : tile<float32, 1x64>
  %3 = constant {dtype = int32, value = 1} : tile<int32>
  %acc, %cnt = for %1, %n, %3, %2, %1 {
  ^(%i: tile<int32>, %a: tile<float32, 1x64>, %c: tile<int32>):
    %b = gt %i, %1 : tile<bool>
    %4 = if %b {
      %5 = exp %a : tile<float32, 1x64>
      yield %5
    } {
      yield %a
    } : tile<float32, 1x64>
    %c.1 = add %c, %3 : tile<int32>
    yield %4, %c.1
  } : tile<float32, 1x64>, tile<int32>
  %6 = while %1 {
  ^(%w: tile<int32>):
    %7 = lt %w, %n : tile<bool>
    yield %7, %w
  } {
  ^(%w.1: tile<int32>):
    %8 = add %w.1, %3 : tile<int32>
    yield %8
  } : tile<int32>
  %9 = constant {dtype = float32, value = 0.0} : tile<float32>
  %10 = reduce %acc, %9 {axis = 1, keepdims = 1} {
  ^(%p: tile<float32>, %q: tile<float32>):
    %11 = maximum %p, %q : tile<float32>
    yield %11
  } : tile<float32, 1x1>
  %12 = scan %acc, %9 {axis = -1, reverse = 0} {
  ^(%p.1: tile<float32>, %q.1: tile<float32>):
    %13 = add %p.1, %q.1 : tile<float32>
    yield %13
  } : tile<float32, 1x64>
  store %out, %0, %6, %12
  print %10, %cnt {format = "{} {}"}
  yield
}
)";

// The message of the parse error, checking it is invalid_argument.
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const tegula::error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "parsed: " << text;
  return {};
}

TEST(IrPrinterParser, KernelRoundTripsExactly) {
  function f = parse(kernel);
  EXPECT_NO_THROW(verify(f));
  EXPECT_EQ(print(f), kernel);
  EXPECT_EQ(print(parse(print(f))), print(f));
  EXPECT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[0].name, "x");
  EXPECT_EQ(f.values[std::size_t(f.params[2].value)].name, "n");
}

TEST(IrPrinterParser, RepeatedNamesAreSuffixedAndParsedBack) {
  function f{"f", {}, {}, {}, {}};
  builder b(f);
  value_id x = b.add_param("x", type::tile(dtype::i32));
  value_id a = b.binary(op_kind::add, x, x);
  value_id a2 = b.binary(op_kind::add, a, x);
  value_id odd = b.binary(op_kind::mul, a2, x);
  f.values[std::size_t(a)].name = "acc";
  f.values[std::size_t(a2)].name = "acc";
  f.values[std::size_t(odd)].name = "not an identifier";
  b.finish();
  const std::string text = print(f);
  EXPECT_NE(text.find("%acc = add %x, %x"), std::string::npos) << text;
  EXPECT_NE(text.find("%acc.1 = add %acc, %x"), std::string::npos) << text;
  EXPECT_NE(text.find("%0 = mul %acc.1, %x"), std::string::npos) << text;
  function g = parse(text);
  EXPECT_EQ(print(g), text);
  // The suffix is the printer's, not the user's name: it is dropped when parsing.
  EXPECT_EQ(g.values[std::size_t(g.body.ops[1].results[0])].name, "acc");
}

TEST(IrPrinterParser, EveryAttributeKind) {
  const std::string text =
      "func @\"odd name\"(%x: array<bool, 0>) {\n"
      "  print {a = 1, b = -9223372036854775808, c = 2.5, d = -0.0, e = inf, f = -inf, g = nan, h = 1e-300, "
      "i = 1e+300, j = \"q\\\"\\\\\\n\\t\\r\\x01\\x7f\", k = [], l = [1, -2, 3], m = bfloat16, n = bool, "
      "\"not ident\" = 0, format = \"\"}\n"
      "  yield\n"
      "}\n";
  function f = parse(text);
  EXPECT_EQ(f.name, "odd name");
  const op& p = f.body.ops[0];
  EXPECT_EQ(p.int_attr("a"), 1);
  EXPECT_EQ(p.int_attr("b"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(p.float_attr("c"), 2.5);
  EXPECT_TRUE(std::signbit(p.float_attr("d")));
  EXPECT_EQ(p.float_attr("e"), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(p.float_attr("g")));
  EXPECT_EQ(p.float_attr("h"), 1e-300);
  EXPECT_EQ(p.string_attr("j"), "q\"\\\n\t\r\x01\x7f");
  EXPECT_TRUE(p.ints_attr("k").empty());
  EXPECT_EQ(p.ints_attr("l"), (std::vector<std::int64_t>{1, -2, 3}));
  EXPECT_EQ(p.dtype_attr("m"), dtype::bf16);
  EXPECT_EQ(p.dtype_attr("n"), dtype::b1);
  EXPECT_EQ(p.int_attr("not ident"), 0);
  // Printed sorted by name; the text reads back to the same text.
  const std::string once = print(f);
  EXPECT_EQ(print(parse(once)), once);
  EXPECT_NE(once.find("m = bfloat16, n = bool, \"not ident\" = 0}"), std::string::npos) << once;
  EXPECT_NE(once.find("c = 2.5, d = -0.0, e = inf, f = -inf"), std::string::npos) << once;
}

TEST(IrPrinterParser, FloatsKeepTheirValueAndStayFloats) {
  for (double d : {1.0, 0.1, -2.0, 1e100, 5e-324, 123456789.125, 1.0 / 3.0, 65504.0, 3.4028234663852886e38}) {
    std::string s = print_attribute(d);
    EXPECT_NE(s.find_first_of(".e"), std::string::npos) << s;
    function f = parse("func @f() { print {format = \"\", v = " + s + "} yield }");
    EXPECT_EQ(f.body.ops[0].float_attr("v"), d) << s;
    EXPECT_TRUE(std::holds_alternative<double>(*f.body.ops[0].attr("v")));
  }
  EXPECT_EQ(print_attribute(1.0), "1.0");
  EXPECT_EQ(print_attribute(0.1), "0.1");
  EXPECT_EQ(print_attribute(std::int64_t(1)), "1");
}

TEST(IrPrinterParser, Locations) {
  function f = parse(kernel);
  f.loc = {"k.py", 1, 0};
  f.body.ops[0].loc = {"dir/k \"quoted\".py", 12, 5};
  std::string with = print(f, true);
  EXPECT_NE(with.find("func @k(%x: array<float32, 2>, %out: array<float32, 2>, %n: tile<int32>) loc(\"k.py\":1:0) {"),
            std::string::npos) << with;
  EXPECT_NE(with.find("%0 = block_id {axis = 0} : tile<int32> loc(\"dir/k \\\"quoted\\\".py\":12:5)"), std::string::npos) << with;
  function g = parse(with);
  EXPECT_EQ(g.body.ops[0].loc.file, "dir/k \"quoted\".py");
  EXPECT_EQ(g.body.ops[0].loc.line, 12);
  EXPECT_EQ(g.body.ops[0].loc.column, 5);
  EXPECT_EQ(print(g, true), with);
  EXPECT_EQ(print(g), kernel);  // locations are off by default
  EXPECT_EQ(parse("func @f() { yield loc(\"a\":3) }").body.ops[0].loc.line, 3);  // the column may be omitted
}

TEST(IrPrinterParser, CommentsAndLayoutAreFree) {
  function f = parse("// leading comment\nfunc @f(%n: tile<int32>)   {  %a = add %n , %n : tile<int32> // trailing\n"
                     "  %b=mul %a,%a:tile<int32>  yield}");
  EXPECT_EQ(print(f), "func @f(%n: tile<int32>) {\n  %a = add %n, %n : tile<int32>\n  %b = mul %a, %a : tile<int32>\n  yield\n}\n");
}

TEST(IrPrinterParser, PrintOpAndValue) {
  function f = parse(kernel);
  EXPECT_EQ(print_op(f, f.body.ops[2]), "%2 = load %x, %0, %1 {padding = \"neg_inf\", shape = [1, 64]} : tile<float32, 1x64>");
  EXPECT_EQ(print_op(f, f.body.ops[4]), "%acc, %cnt = for %1, %n, %3, %2, %1 {...} : tile<float32, 1x64>, tile<int32>");
  EXPECT_EQ(print_value(f, f.params[1].value), "%out");
  EXPECT_EQ(print_value(f, 100000), "%?100000");
  op bogus{op_kind::add, {-5, 77777}, {}, {}, {}, {}};  // never crashes on ids that do not exist
  EXPECT_EQ(print_op(f, bogus), "add %?-5, %?77777");
}

TEST(IrPrinterParser, Errors) {
  EXPECT_EQ(parse_error(""), "<tir>:1:1: expected 'func', found the end of the input");
  EXPECT_EQ(parse_error("fun @f() { yield }"), "<tir>:1:1: expected 'func', found 'fun'");
  EXPECT_EQ(parse_error("func @f() { %a = bogus : tile<int32> yield }"),
            "<tir>:1:18: expected an op name, found unknown op 'bogus'");
  EXPECT_EQ(parse_error("func @f() { %a = add %b, %b : tile<int32> yield }"), "<tir>:1:22: undefined value %b");
  EXPECT_EQ(parse_error("func @f(%a: tile<int32>) {\n  %a = add %a, %a : tile<int32>\n  yield }"),
            "<tir>:2:3: value %a is defined twice");
  EXPECT_EQ(parse_error("func @f(%a: tile<int33>) { yield }"), "<tir>:1:18: expected a dtype name, found 'int33'");
  EXPECT_EQ(parse_error("func @f(%a: tile<int32, 0>) { yield }"), "<tir>:1:26: tile extent 0 must be positive");
  EXPECT_EQ(parse_error("func @f(%a: tensor<int32>) { yield }"), "<tir>:1:13: expected a type (tile<...> or array<...>), found 'tensor'");
  EXPECT_EQ(parse_error("func @f(%a: array<int32, 100>) { yield }"), "<tir>:1:29: array rank 100 is outside 0..64");
  EXPECT_EQ(parse_error("func @f(%a: tile<int32>) { %b = add %a, %a yield }"),
            "<tir>:1:44: expected ':' and the result type(s) of 'add', found 'yield'");
  EXPECT_EQ(parse_error("func @f(%a: tile<int32>) { %b = add %a, %a : tile<int32>, tile<int32> yield }"),
            "<tir>:1:70: expected 1 result type(s) for 'add'");
  EXPECT_EQ(parse_error("func @f() { print {format = \"x} yield }"), "<tir>:1:40: expected a closing '\"', found the end of the input");
  EXPECT_EQ(parse_error("func @f() { print {format = \"\\q\"} yield }"),
            "<tir>:1:31: expected an escape (\\\" \\\\ \\n \\t \\r \\xHH), found 'q'");
  EXPECT_EQ(parse_error("func @f() { print {a = 1, a = 2, format = \"\"} yield }"), "<tir>:1:27: attribute 'a' is given twice");
  EXPECT_EQ(parse_error("func @f() { print {a = 99999999999999999999, format = \"\"} yield }"),
            "<tir>:1:24: integer literal out of the int64 range");
  EXPECT_EQ(parse_error("func @f() { yield } extra"), "<tir>:1:21: expected the end of the input, found 'extra'");
  EXPECT_EQ(parse_error("func @f() {"), "<tir>:1:12: expected an op or '}', found the end of the input");
  EXPECT_EQ(parse_error("func @f() { %% = constant }"), "<tir>:1:14: expected a value name after '%', found '%'");
  EXPECT_EQ(parse_error("func @f() { %1x.y = constant }"), "<tir>:1:14: malformed value name %1x.y");
  std::string deep = "func @f(%c: tile<bool>) {";
  for (int i = 0; i < 300; ++i) deep += " if %c {";
  EXPECT_NE(parse_error(deep).find("regions nested deeper than 200"), std::string::npos);
  try {
    parse("func", "my.tir");
  } catch (const tegula::error& e) {
    EXPECT_EQ(std::string(e.what()), "my.tir:1:5: expected '@' and the function name, found the end of the input");
  }
}

// Every prefix of a valid text, and many random corruptions of it, either parse or throw
// tegula::error: never crash, hang or throw anything else. (The sanitizer build checks memory.)
TEST(IrPrinterParser, NeverCrashesOnMalformedText) {
  const std::string text = kernel;
  auto attempt = [](const std::string& t) {
    try {
      function f = parse(t);
      std::string once = print(f, true);  // whatever parses also prints and round-trips
      EXPECT_EQ(print(parse(once), true), once);
      try {
        verify(f);
      } catch (const tegula::error&) {
      }
    } catch (const tegula::error& e) {
      EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    }
  };
  for (std::size_t n = 0; n < text.size(); ++n) attempt(text.substr(0, n));
  std::mt19937 rng(12345);
  const std::string alphabet = "%@{}()<>[],:=^x\"\\-.0123456789 \nabcdefloqtyz_\x01\xff";
  for (int trial = 0; trial < 3000; ++trial) {
    std::string t = text;
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      std::size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(at, 1 + rng() % 8); break;
        default: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (t.empty()) t = "x";
    }
    attempt(t);
  }
}

}  // namespace
}  // namespace tegula::ir
