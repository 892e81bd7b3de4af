// C++ tile kernels (see kernel.hpp): building the IR through the same builder as Python, running it on the CPU
// interpreter, and compiling and launching it on the GPU with the ABI of codegen/cuda.hpp.
#include "tegula/tile/kernel.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstring>

#include "tegula/codegen/cuda.hpp"
#include "tegula/interp/interpreter.hpp"
#include "tegula/ir/builder.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/passes/pipeline.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/runtime/tensor_map.hpp"
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

bool contiguous(const view& v) { return v.shape.empty() || v.shape.back() == 1 || v.strides.back() == 1; }

bool aligned(const view& v) {
  const std::int64_t item = ir::size_bytes(v.elem);
  if (v.data % 16) return false;
  for (std::size_t i = 0; i + 1 < v.strides.size(); ++i)
    if ((v.strides[i] * item) % 16) return false;
  return true;
}

// The specialization key: what the IR and the generated code depend on.
std::string key_of(const std::vector<argument>& args, int arch) {
  std::string k = std::to_string(arch);
  for (const argument& a : args) {
    k += '|';
    if (a.k == argument::kind::array)
      k += str("A", int(a.arr.elem), ",", a.arr.shape.size(), ",", contiguous(a.arr), aligned(a.arr));
    else if (a.k == argument::kind::scalar)
      k += str("S", int(a.scalar_type));
    else if (a.is_text)
      k += "T" + a.text;
    else
      k += str("C", int(a.value.k), ",", a.value.i, ",", a.value.f);
  }
  return k;
}

int tensor_map_type(ir::dtype t) {
  switch (t) {
    case ir::dtype::bf16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case ir::dtype::f16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case ir::dtype::f32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case ir::dtype::f64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    default:
      if (ir::is_float8(t)) return CU_TENSOR_MAP_DATA_TYPE_UINT8;
      fail(error_kind::invalid_argument, "no tensor map for ", ir::name(t));
  }
}

// A scalar's bytes in the kernel ABI (bool as one byte).
std::vector<unsigned char> scalar_bytes(ir::dtype t, const number& v) {
  std::vector<unsigned char> out(std::size_t(ir::size_bytes(t)));
  auto put = [&](auto x) { std::memcpy(out.data(), &x, sizeof x); };
  switch (t) {
    case ir::dtype::b1: put(static_cast<unsigned char>(v.i != 0)); break;
    case ir::dtype::i8: put(static_cast<std::int8_t>(v.i)); break;
    case ir::dtype::i16: put(static_cast<std::int16_t>(v.i)); break;
    case ir::dtype::i32: put(static_cast<std::int32_t>(v.i)); break;
    case ir::dtype::i64: put(static_cast<std::int64_t>(v.i)); break;
    case ir::dtype::u8: put(static_cast<std::uint8_t>(v.i)); break;
    case ir::dtype::u16: put(static_cast<std::uint16_t>(v.i)); break;
    case ir::dtype::u32: put(static_cast<std::uint32_t>(v.i)); break;
    case ir::dtype::u64: put(static_cast<std::uint64_t>(v.i)); break;
    case ir::dtype::f32: put(static_cast<float>(v.f)); break;
    case ir::dtype::f64: put(v.f); break;
    default: fail(error_kind::type_error, "run-time scalars of ", ir::name(t), " are not supported from C++");
  }
  return out;
}

}  // namespace

struct kernel::compiled {
  ir::function fn;
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> k;
  codegen::kernel_source source;
  int sms = 0;
};

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
  ir::function f = build(args);
  std::string found;
  passes::pipeline_options o;
  o.after_stage = [&](const std::string& s, const ir::function& r) {
    if (s == stage && found.empty()) found = ir::print(r);  // the first stage of that name, as Python's ir(stage=)
  };
  ir::function out = passes::run_pipeline(f, o);
  if (stage.empty()) return ir::print(out);
  if (found.empty()) fail(error_kind::invalid_argument, "no pipeline stage '", stage, "'");
  return found;
}

void kernel::interpret(std::vector<std::int64_t> grid, const std::vector<argument>& args) const {
  ir::function f = passes::run_pipeline(build(args));
  std::vector<interp::argument> in;
  for (const argument& a : args) {
    if (a.k == argument::kind::array)
      in.emplace_back(interp::array_arg{reinterpret_cast<void*>(a.arr.data), a.arr.elem, a.arr.shape, a.arr.strides});
    else if (a.k == argument::kind::scalar)
      in.emplace_back(ir::is_float(a.scalar_type) ? interp::scalar_arg{a.value.f} : interp::scalar_arg{a.value.i});
  }
  if (grid.empty() || grid.size() > 3) fail(error_kind::invalid_argument, "grid must have 1 to 3 extents");
  std::array<std::int64_t, 3> g{1, 1, 1};
  for (std::size_t i = 0; i < grid.size(); ++i) g[i] = grid[i];
  interp::run(f, in, g);
}

const kernel::compiled& kernel::specialization(const std::vector<argument>& args, int arch) const {
  const std::string key = key_of(args, arch);
  std::lock_guard<std::mutex> g(mutex_);
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  auto c = std::make_shared<compiled>();
  c->fn = passes::run_pipeline(build(args));
  codegen::options o;
  o.arch = arch;
  for (const argument& a : args)
    if (a.k == argument::kind::array) o.arrays.push_back({contiguous(a.arr), aligned(a.arr)});
  c->source = codegen::generate(c->fn, o);
  jit::compile_request r;
  r.source = c->source.source;
  r.name = name_ + ".cu";
  r.arch = arch;
  r.arch_specific = c->source.arch_specific;
  auto done = jit::compile(r);
  c->code = std::make_shared<rt::object_code>(done->result->code, rt::object_code::kind::cubin,
                                              done->result->lowered_names);
  c->k = c->code->get_kernel(c->source.name);
  return *cache_.emplace(key, c).first->second;
}

void kernel::launch(std::vector<std::int64_t> grid, const rt::stream& s, const std::vector<argument>& args) const {
  rt::device& dev = s.dev();
  const compiled& c = specialization(args, dev.arch());
  if (c.source.dynamic_shared_bytes > 48 * 1024)
    c.k->set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, c.source.dynamic_shared_bytes, dev);
  if (grid.empty() || grid.size() > 3) fail(error_kind::invalid_argument, "grid must have 1 to 3 extents");
  std::array<std::int64_t, 3> g{1, 1, 1};
  for (std::size_t i = 0; i < grid.size(); ++i) g[i] = grid[i];

  // Parameters in the ABI order, each checked against the size the compiled image gives.
  const auto& layout = c.k->params();
  rt::param_buffer buf(c.k->params_bytes());
  std::size_t p = 0;
  auto put = [&](const void* bytes, std::size_t n) {
    if (p >= layout.size() || layout[p].size != n)
      fail(error_kind::internal, "kernel '", name_, "': parameter ", p, " is not ", n, " bytes");
    buf.put(layout[p++].offset, bytes, n);
  };
  std::vector<const view*> arrays;
  for (const argument& a : args) {
    if (a.k == argument::kind::array) {
      arrays.push_back(&a.arr);
      std::uint64_t ptr = a.arr.data;
      put(&ptr, 8);
      for (auto e : a.arr.shape) put(&e, 8);
      for (auto e : a.arr.strides) put(&e, 8);
    } else if (a.k == argument::kind::scalar) {
      auto bytes = scalar_bytes(a.scalar_type, a.value);
      put(bytes.data(), bytes.size());
    }
  }
  for (const auto& m : c.source.tensor_maps) {
    const view& v = *arrays.at(std::size_t(m.array));
    if (v.shape.size() != 2) fail(error_kind::invalid_argument, "tensor-core operands must be 2-D arrays");
    if (v.strides[1] != 1 || aligned(v) == false)
      fail(error_kind::invalid_argument, "array ", m.array, " of kernel '", name_, "' needs unit-stride rows aligned "
           "to 16 bytes for the copy engine (the Python launcher repacks such arrays; from C++ pass aligned rows)");
    rt::tensor_map map = rt::encode_tensor_map_2d(tensor_map_type(m.elem), ir::size_bytes(m.elem), v.data, v.shape[0],
                                                  v.shape[1], v.strides[0], m.box_rows, m.box_cols);
    put(map.data(), sizeof map);
  }
  rt::launch_config cfg;
  if (c.source.persistent) {
    for (auto e : g) {
      std::int32_t x = std::int32_t(e);
      put(&x, 4);
    }
    const std::int64_t total = g[0] * g[1] * g[2];
    cfg.grid = {unsigned(std::max<std::int64_t>(1, std::min<std::int64_t>(total, dev.sm_count()))), 1, 1};
  } else {
    cfg.grid = {unsigned(g[0]), unsigned(g[1]), unsigned(g[2])};
  }
  if (p != layout.size()) fail(error_kind::internal, "kernel '", name_, "' has ", layout.size(), " parameters, packed ", p);
  cfg.block = {unsigned(c.source.block_threads), 1, 1};
  cfg.shared_mem = unsigned(c.source.dynamic_shared_bytes);
  rt::launch(s, cfg, *c.k, buf);
}

}  // namespace tegula::tile
