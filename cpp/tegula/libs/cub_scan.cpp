// CUB's single-pass scan through NVRTC (see cub_scan.hpp). As CUB's DispatchScan: a tile-status array of
// (tiles + 32) descriptors initialised by one kernel, then one block per tile scanning its items and chaining
// the prefix through the descriptors of the tiles before it (decoupled look-back). The kernels wrap AgentScan
// so the tile state is built on the device from a plain pointer.
#include "tegula/libs/cub_scan.hpp"

#include <map>
#include <memory>
#include <tuple>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::libs {
namespace {

constexpr int init_threads = 128;
constexpr int status_padding = 32;       // CUB's TILE_STATUS_PADDING (a warp)
constexpr std::size_t descriptor_bytes = 16;  // the largest TxnWord (8-byte values)

const char* c_type(const std::string& t) {
  static const std::map<std::string, const char*> m = {
      {"bool", "bool"},           {"int8", "signed char"},         {"int16", "short"},
      {"int32", "int"},           {"int64", "long long"},          {"uint8", "unsigned char"},
      {"uint16", "unsigned short"}, {"uint32", "unsigned int"},    {"uint64", "unsigned long long"},
      {"float32", "float"},       {"float64", "double"}};
  auto it = m.find(t);
  if (it == m.end())
    fail(error_kind::type_error, "the CUB scan takes bool, integer, float32 or float64 arrays, not ", t);
  return it->second;
}

struct scan_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> init, scan;
  int threads = 0, items = 0;
};

const scan_kernels& kernels_for(rt::device& dev, const scan_problem& p, int offset_bytes) {
  const auto key = std::make_tuple(dev.arch(), p.in_type, p.out_type, p.multiply, offset_bytes, p.threads, p.items,
                                   p.load, p.delay);
  return kernels_once<scan_kernels>(key, [&] {
    cub_scan_program prog =
        cub_scan_source(p.in_type, p.out_type, p.multiply, offset_bytes, p.threads, p.items, p.load, p.delay);
    scan_kernels k;
    k.code = compile_cub(prog.source, {}, dev.arch());
    k.init = k.code->get_kernel("tg_scan_init");
    k.scan = k.code->get_kernel("tg_scan");
    k.threads = prog.threads, k.items = prog.items;
    return k;
  });
}

}  // namespace

cub_scan_program cub_scan_source(const std::string& in_type, const std::string& out_type, bool multiply,
                                 int offset_bytes, int threads, int items, int load, int delay) {
  const std::string in = c_type(in_type), out = c_type(out_type);
  if (out_type == "bool" || (out_type.rfind("int", 0) == 0 && out_type != "int64") ||
      (out_type.rfind("uint", 0) == 0 && out_type != "uint64"))
    fail(error_kind::type_error, "the CUB scan accumulates integers in int64 or uint64, not ", out_type);
  if (offset_bytes != 4 && offset_bytes != 8) fail(error_kind::invalid_argument, "offsets are 4 or 8 bytes");
  // CUB's sm_90 tuning (tuning_scan.cuh), scaled for 8-byte accumulators as MemBoundScaling does, except the items below.
  const bool wide = out_type == "float64" || out_type == "int64" || out_type == "uint64";
  const bool is_float = out_type.rfind("float", 0) == 0;
  cub_scan_program p;
  p.threads = threads ? threads : wide ? 224 : 128;
  // 4-byte values: 32 items per thread rather than CUB's 24 (measured on the H200 over 2^28 float32: 3361 against
  // 3115 GB/s; bench/workloads/libs.py sweeps the tiles).
  p.items = items ? items : wide ? 12 : 32;
  if (p.threads % 32 || p.threads < 32 || p.threads > 1024 || p.items < 1 || p.items > 64)
    fail(error_kind::invalid_argument, "scan tile of ", p.threads, " threads x ", p.items,
         " items: threads are a multiple of 32 up to 1024, items 1 to 64");
  if (load < 0 || load > 3) fail(error_kind::invalid_argument, "scan load variant ", load, " is not 0 to 3");
  if (delay < 0 || delay > 3) fail(error_kind::invalid_argument, "scan delay variant ", delay, " is not 0 to 3");
  const std::string fixed = wide ? (is_float ? "576, 1215" : "632, 1290") : (is_float ? "688, 1140" : "648, 1245");
  const std::string delay_type = delay == 1   ? "cub::detail::no_delay_constructor_t<450>"
                                 : delay == 2 ? "cub::detail::fixed_delay_constructor_t<350, 450>"
                                 : delay == 3 ? "cub::detail::exponential_backoff_constructor_t<16, 450>"
                                              : "cub::detail::fixed_delay_constructor_t<" + fixed + ">";
  const std::string t = std::to_string(p.threads), i = std::to_string(p.items);
  p.source = std::string("#include <cub/agent/agent_scan.cuh>\n#include <cuda/std/functional>\n") +
             "using tg_in = " + in + ";\nusing tg_out = " + out + ";\nusing tg_acc = " + out + ";\n" +
             "using tg_off = " + (offset_bytes == 8 ? "long long" : "unsigned int") + ";\n" +
             "using tg_op = ::cuda::std::" + (multiply ? "multiplies" : "plus") + "<>;\n" +
             "struct tg_scaling { static constexpr int BLOCK_THREADS = " + t + "; static constexpr int ITEMS_PER_THREAD = " +
             i + "; };\n" +
             "using tg_policy = cub::AgentScanPolicy<" + t + ", " + i + ", tg_acc, " +
             (load == 1   ? "cub::BLOCK_LOAD_VECTORIZE, cub::LOAD_LDG, "
              : load == 2 ? "cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_LDG, "
              : load == 3 ? "cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_CS, "
                          : "cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT, ") +
             "cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS, tg_scaling, " + delay_type + ">;\n" +
             "using tg_state = cub::ScanTileState<tg_acc>;\n"
             "using tg_agent = cub::detail::scan::AgentScan<tg_policy, const tg_in*, tg_out*, tg_op, cub::NullType, "
             "tg_off, tg_acc, false>;\n"
             "extern \"C\" __global__ void tg_scan_init(void* storage, int num_tiles) {\n"
             "  tg_state s;\n  s.Init(num_tiles, storage, 0);\n  s.InitializeStatus(num_tiles);\n}\n"
             "extern \"C\" __global__ void __launch_bounds__(" + t + ") tg_scan(const tg_in* in, tg_out* out, "
             "void* storage, int num_tiles, tg_off n) {\n"
             "  __shared__ typename tg_agent::TempStorage temp;\n  tg_state s;\n  s.Init(num_tiles, storage, 0);\n"
             "  tg_agent(temp, in, out, tg_op{}, cub::NullType{}).ConsumeRange(n, s, 0);\n}\n";
  return p;
}

void inclusive_scan(rt::device& dev, const rt::stream& s, const scan_problem& p) {
  if (p.n < 0) fail(error_kind::invalid_argument, "negative scan length");
  (void)c_type(p.in_type);
  if (p.n == 0) return;
  dev.make_current();
  const int offset_bytes = p.n < (std::int64_t(1) << 32) ? 4 : 8;
  const scan_kernels& k = kernels_for(dev, p, offset_bytes);
  const std::int64_t tile = std::int64_t(k.threads) * k.items;
  const std::int64_t tiles = (p.n + tile - 1) / tile;
  if (tiles > 0x7fffffff) fail(error_kind::invalid_argument, "scan of ", p.n, " elements: too many tiles");
  auto status = rt::buffer::allocate(std::size_t(tiles + status_padding) * descriptor_bytes, dev.default_stream());
  cub_params a(*k.init);
  a << std::uintptr_t(status->ptr()) << int(tiles);
  rt::launch(s, cub_launch_config(unsigned((tiles + init_threads - 1) / init_threads), init_threads), *k.init,
             a.buffer());
  cub_params b(*k.scan);
  b << p.in << p.out << std::uintptr_t(status->ptr()) << int(tiles);
  if (offset_bytes == 8)
    b << static_cast<long long>(p.n);
  else
    b << static_cast<unsigned>(p.n);
  rt::launch(s, cub_launch_config(unsigned(tiles), unsigned(k.threads)), *k.scan, b.buffer());
}

}  // namespace tegula::libs
