// CUB's onesweep radix sort through NVRTC (see cub_sort.hpp). The host side follows CUB's
// DispatchRadixSort::InvokeOnesweep: zero the counters and the first histogram, one histogram kernel
// over every digit, an exclusive sum per digit position, then per 8-bit digit (and per portion of at
// most 2^28 keys) a zeroed look-back table and one onesweep kernel, ping-ponging between the buffers.
#include "tegula/libs/cub_sort.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

constexpr int radix_bits = 8;
constexpr int radix_digits = 1 << radix_bits;
constexpr int histogram_threads = 128;
constexpr int exclusive_sum_threads = 256;
constexpr int onesweep_threads = 384;

// Items per thread of CUB's sm_90 tuning (OnesweepPolicyKey32 / Key64 in tuning_radix_sort.cuh), for
// unsigned (non-float) keys: the nominal figure for 4-byte items, before CUB scales it to the dominant type.
int nominal_onesweep_items(int key_bytes, int value_bytes, int offset_bytes) {
  const bool offset64 = offset_bytes == 8;
  if (key_bytes == 4) {
    if (value_bytes == 0) return 20 - (offset64 ? 1 : 0);
    return value_bytes < 8 ? (offset64 ? 17 : 23) : (offset64 ? 29 : 30);
  }
  return value_bytes < 8 ? 30 : 24;
}

// What the kernel really runs: CUB's RegBoundScaling (util_arch.cuh) of the nominal figures to the dominant
// (larger of key and value) type. The generated source static_asserts the same numbers, so the host's tile size
// cannot drift from the kernel's.
struct onesweep_shape {
  int threads, items;
};
onesweep_shape onesweep_scaled(int key_bytes, int value_bytes, int offset_bytes) {
  constexpr int max_static_smem = 48 * 1024;
  const int dominant = std::max(4, std::max(key_bytes, value_bytes));
  const int items = std::max(1, nominal_onesweep_items(key_bytes, value_bytes, offset_bytes) * 4 / dominant);
  const int fit = (max_static_smem / (dominant * items) + 31) / 32 * 32;
  return {std::min(onesweep_threads, fit), items};
}

const char* unsigned_type(int bytes) { return bytes == 8 ? "unsigned long long" : "unsigned int"; }

// The C++ key type CUB is instantiated for, by NumPy name.
std::string cub_key_type(const std::string& key_type) {
  if (key_type == "uint32") return "unsigned int";
  if (key_type == "uint64") return "unsigned long long";
  if (key_type == "int32") return "int";
  if (key_type == "int64") return "long long";
  if (key_type == "float32") return "tg_f32";
  if (key_type == "float64") return "tg_f64";
  fail(error_kind::invalid_argument, "CUB sort keys are uint32, uint64, int32, int64, float32 or float64, not ",
       key_type);
}

// CUB traits for NumPy's float order: the usual sign twiddle, after clearing the sign of NaNs so that every NaN
// sorts after +inf (CUB's own float traits put negative NaNs first). The mapping keeps all other bits, so the
// sorted keys come back as they were (-0.0 just before +0.0), except that NaNs come back positive.
std::string float_key_traits(const std::string& name, const std::string& bits, const std::string& high,
                             const std::string& inf) {
  return "struct " + name + " { " + bits + " bits; };\n"
         "CUB_NAMESPACE_BEGIN\n"
         "template <> struct NumericTraits<" + name + "> {\n"
         "  using UnsignedBits = " + bits + ";\n"
         "  static constexpr UnsignedBits HIGH_BIT = " + high + ";\n"
         "  static constexpr UnsignedBits LOWEST_KEY = UnsignedBits(-1);\n"
         "  static constexpr UnsignedBits MAX_KEY = UnsignedBits(-1) ^ HIGH_BIT;\n"
         "  static __host__ __device__ __forceinline__ UnsignedBits TwiddleIn(UnsignedBits key) {\n"
         "    if ((key & ~HIGH_BIT) > " + inf + ") key &= ~HIGH_BIT;\n"
         "    return key ^ ((key & HIGH_BIT) ? UnsignedBits(-1) : HIGH_BIT);\n"
         "  }\n"
         "  static __host__ __device__ __forceinline__ UnsignedBits TwiddleOut(UnsignedBits key) {\n"
         "    return key ^ ((key & HIGH_BIT) ? HIGH_BIT : UnsignedBits(-1));\n"
         "  }\n"
         " private:\n"
         "  friend struct detail::is_primitive_impl;\n"
         "  static constexpr bool is_primitive = false;\n"
         "};\n"
         "CUB_NAMESPACE_END\n";
}

struct sort_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> histogram, exclusive_sum, onesweep;
  onesweep_shape shape{};
};

const sort_kernels& kernels_for(rt::device& dev, const std::string& key_type, int value_bytes, int offset_bytes) {
  return kernels_once<sort_kernels>(std::make_tuple(dev.arch(), key_type, value_bytes, offset_bytes), [&] {
    const int key_bytes = sort_key_bytes(key_type);
    cub_sort_program prog = cub_sort_source(key_type, value_bytes, offset_bytes);
    sort_kernels k;
    k.code = compile_cub(prog.source, {prog.histogram, prog.exclusive_sum, prog.onesweep}, dev.arch());
    k.histogram = k.code->get_kernel(prog.histogram);
    k.exclusive_sum = k.code->get_kernel(prog.exclusive_sum);
    k.onesweep = k.code->get_kernel(prog.onesweep);
    k.shape = onesweep_scaled(key_bytes, value_bytes, offset_bytes);
    return k;
  });
}

template <class Offset>
int sort_with(rt::device& dev, const rt::stream& s, const radix_sort_problem& p, const sort_kernels& k) {
  using portion_offset = int;
  const int tile = k.shape.threads * k.shape.items;
  const std::int64_t portion_size = ((std::int64_t(1) << 28) - 1) / tile * tile;
  const int passes = (p.end_bit + radix_bits - 1) / radix_bits;
  const std::int64_t portions = (p.n + portion_size - 1) / portion_size;
  const std::int64_t max_blocks = (std::min(p.n, portion_size) + tile - 1) / tile;
  auto stream = dev.default_stream();
  auto bins = rt::buffer::allocate(std::size_t(portions * passes * radix_digits) * sizeof(Offset), stream);
  auto lookback = rt::buffer::allocate(std::size_t(max_blocks * radix_digits) * sizeof(portion_offset), stream);
  auto counters = rt::buffer::allocate(std::size_t(portions * passes) * sizeof(portion_offset), stream);
  counters->fill(0, s);
  bins->fill(0, s);

  const int per_sm = std::max(1, k.histogram->max_active_blocks_per_sm(histogram_threads, 0, dev));
  cub_params h(*k.histogram);
  h << std::uintptr_t(bins->ptr()) << (p.input_keys ? p.input_keys : p.keys[0]) << Offset(p.n) << int(0)
    << int(p.end_bit);
  rt::launch(s, cub_launch_config(unsigned(per_sm * dev.sm_count()), histogram_threads), *k.histogram, h.buffer());
  cub_params e(*k.exclusive_sum);
  e << std::uintptr_t(bins->ptr());
  rt::launch(s, cub_launch_config(unsigned(passes), exclusive_sum_threads), *k.exclusive_sum, e.buffer());

  const std::size_t key_size = std::size_t(sort_key_bytes(p.key_type)), value_size = std::size_t(p.value_bytes);
  int current = 0;
  for (int pass = 0, bit = 0; bit < p.end_bit; bit += radix_bits, ++pass) {
    const int bits = std::min(p.end_bit - bit, radix_bits);
    for (std::int64_t portion = 0; portion < portions; ++portion) {
      const std::int64_t items = std::min(p.n - portion * portion_size, portion_size);
      const std::int64_t blocks = (items + tile - 1) / tile;
      lookback->fill(0, s);
      const std::uintptr_t bins_base = bins->ptr();
      const std::uintptr_t bins_out =
          portion < portions - 1 ? bins_base + std::size_t(((portion + 1) * passes + pass) * radix_digits) * sizeof(Offset)
                                 : 0;
      const std::uintptr_t bins_in = bins_base + std::size_t((portion * passes + pass) * radix_digits) * sizeof(Offset);
      const std::size_t first = std::size_t(portion * portion_size);
      const std::uintptr_t keys_in = pass == 0 && p.input_keys ? p.input_keys : p.keys[current];
      const std::uintptr_t values_in = pass == 0 && p.input_values ? p.input_values : p.values[current];
      cub_params o(*k.onesweep);
      o << std::uintptr_t(lookback->ptr())
        << std::uintptr_t(counters->ptr() + std::size_t(portion * passes + pass) * sizeof(portion_offset)) << bins_out
        << bins_in << p.keys[current ^ 1] << std::uintptr_t(keys_in + first * key_size)
        << (value_size ? p.values[current ^ 1] : std::uintptr_t(0))
        << (value_size ? std::uintptr_t(values_in + first * value_size) : std::uintptr_t(0))
        << portion_offset(items) << int(bit) << int(bits);
      rt::launch(s, cub_launch_config(unsigned(blocks), unsigned(k.shape.threads)), *k.onesweep, o.buffer());
    }
    current ^= 1;
  }
  // The temporaries are freed in stream order on the allocation stream, after the kernels above.
  return current;
}

}  // namespace

int sort_key_bytes(const std::string& key_type) {
  const std::string t = cub_key_type(key_type);  // validates
  return key_type.back() == '4' ? 8 : 4;
}

cub_sort_program cub_sort_source(const std::string& key_type, int value_bytes, int offset_bytes) {
  const int key_bytes = sort_key_bytes(key_type);
  if (value_bytes != 0 && value_bytes != 4 && value_bytes != 8)
    fail(error_kind::invalid_argument, "CUB sort values are 0, 4 or 8 bytes, not ", value_bytes);
  if (offset_bytes != 4 && offset_bytes != 8) fail(error_kind::invalid_argument, "offsets are 4 or 8 bytes");
  const std::string key = cub_key_type(key_type);
  const std::string value = value_bytes ? unsigned_type(value_bytes) : "cub::NullType";
  const std::string offset = unsigned_type(offset_bytes);
  const std::string dominant = value_bytes > key_bytes ? value : unsigned_type(key_bytes);
  const onesweep_shape shape = onesweep_scaled(key_bytes, value_bytes, offset_bytes);
  cub_sort_program p;
  p.source = "#include <cub/device/dispatch/kernels/radix_sort.cuh>\n" +
             (key_type == "float32"   ? float_key_traits("tg_f32", "unsigned int", "0x80000000u", "0x7F800000u")
              : key_type == "float64" ? float_key_traits("tg_f64", "unsigned long long", "0x8000000000000000ull",
                                                         "0x7FF0000000000000ull")
                                      : std::string()) +
             "struct tg_sort_policy {\n"
             "  struct ActivePolicy {\n"
             "    using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<" + std::to_string(histogram_threads) +
             ", 16, 1, " + key + ", " + std::to_string(radix_bits) + ">;\n"
             "    using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<" +
             std::to_string(exclusive_sum_threads) + ", " + std::to_string(radix_bits) + ">;\n"
             "    using OnesweepPolicy = cub::AgentRadixSortOnesweepPolicy<" + std::to_string(onesweep_threads) + ", " +
             std::to_string(nominal_onesweep_items(key_bytes, value_bytes, offset_bytes)) + ", " + dominant +
             ", 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY, cub::BLOCK_SCAN_RAKING_MEMOIZE, "
             "cub::RADIX_SORT_STORE_DIRECT, " + std::to_string(radix_bits) + ">;\n"
             "  };\n"
             "};\n"
             "static_assert(tg_sort_policy::ActivePolicy::OnesweepPolicy::ITEMS_PER_THREAD == " +
             std::to_string(shape.items) + " && tg_sort_policy::ActivePolicy::OnesweepPolicy::BLOCK_THREADS == " +
             std::to_string(shape.threads) + ", \"tegula's onesweep tile size differs from CUB's\");\n";
  const std::string ns = "cub::detail::radix_sort::";
  p.histogram = ns + "DeviceRadixSortHistogramKernel<tg_sort_policy, cub::SortOrder::Ascending, " + key + ", " + offset + ">";
  p.exclusive_sum = ns + "DeviceRadixSortExclusiveSumKernel<tg_sort_policy, " + offset + ">";
  p.onesweep = ns + "DeviceRadixSortOnesweepKernel<tg_sort_policy, cub::SortOrder::Ascending, " + key + ", " + value +
               ", " + offset + ", int, int>";
  return p;
}

int radix_sort(rt::device& dev, const rt::stream& s, const radix_sort_problem& p) {
  if (p.n < 0) fail(error_kind::invalid_argument, "negative sort length");
  const int key_bytes = sort_key_bytes(p.key_type);
  if (p.end_bit < 1 || p.end_bit > 8 * key_bytes)
    fail(error_kind::invalid_argument, "end_bit ", p.end_bit, " is outside 1..", 8 * key_bytes);
  if (p.key_type.rfind("uint", 0) != 0 && p.end_bit != 8 * key_bytes)
    fail(error_kind::invalid_argument, "signed and float keys sort on all their bits");
  dev.make_current();
  if (p.n <= 1) {  // sorted already; with a separate input, the result buffer still gets it
    if (p.n == 1 && p.input_keys)
      TEGULA_CHECK(rt::drv().cuMemcpyDtoDAsync(p.keys[0], p.input_keys, std::size_t(key_bytes), s.handle()));
    if (p.n == 1 && p.input_values && p.value_bytes)
      TEGULA_CHECK(rt::drv().cuMemcpyDtoDAsync(p.values[0], p.input_values, std::size_t(p.value_bytes), s.handle()));
    return 0;
  }
  const int offset_bytes = p.n < (std::int64_t(1) << 32) ? 4 : 8;
  const sort_kernels& k = kernels_for(dev, p.key_type, p.value_bytes, offset_bytes);
  return offset_bytes == 4 ? sort_with<std::uint32_t>(dev, s, p, k) : sort_with<std::uint64_t>(dev, s, p, k);
}

}  // namespace tegula::libs
