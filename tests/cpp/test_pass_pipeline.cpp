// Tests of passes/pipeline: stage order, dumps and callbacks, stop_after, named passes, errors.
#include "tegula/passes/pipeline.hpp"

#include <gtest/gtest.h>

#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/support/error.hpp"

namespace tegula::passes {
namespace {

const char* text =
    "func @f(%o: array<int32, 1>, %n: tile<int32>) {\n"
    "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
    "  %a = constant {dtype = int32, value = 2} : tile<int32>\n"
    "  %b = add %a, %a : tile<int32>\n"
    "  %r = for %z, %n, %b, %z {\n"
    "  ^(%i: tile<int32>, %c: tile<int32>):\n"
    "    %k = mul %b, %b : tile<int32>\n"
    "    %k2 = mul %b, %b : tile<int32>\n"
    "    %s = add %k, %k2 : tile<int32>\n"
    "    %c2 = add %c, %s : tile<int32>\n"
    "    yield %c2\n"
    "  } : tile<int32>\n"
    "  %t = expand_dims %r {axis = 0} : tile<int32, 1>\n"
    "  store %o, %z, %t\n"
    "  yield\n"
    "}\n";

TEST(PassPipeline, StagesInOrder) {
  EXPECT_EQ(pipeline_stages(), (std::vector<std::string>{"verify", "canonicalize", "cse", "licm", "cse", "dce", "verify"}));
  for (const std::string& s : pipeline_stages()) EXPECT_NE(find_pass(s), nullptr) << s;
  EXPECT_EQ(find_pass("nope"), nullptr);
  EXPECT_EQ(registered_passes().size(), 5u);
}

TEST(PassPipeline, RunsEverythingAndDumps) {
  std::vector<std::pair<std::string, std::string>> dumps;
  std::vector<std::string> seen;
  pipeline_options o;
  o.dumps = &dumps;
  o.after_stage = [&](const std::string& s, const ir::function&) { seen.push_back(s); };
  ir::function out = run_pipeline(ir::parse(text), o);
  EXPECT_EQ(seen, pipeline_stages());
  ASSERT_EQ(dumps.size(), 7u);
  EXPECT_EQ(dumps.back().second, ir::print(out));
  EXPECT_EQ(ir::print(out),
            "func @f(%o: array<int32, 1>, %n: tile<int32>) {\n"
            "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
            "  %b = constant {dtype = int32, value = 4} : tile<int32>\n"
            "  %s = constant {dtype = int32, value = 32} : tile<int32>\n"
            "  %r = for %z, %n, %b, %z {\n"
            "  ^(%i: tile<int32>, %c: tile<int32>):\n"
            "    %c2 = add %c, %s : tile<int32>\n"
            "    yield %c2\n"
            "  } : tile<int32>\n"
            "  %t = expand_dims %r {axis = 0} : tile<int32, 1>\n"
            "  store %o, %z, %t\n"
            "  yield\n"
            "}\n");
}

TEST(PassPipeline, StopAfter) {
  std::vector<std::pair<std::string, std::string>> dumps;
  pipeline_options o;
  o.dumps = &dumps;
  o.stop_after = "cse";
  run_pipeline(ir::parse(text), o);
  ASSERT_EQ(dumps.size(), 3u);
  EXPECT_EQ(dumps.back().first, "cse");
  o.stop_after = "inline";
  EXPECT_THROW(run_pipeline(ir::parse(text), o), tegula::error);
}

TEST(PassPipeline, NamedPasses) {
  ir::function f = ir::parse(text);
  ir::function g = run_passes(f, {"cse", "dce"});
  EXPECT_EQ(ir::print(g).find("%k2"), std::string::npos);
  EXPECT_EQ(ir::print(run_passes(f, {})), ir::print(f));
  try {
    run_passes(f, {"cse", "inline"});
    FAIL();
  } catch (const tegula::error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    EXPECT_EQ(std::string(e.what()), "unknown pass 'inline' (known: verify, canonicalize, cse, licm, dce)");
  }
}

TEST(PassPipeline, InvalidInputStopsAtVerify) {
  ir::function f = ir::parse(text);
  f.values[std::size_t(f.body.ops[2].results[0])].t = ir::type::tile(ir::dtype::i64);
  std::vector<std::string> seen;
  pipeline_options o;
  o.after_stage = [&](const std::string& s, const ir::function&) { seen.push_back(s); };
  EXPECT_THROW(run_pipeline(f, o), tegula::error);
  EXPECT_TRUE(seen.empty());
}

}  // namespace
}  // namespace tegula::passes
