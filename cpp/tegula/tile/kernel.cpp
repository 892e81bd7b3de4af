// C++ tile kernels (see kernel.hpp): building the IR through the same builder as Python; compiling and launching
// (GPU or CPU interpreter) through the kernel module.
#include "tegula/tile/kernel.hpp"

#include <array>

#include "tegula/ir/builder.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/kernel/launch.hpp"
#include "tegula/kernel/signature.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"
#include "tegula/tile/emitter.hpp"

namespace tegula::tile {

view::view(const void* p, dtype t, std::vector<std::int64_t> s, std::vector<std::int64_t> st)
    : data(reinterpret_cast<std::uintptr_t>(p)), elem(t), shape(std::move(s)), strides(std::move(st)) {
  if (strides.empty()) {
    strides.assign(shape.size(), 1);
    for (int i = int(shape.size()) - 2; i >= 0; --i) strides[std::size_t(i)] = strides[std::size_t(i) + 1] * shape[std::size_t(i) + 1];
  }
  if (strides.size() != shape.size()) fail(error_kind::invalid_argument, "a view needs one stride per extent");
}

argument::argument(const view& v) : k(kind::array), arr(v) {}
argument::argument(int v) : value(number::of(std::int64_t(v))) {}
argument::argument(long v) : value(number::of(std::int64_t(v))) {}
argument::argument(long long v) : value(number::of(std::int64_t(v))) {}
argument::argument(double v) : value(number::of(v)) {}
argument::argument(bool v) : value(number::of(v)) {}
argument::argument(const char* v) : text(v), is_text(true) {}
argument::argument(std::string v) : text(std::move(v)), is_text(true) {}

argument argument::run_time(dtype t, number v) {
  argument a(0);
  a.k = kind::scalar;
  a.scalar_type = t;
  a.value = v;
  return a;
}
argument run_time_scalar(std::int64_t v, dtype t) { return argument::run_time(t, number::of(v)); }
argument run_time_scalar(double v, dtype t) { return argument::run_time(t, number::of(v)); }

namespace {

// The kernel module's arguments (arrays and run-time scalars; constants are in the IR).
std::vector<::tegula::kernel::argument> kernel_arguments(const std::vector<argument>& args) {
  std::vector<::tegula::kernel::argument> out;
  for (const argument& a : args) {
    if (a.k == argument::kind::array)
      out.emplace_back(::tegula::kernel::make_array(a.arr.data, a.arr.elem, a.arr.shape, a.arr.strides));
    else if (a.k == argument::kind::scalar)
      out.emplace_back(::tegula::kernel::scalar_arg{a.scalar_type, a.value.f, a.value.i});
  }
  return out;
}

// The specialization key (kernel/signature.hpp): arrays and scalars as the kernel module writes them, constants by
// their text or value.
std::string key_of(const std::vector<argument>& args, int arch) {
  std::string k;
  ::tegula::kernel::key_target(k, arch);
  for (const argument& a : args) {
    if (a.k == argument::kind::array)
      ::tegula::kernel::key_array(k, ::tegula::kernel::make_array(a.arr.data, a.arr.elem, a.arr.shape, a.arr.strides));
    else if (a.k == argument::kind::scalar)
      ::tegula::kernel::key_scalar(k, a.scalar_type);
    else if (a.is_text)
      ::tegula::kernel::key_constant(k, "T" + a.text);
    else
      ::tegula::kernel::key_constant(k, str(int(a.value.k), ",", a.value.i, ",", a.value.f));
  }
  return k;
}

std::array<std::int64_t, 3> grid_of(const std::vector<std::int64_t>& grid) {
  if (grid.empty() || grid.size() > 3) fail(error_kind::invalid_argument, "grid must have 1 to 3 extents");
  std::array<std::int64_t, 3> g{1, 1, 1};
  for (std::size_t i = 0; i < grid.size(); ++i) g[i] = grid[i];
  return g;
}

}  // namespace

kernel::kernel(std::string name, std::vector<std::string> params, body_fn body)
    : name_(std::move(name)), params_(std::move(params)), body_(std::move(body)) {}

ir::function kernel::build(const std::vector<argument>& args) const {
  if (args.size() != params_.size())
    fail(error_kind::type_error, name_, "() takes ", params_.size(), " arguments but ", args.size(), " were given");
  ir::function f;
  f.name = name_;
  ir::builder b(f);
  std::vector<bound_param> bound(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const argument& a = args[i];
    if (a.k == argument::kind::array) {
      const int rank = int(a.arr.shape.size());
      bound[i].arr = array{b.add_param(params_[i], ir::type::array(a.arr.elem, rank)), a.arr.elem, rank, params_[i]};
    } else if (a.k == argument::kind::scalar) {
      bound[i].value = value_expr(b.add_param(params_[i], ir::type::tile(a.scalar_type)));
    } else if (a.is_text) {
      bound[i].text = a.text;
    } else {
      bound[i].value = a.value.k == number::kind::floating ? expr(a.value.f)
                       : a.value.k == number::kind::boolean ? expr(a.value.i != 0)
                                                            : expr(static_cast<long long>(a.value.i));
    }
  }
  emitter em(b);
  {
    emitter::scope s(em);
    body_(bound);
  }
  b.finish();
  return f;
}

std::string kernel::ir(const std::vector<argument>& args, const std::string& stage) const {
  ::tegula::kernel::target t;  // the CPU: the passes alone
  t.keep_stages = true;
  auto c = ::tegula::kernel::compile(build(args), t);
  if (stage.empty()) return ir::print(c->fn);
  for (const auto& [name, text] : c->stages)
    if (name == stage) return text;  // the first stage of that name, as Python's ir(stage=)
  fail(error_kind::invalid_argument, "no pipeline stage '", stage, "'");
}

void kernel::interpret(std::vector<std::int64_t> grid, const std::vector<argument>& args) const {
  const std::array<std::int64_t, 3> g = grid_of(grid);
  ::tegula::kernel::launch(specialization(args, nullptr), kernel_arguments(args), g, nullptr);
}

const ::tegula::kernel::compiled& kernel::specialization(const std::vector<argument>& args, rt::device* dev) const {
  const std::string key = key_of(args, dev ? dev->arch() : 0);
  ::tegula::kernel::target t;
  t.device = dev;
  t.arrays = ::tegula::kernel::declared_layouts(kernel_arguments(args));
  t.made_by = ::tegula::jit::component::tile;
  return cache_.get(key, [&] { return build(args); }, t);
}

void kernel::launch(std::vector<std::int64_t> grid, const rt::stream& s, const std::vector<argument>& args) const {
  const std::array<std::int64_t, 3> g = grid_of(grid);
  ::tegula::kernel::launch(specialization(args, &s.dev()), kernel_arguments(args), g, &s);
}

}  // namespace tegula::tile
