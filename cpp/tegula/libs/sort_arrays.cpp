// Radix sorts of engine arrays (sort_arrays.hpp).
#include "tegula/libs/sort_arrays.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "tegula/libs/arrays.hpp"
#include "tegula/libs/cub_sort.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

namespace {

// The unsigned order key of element i (tegula's CUB float traits: NaNs lose their sign, then the sign twiddle),
// and the float written back (NaNs positive).
template <class U, class F>
std::vector<U> float_keys(F* v, std::int64_t n) {
  const U high = U(1) << (8 * sizeof(U) - 1);
  std::vector<U> k(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    U u;
    std::memcpy(&u, &v[i], sizeof(U));
    if (std::isnan(v[i])) {
      u &= ~high;
      std::memcpy(&v[i], &u, sizeof(U));
    }
    k[i] = (u & high) ? ~u : (u ^ high);
  }
  return k;
}

// The CPU reference of radix_sort's contract, in place over contiguous host keys and values.
void host_sort(const std::string& key_type, int value_bytes, void* keys, void* values, std::int64_t n, int end_bit) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  auto by = [&](const auto& k) {
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return k[a] < k[b]; });
  };
  auto low_bits = [&](auto* p) {
    using U = std::remove_pointer_t<decltype(p)>;
    const U mask = end_bit >= int(8 * sizeof(U)) ? ~U(0) : (U(1) << end_bit) - 1;
    std::vector<U> k(p, p + n);
    for (auto& x : k) x &= mask;
    by(k);
  };
  if (key_type == "float32") by(float_keys<std::uint32_t>(static_cast<float*>(keys), n));
  else if (key_type == "float64") by(float_keys<std::uint64_t>(static_cast<double*>(keys), n));
  else if (key_type == "int32") by(std::vector<std::int32_t>(static_cast<std::int32_t*>(keys), static_cast<std::int32_t*>(keys) + n));
  else if (key_type == "int64") by(std::vector<std::int64_t>(static_cast<std::int64_t*>(keys), static_cast<std::int64_t*>(keys) + n));
  else if (key_type == "uint32") low_bits(static_cast<std::uint32_t*>(keys));
  else low_bits(static_cast<std::uint64_t*>(keys));
  auto permute = [&](void* p, int bytes) {
    std::vector<char> tmp(static_cast<std::size_t>(n) * bytes);
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(&tmp[i * bytes], static_cast<char*>(p) + order[i] * bytes, bytes);
    std::memcpy(p, tmp.data(), tmp.size());
  };
  permute(keys, sort_key_bytes(key_type));
  if (value_bytes) permute(values, value_bytes);
}

}  // namespace

std::pair<node_ptr, node_ptr> radix_sort(const node_ptr& keys0, const node_ptr& values0, int end_bit, bool overwrite) {
  const node& nk = input(keys0);
  if (nk.shape.size() != 1) fail(error_kind::invalid_argument, "radix_sort takes 1-D keys");
  const std::string key_type(ir::name(nk.t));
  const int key_bytes = sort_key_bytes(key_type);
  const std::int64_t n = nk.shape[0];
  if (end_bit < 0 || end_bit > 8 * key_bytes)
    fail(error_kind::invalid_argument, "radix_sort: end_bit ", end_bit, " outside [0, ", 8 * key_bytes, "]");
  int value_bytes = 0;
  if (values0) {
    const node& nv = input(values0);
    value_bytes = static_cast<int>(ir::size_bytes(nv.t));
    if (nv.shape != nk.shape || (value_bytes != 4 && value_bytes != 8))
      fail(error_kind::invalid_argument, "radix_sort: values must be 1-D of the keys' length, of 4 or 8 bytes");
    if (nv.device != nk.device || nv.gpu != nk.gpu)
      fail(error_kind::invalid_argument, "radix_sort: keys and values live on different devices");
  }
  node_ptr k = contiguous_leaf(keys0), v = values0 ? contiguous_leaf(values0) : nullptr;
  const bool own_k = overwrite, own_v = values0 && overwrite;  // otherwise the inputs are only read
  if (nk.device == array::device_kind::cpu) {
    node_ptr rk = own_k ? k : empty_like_device(nk, nk.shape, nk.t);
    node_ptr rv = !values0 ? nullptr : own_v ? v : empty_like_device(*v, v->shape, v->t);
    if (rk != k) std::memcpy(input(rk).data->host(), reinterpret_cast<void*>(element_address(*k)), n * key_bytes);
    if (rv && rv != v) std::memcpy(input(rv).data->host(), reinterpret_cast<void*>(element_address(*v)), n * value_bytes);
    host_sort(key_type, value_bytes, reinterpret_cast<void*>(element_address(output(rk))),
              rv ? reinterpret_cast<void*>(element_address(output(rv))) : nullptr, n, end_bit);
    return {rk, rv};
  }
  rt::device& dev = cuda_device(nk, "CUB's radix sort");
  node_ptr k2 = empty_like_device(nk, nk.shape, nk.t), k1 = own_k ? k : empty_like_device(nk, nk.shape, nk.t);
  node_ptr v2, v1;
  if (values0) {
    v2 = empty_like_device(*v, v->shape, v->t);
    v1 = own_v ? v : empty_like_device(*v, v->shape, v->t);
  }
  radix_sort_problem p;
  p.key_type = key_type, p.value_bytes = value_bytes, p.n = n, p.end_bit = end_bit;
  p.keys[0] = element_address(output(k1)), p.keys[1] = element_address(output(k2));
  if (!own_k) p.input_keys = element_address(input(k));
  if (values0) {
    p.values[0] = element_address(output(v1)), p.values[1] = element_address(output(v2));
    if (!own_v) p.input_values = element_address(input(v));
  }
  if (n == 0) return {k1, v1};
  int which = libs::radix_sort(dev, array::array_stream(dev), p);
  return which == 0 ? std::make_pair(k1, v1) : std::make_pair(k2, v2);
}

}  // namespace tegula::libs
