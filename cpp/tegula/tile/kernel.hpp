// Tile kernels written in C++: the same tile IR, passes, code generation, JIT cache, runtime and CPU interpreter
// as Python's @tt.kernel.
//
//     namespace tt = tegula::tile;
//     tt::kernel softmax("softmax", {"x", "out", "C"}, [](tt::array x, tt::array out, std::int64_t C) {
//       auto row = tt::let("row", tt::bid(0));
//       auto v = tt::let("v", tt::load(x, {row, 0}, {1, C}, "neg_inf"));
//       auto e = tt::let("e", tt::exp(v - tt::max(v, 1, true)));
//       tt::store(out, {row, 0}, e / tt::sum(e, 1, true));
//     });
//     softmax.launch({rows}, stream, {tt::view(x_ptr, tt::float32, {rows, cols}), tt::view(...), cols});
//
// Parameters are arrays (tt::array), run-time scalars (tt::scalar) or constants (integers, doubles, bools and
// strings, fixed per specialization like tt.Constant). A kernel is specialised for the dtypes, ranks, layouts and
// constants of its arguments, and each specialization is built and compiled once.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tegula/ir/ir.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/tile/ops.hpp"

namespace tegula::rt {
class stream;
}  // namespace tegula::rt

namespace tegula::tile {

// A run-time scalar parameter (a scalar tile in the kernel).
struct scalar : expr {
  explicit scalar(const expr& e) : expr(e) {}
};

// An array argument at launch: memory, dtype, extents and strides (in elements; empty strides: C order).
struct view {
  std::uintptr_t data = 0;
  dtype elem = float32;
  std::vector<std::int64_t> shape, strides;
  view(const void* p, dtype t, std::vector<std::int64_t> s, std::vector<std::int64_t> st = {});
};

// One launch argument: an array view, a run-time scalar (with its dtype), or a constant.
struct argument {
  enum class kind { array, scalar, constant } k = kind::constant;
  view arr{nullptr, float32, {}};
  dtype scalar_type = int32;
  number value;            // scalar or numeric constant
  std::string text;        // string constant
  bool is_text = false;
  argument(const view& v);                 // NOLINT(google-explicit-constructor)
  argument(int v);                         // NOLINT: constants
  argument(long v);                        // NOLINT
  argument(long long v);                   // NOLINT
  argument(double v);                      // NOLINT
  argument(bool v);                        // NOLINT
  argument(const char* v);                 // NOLINT
  argument(std::string v);                 // NOLINT
  static argument run_time(dtype t, number v);  // a run-time scalar parameter
};
argument run_time_scalar(std::int64_t v, dtype t = int32);
argument run_time_scalar(double v, dtype t = float32);

// What a kernel body receives for each parameter, from its argument.
struct bound_param {
  array arr;
  expr value{0};
  std::string text;
};

class kernel {
 public:
  using body_fn = std::function<void(const std::vector<bound_param>&)>;

  kernel(std::string name, std::vector<std::string> params, body_fn body);
  // The body as a C++ function whose parameters are tt::array, tt::scalar, integers, doubles, bools or strings.
  template <class F, class = std::enable_if_t<!std::is_convertible_v<F, body_fn>>>
  kernel(std::string name, std::vector<std::string> params, F body);

  const std::string& name() const { return name_; }

  // The IR before passes, after all passes, or after the named stage ("verify", "canonicalize", "cse", ...).
  ir::function build(const std::vector<argument>& args) const;
  std::string ir(const std::vector<argument>& args, const std::string& stage = "") const;

  // Runs on the CPU interpreter; array views point to host memory.
  void interpret(std::vector<std::int64_t> grid, const std::vector<argument>& args) const;
  // Runs on the GPU on `s` (array views hold device pointers). The first launch of a specialization generates CUDA
  // and compiles it (through the disk cache); tensor-core matmuls get their TMA descriptors and persistent grid.
  // Compiling and launching are the kernel module's (kernel/compile.hpp, kernel/launch.hpp).
  void launch(std::vector<std::int64_t> grid, const rt::stream& s, const std::vector<argument>& args) const;

  // The specialization for `args` on `dev` (null: the CPU interpreter), compiled on first use.
  const ::tegula::kernel::compiled& specialization(const std::vector<argument>& args, rt::device* dev) const;

 private:
  std::string name_;
  std::vector<std::string> params_;
  body_fn body_;
  mutable ::tegula::kernel::cache cache_;
};

// ---- typed bodies -------------------------------------------------------------------------------------------
namespace detail {

template <class T>
T param_as(const bound_param& p) {
  using U = std::decay_t<T>;
  if constexpr (std::is_same_v<U, array>) return p.arr;
  else if constexpr (std::is_same_v<U, scalar>) return scalar(p.value);
  else if constexpr (std::is_same_v<U, expr>) return p.value;
  else if constexpr (std::is_same_v<U, std::string>) return p.text;
  else if constexpr (std::is_same_v<U, bool>) return p.value.is_number() && p.value.as_number().i != 0;
  else if constexpr (std::is_integral_v<U>) return U(p.value.as_number().i);
  else if constexpr (std::is_floating_point_v<U>) return U(p.value.as_number().f);
  else static_assert(sizeof(U) == 0, "kernel parameters are tt::array, tt::scalar, numbers or std::string");
}

template <class F>
struct signature : signature<decltype(&F::operator())> {};
template <class C, class R, class... A>
struct signature<R (C::*)(A...) const> {
  using args = std::tuple<A...>;
};
template <class C, class R, class... A>
struct signature<R (C::*)(A...)> {
  using args = std::tuple<A...>;
};

template <class F, class... A, std::size_t... I>
void call(F& f, const std::vector<bound_param>& p, std::tuple<A...>*, std::index_sequence<I...>) {
  f(param_as<A>(p.at(I))...);
}

}  // namespace detail

template <class F, class>
kernel::kernel(std::string name, std::vector<std::string> params, F body)
    : kernel(std::move(name), std::move(params), body_fn([body](const std::vector<bound_param>& p) mutable {
        using args = typename detail::signature<F>::args;
        detail::call(body, p, static_cast<args*>(nullptr), std::make_index_sequence<std::tuple_size_v<args>>{});
      })) {}

}  // namespace tegula::tile
