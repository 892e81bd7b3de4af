// Object code: compiled bytes (CUBIN or PTX) with their name-expression map, loaded on first use.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tegula::rt {

class kernel;
class library;

class object_code {
 public:
  enum class kind { cubin, ptx };
  object_code(std::string code, kind k, std::vector<std::pair<std::string, std::string>> lowered_names);
  const std::string& code() const { return code_; }
  kind code_kind() const { return kind_; }
  const std::vector<std::pair<std::string, std::string>>& lowered_names() const { return lowered_; }
  // `name` is an extern "C" kernel name or one of the name expressions given to the compiler.
  std::shared_ptr<kernel> get_kernel(const std::string& name);

 private:
  std::string code_;
  kind kind_;
  std::vector<std::pair<std::string, std::string>> lowered_;
  std::once_flag load_once_;
  std::shared_ptr<library> library_;
  std::mutex kernels_mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<kernel>>> kernels_;  // few per module
};

}  // namespace tegula::rt
