// Object code: compiled bytes (CUBIN or PTX) with their name-expression map, loaded on first use.
#include "tegula/runtime/object_code.hpp"

#include "tegula/runtime/module.hpp"

namespace tegula::rt {

object_code::object_code(std::string code, kind k, std::vector<std::pair<std::string, std::string>> lowered)
    : code_(std::move(code)), kind_(k), lowered_(std::move(lowered)) {}

std::shared_ptr<kernel> object_code::get_kernel(const std::string& name) {
  std::call_once(load_once_, [&] { library_ = library::load(code_); });
  std::lock_guard<std::mutex> lock(kernels_mutex_);
  for (auto& [n, k] : kernels_)
    if (n == name) return k;
  std::string symbol = name;
  for (const auto& [expr, mangled] : lowered_)
    if (expr == name) symbol = mangled;
  auto k = library_->get_kernel(symbol, name);
  kernels_.emplace_back(name, k);
  return k;
}

}  // namespace tegula::rt
