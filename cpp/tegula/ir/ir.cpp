// The tile IR: typed SSA values, ops with attributes and nested regions, and functions.
#include "tegula/ir/ir.hpp"

#include <algorithm>

#include "tegula/support/error.hpp"

namespace tegula::ir {
namespace {

constexpr op_info infos[] = {
#define TEGULA_OP(id, text, operands, results, regions, ...) {text, operands, results, regions},
#include "tegula/ir/ops.def"
#undef TEGULA_OP
};

template <class T>
const T& get(const op& o, const std::string& name, const char* what) {
  const attribute* a = o.attr(name);
  if (!a || !std::holds_alternative<T>(*a))
    fail(error_kind::internal, "op '", info(o.kind).text, "' has no ", what, " attribute '", name, "'");
  return std::get<T>(*a);
}

}  // namespace

const op_info& info(op_kind k) { return infos[static_cast<int>(k)]; }

std::optional<op_kind> op_from_text(const std::string& text) {
  for (std::size_t i = 0; i < sizeof infos / sizeof infos[0]; ++i)
    if (text == infos[i].text) return static_cast<op_kind>(i);
  return std::nullopt;
}

std::int64_t type::numel() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string to_string(const type& t) {
  std::string s = t.is_tile() ? "tile<" : "array<";
  s += name(t.elem);
  if (t.is_array()) return s + ", " + std::to_string(t.rank()) + ">";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? "x" : ", ") + std::to_string(t.shape[i]);
  return s + ">";
}

std::string to_string(const location& l) {
  if (!l.known()) return {};
  std::string s = l.file;  // appended piecewise: g++ 12 warns (-Wrestrict) on ":" + std::string
  s += ':';
  s += std::to_string(l.line);
  if (l.column) {
    s += ':';
    s += std::to_string(l.column);
  }
  return s;
}

const attribute* op::attr(const std::string& name) const {
  for (const auto& [n, v] : attrs)
    if (n == name) return &v;
  return nullptr;
}

std::int64_t op::int_attr(const std::string& name) const { return get<std::int64_t>(*this, name, "int"); }

double op::float_attr(const std::string& name) const {
  const attribute* a = attr(name);
  if (a && std::holds_alternative<std::int64_t>(*a)) return double(std::get<std::int64_t>(*a));
  return get<double>(*this, name, "float");
}

const std::string& op::string_attr(const std::string& name) const { return get<std::string>(*this, name, "string"); }

const std::vector<std::int64_t>& op::ints_attr(const std::string& name) const {
  return get<std::vector<std::int64_t>>(*this, name, "int list");
}

dtype op::dtype_attr(const std::string& name) const { return get<dtype>(*this, name, "dtype"); }

void op::set_attr(const std::string& name, attribute value) {
  auto it = std::lower_bound(attrs.begin(), attrs.end(), name, [](const auto& a, const std::string& n) { return a.first < n; });
  if (it != attrs.end() && it->first == name) it->second = std::move(value);
  else attrs.insert(it, {name, std::move(value)});
}

value_id function::new_value(type t, std::string name) {
  values.push_back({std::move(t), std::move(name)});
  return value_id(values.size() - 1);
}

}  // namespace tegula::ir
