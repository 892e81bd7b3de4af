// One-pass scans of engine arrays (scan_arrays.hpp).
#include "tegula/libs/scan_arrays.hpp"

#include "tegula/interp/dtype_traits.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/libs/cub_scan.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

chained_scan_problem scan_settings::default_chained_tile() {
  chained_scan_problem t;
  t.threads = 128, t.items = 64, t.store = 1, t.blocks_per_sm = -2, t.delay = 500, t.lookback_warps = 1;
  t.status_stride = 16;
  return t;
}

namespace {
scan_settings& settings() {
  static scan_settings s;
  return s;
}
// The CPU reference (for tests): a sequential scan in the result dtype (integers wrap as NumPy's).
void host_scan(ir::dtype t, ir::dtype res, bool multiply, const void* in, void* out, std::int64_t n) {
  interp::dispatch_dtype(t, [&](auto tag) {
    using tr = interp::dtype_traits<decltype(tag)::value>;
    const auto* x = static_cast<const typename tr::mem*>(in);
    if (res == ir::dtype::f32 || res == ir::dtype::f64) {
      auto run = [&](auto acc) {
        using A = decltype(acc);
        acc = multiply ? A(1) : A(0);
        for (std::int64_t i = 0; i < n; ++i) {
          acc = multiply ? A(acc * A(tr::read(x[i]))) : A(acc + A(tr::read(x[i])));
          static_cast<A*>(out)[i] = acc;
        }
      };
      if (res == ir::dtype::f32) run(float());
      else run(double());
    } else {  // int64 / uint64: two's complement arithmetic in uint64
      std::uint64_t acc = multiply ? 1 : 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const auto v = static_cast<std::uint64_t>(tr::read(x[i]));
        acc = multiply ? acc * v : acc + v;
        static_cast<std::uint64_t*>(out)[i] = acc;
      }
    }
  });
}

}  // namespace

const scan_settings& current_scan_settings() { return settings(); }
void set_scan_settings(const scan_settings& s) { settings() = s; }

std::string scan_engine_name(scan_engine e) { return e == scan_engine::chained ? "chained" : "cub"; }

scan_engine scan_engine_from_name(const std::string& name) {
  if (name == "chained") return scan_engine::chained;
  if (name == "cub") return scan_engine::cub;
  fail(error_kind::invalid_argument, "the scan engine is 'cub' or 'chained', not '", name, "'");
}

ir::dtype scan_accumulator(ir::dtype t) {
  return ir::is_bool(t) || ir::is_signed_int(t) ? ir::dtype::i64 : ir::is_unsigned_int(t) ? ir::dtype::u64 : t;
}

node_ptr inclusive_scan(const node_ptr& x0, bool multiply) {
  const node& n0 = input(x0);
  const ir::dtype t = n0.t;
  if (!(ir::is_bool(t) || ir::is_signed_int(t) || ir::is_unsigned_int(t) || t == ir::dtype::f32 || t == ir::dtype::f64))
    fail(error_kind::type_error, "the single-pass scan takes bool, integer, float32 or float64 arrays, not ", ir::name(t));
  const ir::dtype res = scan_accumulator(t);
  node_ptr x = contiguous_leaf(x0);
  node_ptr out = empty_like_device(n0, n0.shape, res);
  const std::uintptr_t in = element_address(input(x)), o = element_address(output(out));
  const std::int64_t n = n0.size();
  if (n == 0) return out;
  if (n0.device == array::device_kind::cpu) {
    host_scan(t, res, multiply, reinterpret_cast<const void*>(in), reinterpret_cast<void*>(o), n);
    return out;
  }
  rt::device& dev = *n0.gpu;
  const scan_settings& s = current_scan_settings();
  if (s.engine == scan_engine::chained && res == ir::dtype::f32 && chained_scan_applies(in, o)) {
    chained_scan_problem p = s.tile;
    p.multiply = multiply, p.in = in, p.out = o, p.n = n;
    chained_inclusive_scan(dev, array::array_stream(dev), p);
  } else {
    scan_problem p;
    p.in_type = std::string(ir::name(t)), p.out_type = std::string(ir::name(res));
    p.multiply = multiply, p.in = in, p.out = o, p.n = n;
    inclusive_scan(dev, array::array_stream(dev), p);
  }
  return out;
}

}  // namespace tegula::libs
