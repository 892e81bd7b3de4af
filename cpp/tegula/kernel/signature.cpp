// Specialization keys (see signature.hpp).
#include "tegula/kernel/signature.hpp"

#include <cstdint>

namespace tegula::kernel {

void key_target(std::string& key, int arch) {
  key += 'T';
  const auto a = static_cast<std::uint16_t>(arch);
  key.append(reinterpret_cast<const char*>(&a), sizeof a);
}

void key_array(std::string& key, const array_arg& a) {
  key += 'A';
  key += static_cast<char>(a.t);
  key += static_cast<char>(a.rank);
  key += static_cast<char>((a.contiguous ? 1 : 0) | (a.aligned ? 2 : 0));
}

void key_scalar(std::string& key, ir::dtype t) {
  key += 'S';
  key += static_cast<char>(t);
}

void key_constant(std::string& key, std::string_view value) {
  key += 'C';
  const auto n = static_cast<std::uint32_t>(value.size());
  key.append(reinterpret_cast<const char*>(&n), sizeof n);  // the length first: no value is a prefix of another
  key.append(value);
}

std::string key_of(const std::vector<argument>& args, int arch) {
  std::string key;
  key_target(key, arch);
  for (const auto& a : args) {
    if (const auto* x = std::get_if<array_arg>(&a)) key_array(key, *x);
    else key_scalar(key, std::get<scalar_arg>(a).t);
  }
  return key;
}

}  // namespace tegula::kernel
