// tegula-opt: parses a .tir file, runs named passes or the pipeline, and prints the resulting IR.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tegula/ir/parser.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"
#include "tegula/passes/pipeline.hpp"
#include "tegula/support/error.hpp"

namespace {

constexpr const char* usage =
    "usage: tegula-opt FILE.tir|- [--pass=NAME,...|--pipeline] [--stop-after=NAME] [--print-after-all]\n"
    "                  [--locations] [--no-verify]\n"
    "  --pass=a,b      run these passes in order (verify, canonicalize, cse, licm, dce)\n"
    "  --pipeline      run the standard pipeline (verify, canonicalize, cse, licm, dce, verify)\n"
    "  --stop-after=P  stop after the first stage named P\n"
    "  --print-after-all  print the IR after every stage instead of only the result\n"
    "  --locations     print loc(...) of each op\n"
    "  --no-verify     do not verify the input before running passes\n";

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool starts_with(const std::string& s, const char* prefix, std::string* rest) {
  std::string p(prefix);
  if (s.compare(0, p.size(), p) != 0) return false;
  *rest = s.substr(p.size());
  return true;
}

int run(int argc, char** argv) {
  std::string file, value;
  std::vector<std::string> passes;
  bool pipeline = false, after_all = false, locations = false, verify_input = true;
  tegula::passes::pipeline_options options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (starts_with(a, "--pass=", &value)) {
      auto more = split(value);
      passes.insert(passes.end(), more.begin(), more.end());
    } else if (a == "--pipeline") pipeline = true;
    else if (starts_with(a, "--stop-after=", &value)) options.stop_after = value;
    else if (a == "--print-after-all") after_all = true;
    else if (a == "--locations") locations = true;
    else if (a == "--no-verify") verify_input = false;
    else if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::cerr << "tegula-opt: unknown option '" << a << "'\n" << usage;
      return 1;
    } else if (file.empty()) file = a;
    else {
      std::cerr << "tegula-opt: more than one input file\n" << usage;
      return 1;
    }
  }
  if (file.empty() || (pipeline && !passes.empty())) {
    std::cerr << usage;
    return 1;
  }
  std::stringstream text;
  if (file == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "tegula-opt: cannot read '" << file << "'\n";
      return 1;
    }
    text << in.rdbuf();
  }
  tegula::ir::function f = tegula::ir::parse(text.str(), file == "-" ? "<stdin>" : file);
  if (verify_input) tegula::ir::verify(f);
  std::vector<std::pair<std::string, std::string>> dumps;
  options.dumps = after_all ? &dumps : nullptr;
  options.dump_locations = locations;
  tegula::ir::function result = pipeline ? tegula::passes::run_pipeline(f, options)
                                         : tegula::passes::run_passes(f, passes, options);
  if (after_all && !dumps.empty()) {
    for (const auto& [stage, ir] : dumps) std::cout << "// ----- after " << stage << " -----\n" << ir;
  } else {
    std::cout << tegula::ir::print(result, locations);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const tegula::error& e) {
    std::cout.flush();
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "tegula-opt: internal error: " << e.what() << "\n";
    return 2;
  }
}
