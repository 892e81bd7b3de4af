// Golden IR tests: runs tegula-opt on every tests/ir/*.tir file and compares with its CHECK lines.
//
// A golden file is .tir input (comments are ignored by the parser) with directives in comments:
//   // RUN: --pass=cse           arguments after the file name (none: parse, verify, print)
//   // CHECK: <line>             the expected stdout, all of it, line by line, in order
//   // ERROR: <text>             instead of CHECK: tegula-opt must exit 1 and print <text> to stderr
// Every file that parses is also checked in-process: print(parse(print(f))) == print(f).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/support/error.hpp"

namespace tegula {
namespace {

namespace fs = std::filesystem;

struct golden_file {
  std::string args;
  std::vector<std::string> check, errors;
  bool has_check = false;
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

golden_file directives(const std::string& text) {
  golden_file g;
  std::istringstream in(text);
  std::string line;
  auto after = [&](const std::string& l, const std::string& tag, std::string* rest) {
    std::size_t p = l.find(tag);
    if (p == std::string::npos || l.find_first_not_of(" \t") != p) return false;
    *rest = l.substr(p + tag.size());
    if (!rest->empty() && (*rest)[0] == ' ') rest->erase(0, 1);
    return true;
  };
  std::string rest;
  while (std::getline(in, line)) {
    if (after(line, "// RUN:", &rest)) g.args += " " + rest;
    else if (after(line, "// CHECK:", &rest)) g.check.push_back(rest), g.has_check = true;
    else if (after(line, "// ERROR:", &rest)) g.errors.push_back(rest);
  }
  return g;
}

std::vector<std::string> golden_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(TEGULA_GOLDEN_DIR))
    if (e.path().extension() == ".tir") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Runs a shell command; returns its exit status and combined stdout+stderr.
int run(const std::string& command, std::string* output) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output->append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

class golden : public testing::TestWithParam<std::string> {};

TEST_P(golden, matches) {
  const fs::path file = fs::path(TEGULA_GOLDEN_DIR) / GetParam();
  const std::string text = read(file);
  const golden_file g = directives(text);
  ASSERT_TRUE(g.has_check || !g.errors.empty()) << GetParam() << " has neither CHECK nor ERROR lines";
  std::string out;
  int rc = run(str("cd '", TEGULA_GOLDEN_DIR, "' && '", TEGULA_OPT_PATH, "' '", GetParam(), "'", g.args), &out);
  if (!g.errors.empty()) {
    EXPECT_EQ(rc, 1) << out;
    for (const std::string& e : g.errors) EXPECT_NE(out.find(e), std::string::npos) << "expected error text: " << e << "\ngot: " << out;
    return;
  }
  ASSERT_EQ(rc, 0) << out;
  std::string expected;
  for (const std::string& l : g.check) expected += l + "\n";
  EXPECT_EQ(out, expected);
}

TEST_P(golden, round_trips) {
  const std::string text = read(fs::path(TEGULA_GOLDEN_DIR) / GetParam());
  ir::function f;
  try {
    f = ir::parse(text, GetParam());
  } catch (const tegula::error& e) {
    ASSERT_FALSE(directives(text).errors.empty()) << e.what();
    return;  // a parse-error golden: nothing to round-trip
  }
  for (bool locs : {false, true}) {
    const std::string once = ir::print(f, locs);
    EXPECT_EQ(ir::print(ir::parse(once), locs), once);
  }
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string n;
  for (char c : info.param.substr(0, info.param.size() - 4)) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(tir, golden, testing::ValuesIn(golden_names()), test_name);

}  // namespace
}  // namespace tegula
