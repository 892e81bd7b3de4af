// GPU codegen tests' helper: runs a generated kernel on the device and the same IR in the
// interpreter on copies of the same arrays, then compares every array (skips without a GPU).
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "codegen_test_util.hpp"
#include "tegula/codegen/c_types.hpp"
#include "tegula/interp/interpreter.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::codegen::test {

#define TEGULA_REQUIRE_GPU()                                   \
  do {                                                         \
    TEGULA_REQUIRE_NVRTC();                                    \
    try {                                                      \
      if (::tegula::rt::device::count() == 0) GTEST_SKIP();    \
    } catch (const ::tegula::error& e) {                       \
      GTEST_SKIP() << e.what();                                \
    }                                                          \
  } while (0)

// Host encodings of the narrow float types (values already rounded with round_to_float16/bfloat16).
inline std::uint16_t f16_bits(double v) {
  v = round_to_float16(v);
  std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return 0x7e00;
  v = std::fabs(v);
  if (std::isinf(v)) return sign | 0x7c00;
  if (v == 0) return sign;
  int e = 0;
  std::frexp(v, &e);
  int exp = e - 1;
  if (exp < -14) return sign | std::uint16_t(std::ldexp(v, 24));
  return sign | std::uint16_t((exp + 15) << 10) | std::uint16_t(std::ldexp(v, -exp) * 1024 - 1024);
}
inline double f16_value(std::uint16_t b) {
  int exp = (b >> 10) & 31, mant = b & 1023;
  double s = (b & 0x8000) ? -1 : 1;
  if (exp == 31) return mant ? NAN : s * INFINITY;
  if (exp == 0) return s * std::ldexp(mant, -24);
  return s * std::ldexp(1024 + mant, exp - 25);
}
inline std::uint16_t bf16_bits(double v) {
  float f = float(round_to_bfloat16(v));
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return 0x7fc0;
  return std::uint16_t(u >> 16);
}
inline double bf16_value(std::uint16_t b) {
  std::uint32_t u = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// An array in host memory: an allocation of `alloc` elements; element (i, j, ...) sits at
// offset + sum(index * stride). Elements outside the view are compared too (must stay untouched).
struct host_array {
  dtype elem = dtype::f32;
  shape dims, strides;
  std::int64_t offset = 0, alloc = 0;
  std::vector<unsigned char> bytes;

  int esize() const { return ir::size_bytes(elem); }
  double get(std::int64_t i) const {
    const unsigned char* p = bytes.data() + i * esize();
    switch (elem) {
      case dtype::b1: return *p != 0;
      case dtype::i8: return double(*reinterpret_cast<const std::int8_t*>(p));
      case dtype::i16: return double(*reinterpret_cast<const std::int16_t*>(p));
      case dtype::i32: return double(*reinterpret_cast<const std::int32_t*>(p));
      case dtype::i64: return double(*reinterpret_cast<const std::int64_t*>(p));
      case dtype::u8: return double(*p);
      case dtype::u16: return double(*reinterpret_cast<const std::uint16_t*>(p));
      case dtype::u32: return double(*reinterpret_cast<const std::uint32_t*>(p));
      case dtype::u64: return double(*reinterpret_cast<const std::uint64_t*>(p));
      case dtype::f16: return f16_value(*reinterpret_cast<const std::uint16_t*>(p));
      case dtype::bf16: return bf16_value(*reinterpret_cast<const std::uint16_t*>(p));
      case dtype::f32: return double(*reinterpret_cast<const float*>(p));
      case dtype::f64: return *reinterpret_cast<const double*>(p);
    }
    return 0;
  }
  void set(std::int64_t i, double v) {
    unsigned char* p = bytes.data() + i * esize();
    switch (elem) {
      case dtype::b1: *p = v != 0; break;
      case dtype::i8: *reinterpret_cast<std::int8_t*>(p) = std::int8_t(v); break;
      case dtype::i16: *reinterpret_cast<std::int16_t*>(p) = std::int16_t(v); break;
      case dtype::i32: *reinterpret_cast<std::int32_t*>(p) = std::int32_t(v); break;
      case dtype::i64: *reinterpret_cast<std::int64_t*>(p) = std::int64_t(v); break;
      case dtype::u8: *p = std::uint8_t(v); break;
      case dtype::u16: *reinterpret_cast<std::uint16_t*>(p) = std::uint16_t(v); break;
      case dtype::u32: *reinterpret_cast<std::uint32_t*>(p) = std::uint32_t(v); break;
      case dtype::u64: *reinterpret_cast<std::uint64_t*>(p) = std::uint64_t(v); break;
      case dtype::f16: *reinterpret_cast<std::uint16_t*>(p) = f16_bits(v); break;
      case dtype::bf16: *reinterpret_cast<std::uint16_t*>(p) = bf16_bits(v); break;
      case dtype::f32: *reinterpret_cast<float*>(p) = float(v); break;
      case dtype::f64: *reinterpret_cast<double*>(p) = v; break;
    }
  }
  interp::array_arg view() {
    return {bytes.data() + offset * esize(), elem, dims, strides};
  }
};

// A random array; strides default to row-major (times `pad` on the rows, to leave gaps), values
// uniform in [lo, hi] (integers for integer dtypes; exact in every narrow float type).
inline host_array random_array(dtype d, shape dims, std::mt19937& rng, double lo, double hi, shape strides = {},
                               std::int64_t offset = 0) {
  host_array a;
  a.elem = d;
  a.dims = dims;
  if (strides.empty()) {
    strides.assign(dims.size(), 1);
    for (int i = int(dims.size()) - 2; i >= 0; --i) strides[std::size_t(i)] = strides[std::size_t(i + 1)] * dims[std::size_t(i + 1)];
  }
  a.strides = strides;
  a.offset = offset;
  std::int64_t span = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) span += (dims[i] - 1) * strides[i];
  a.alloc = offset + span + 3;
  a.bytes.assign(std::size_t(a.alloc * a.esize()), 0);
  std::uniform_real_distribution<double> u(lo, hi);
  for (std::int64_t i = 0; i < a.alloc; ++i) {
    double v = u(rng);
    if (!ir::is_float(d)) v = std::floor(v);
    else v = std::ldexp(std::round(std::ldexp(v, 6)), -6);  // 6 fraction bits
    a.set(i, d == dtype::b1 ? double(v > (lo + hi) / 2) : v);
  }
  return a;
}

using gpu_arg = std::variant<host_array*, interp::scalar_arg>;

struct tolerance {
  double rtol = -1, atol = -1;  // < 0: by dtype
};

inline void default_tolerance(dtype d, double& rtol, double& atol) {
  switch (d) {
    case dtype::f16: rtol = 2e-3; atol = 1e-3; break;
    case dtype::bf16: rtol = 1.6e-2; atol = 1e-2; break;
    case dtype::f32: rtol = 2e-5; atol = 1e-6; break;
    case dtype::f64: rtol = 1e-12; atol = 1e-14; break;
    default: rtol = 0; atol = 0;
  }
}

// Generates f's CUDA, runs it on device 0 over `grid`, runs the interpreter on copies, compares.
inline void expect_gpu_matches_interpreter(const ir::function& f, std::vector<gpu_arg> args,
                                           std::array<std::int64_t, 3> grid, const options& o, tolerance tol = {}) {
  rt::device& dev = rt::device::get(0);
  dev.make_current();
  options opt = o;
  opt.arch = dev.arch();
  kernel_source ks = generate(f, opt);
  jit::compile_request req;
  req.source = ks.source;
  req.name = ks.name + ".cu";
  req.arch = opt.arch;
  jit::compile_result cubin;
  try {
    cubin = jit::nvrtc_compile(req);
  } catch (const tegula::error& e) {
    ADD_FAILURE() << e.what() << "\n" << ks.source;
    return;
  }
  auto lib = rt::library::load(cubin.code);
  auto kern = lib->get_kernel(ks.name, ks.name);
  std::shared_ptr<rt::stream> s = rt::stream::create(dev);

  // Device copies and the kernel's parameters, in the ABI order of cuda.hpp.
  std::vector<std::shared_ptr<rt::buffer>> buffers(args.size());
  std::vector<std::vector<unsigned char>> packed;
  auto push = [&](const void* p, std::size_t n) {
    packed.emplace_back(static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    dtype d = f.type_of(f.params[i].value).elem;
    if (auto* h = std::get_if<host_array*>(&args[i])) {
      host_array& x = **h;
      buffers[i] = rt::buffer::allocate(x.bytes.size(), s);
      buffers[i]->copy_from_host(x.bytes.data(), x.bytes.size(), 0, *s);
      CUdeviceptr ptr = buffers[i]->ptr() + CUdeviceptr(x.offset * x.esize());
      push(&ptr, sizeof ptr);
      for (auto dd : x.dims) push(&dd, 8);
      for (auto st : x.strides) push(&st, 8);
      continue;
    }
    const interp::scalar_arg& v = std::get<interp::scalar_arg>(args[i]);
    host_array tmp;
    tmp.elem = d;
    tmp.bytes.assign(8, 0);
    if (auto* ip = std::get_if<std::int64_t>(&v); ip && ir::size_bytes(d) == 8) std::memcpy(tmp.bytes.data(), ip, 8);
    else tmp.set(0, std::visit([](auto x) { return double(x); }, v));
    push(tmp.bytes.data(), std::size_t(ir::size_bytes(d)));
  }
  const auto& info = kern->params();
  ASSERT_EQ(info.size(), packed.size()) << "kernel ABI parameter count";
  rt::param_buffer pb(kern->params_bytes());
  for (std::size_t i = 0; i < packed.size(); ++i) {
    ASSERT_EQ(info[i].size, packed[i].size()) << "parameter " << i;
    pb.put(info[i].offset, packed[i].data(), packed[i].size());
  }
  rt::launch_config c;
  c.grid = {unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2])};
  c.block = {unsigned(ks.block_threads), 1, 1};
  c.shared_mem = unsigned(ks.dynamic_shared_bytes);
  if (ks.dynamic_shared_bytes > 48 * 1024)
    kern->set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, ks.dynamic_shared_bytes, dev);
  rt::launch(*s, c, *kern, pb);
  s->synchronize();

  // The reference: the interpreter on the same initial arrays.
  std::vector<host_array> ref;
  ref.reserve(args.size());
  std::vector<interp::argument> iargs;
  for (gpu_arg& a : args) {
    if (auto* h = std::get_if<host_array*>(&a)) {
      ref.push_back(**h);
      iargs.push_back(ref.back().view());
    } else {
      ref.emplace_back();
      iargs.push_back(std::get<interp::scalar_arg>(a));
    }
  }
  interp::run(f, iargs, grid);

  for (std::size_t i = 0; i < args.size(); ++i) {
    auto* h = std::get_if<host_array*>(&args[i]);
    if (!h) continue;
    host_array& gpu = **h;
    buffers[i]->copy_to_host(gpu.bytes.data(), gpu.bytes.size(), 0, *s);
    double rtol = tol.rtol, atol = tol.atol;
    if (rtol < 0) default_tolerance(gpu.elem, rtol, atol);
    int bad = 0;
    for (std::int64_t e = 0; e < gpu.alloc && bad < 10; ++e) {
      double g = gpu.get(e), r = ref[i].get(e);
      bool same = (std::isnan(g) && std::isnan(r)) || g == r ||
                  (ir::is_float(gpu.elem) && std::fabs(g - r) <= atol + rtol * std::fabs(r));
      if (!ir::is_float(gpu.elem) && ir::size_bytes(gpu.elem) == 8)
        same = std::memcmp(gpu.bytes.data() + e * 8, ref[i].bytes.data() + e * 8, 8) == 0;
      if (!same) {
        ++bad;
        ADD_FAILURE() << ks.name << ": parameter '" << f.params[i].name << "' element " << e << " (allocation order): gpu "
                      << g << ", interpreter " << r;
      }
    }
  }
}

}  // namespace tegula::codegen::test
