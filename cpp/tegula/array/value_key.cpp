// The identity of an array's value (see value_key.hpp).
#include "tegula/array/value_key.hpp"

#include <cstring>

namespace tegula::array {
namespace {

struct walker {
  value_key out;
  std::size_t nodes = 0;

  template <class T>
  void word(T v) {
    out.key.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void dims_of(const dims& d) {
    word(static_cast<std::uint32_t>(d.size()));
    for (auto e : d) word(e);
  }

  bool walk(const node_ptr& n) {
    if (++nodes > max_value_key_nodes) return false;
    word(static_cast<std::uint8_t>(n->kind));
    word(static_cast<std::uint8_t>(n->t));
    dims_of(n->shape);
    switch (n->kind) {
      case node_kind::leaf: {
        word(n->data->serial);
        word(n->lay.offset);
        dims_of(n->lay.strides);
        bool seen = false;
        for (const auto& l : out.leaves) seen = seen || l->data == n->data;
        if (!seen) out.leaves.push_back(n);
        return true;
      }
      case node_kind::scalar:
        word(n->fvalue), word(n->fimag), word(n->ivalue);
        return true;
      case node_kind::iota:
        word(n->fvalue), word(n->fstep), word(n->ivalue), word(n->istep);
        return true;
      case node_kind::reduce:
      case node_kind::scan:
      case node_kind::library:
        return false;
      default:  // element-wise: unary, binary, where, cast, part, compose
        word(static_cast<std::uint16_t>(n->op));
        word(static_cast<std::uint8_t>(n->compute));
        word(n->ivalue);
        word(static_cast<std::uint8_t>(n->inputs.size()));
        for (const auto& in : n->inputs)
          if (!walk(in)) return false;
        return true;
    }
  }
};

}  // namespace

std::optional<value_key> make_value_key(const node_ptr& n) {
  walker w;
  if (!w.walk(n)) return std::nullopt;
  return std::move(w.out);
}

}  // namespace tegula::array
