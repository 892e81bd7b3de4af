// Running planned array kernels on the array VM (see vm.hpp).
#include "tegula/array/vm.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <variant>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "tegula/array/emit.hpp"
#include "tegula/array/storage.hpp"
#include "tegula/codegen/vm_images.hpp"
#include "tegula/codegen/vm_opcodes.hpp"
#include "tegula/codegen/vm_source.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"
#include "tegula/support/package_dir.hpp"

namespace tegula::array::vm {
namespace {

namespace cv = codegen::vm;
using ir::op_kind;

std::atomic<int>& mode_state() {
  static std::atomic<int> m{[] {
    const config& c = get_config();
    if (c.array_vm == "always") return int(mode::always);
    if (c.array_vm == "never" || !c.background_compile) return int(mode::never);
    return int(mode::first);
  }()};
  return m;
}

// Programs by kernel key (a key names one plan structure: the same program serves every launch of it).
struct program_entry {
  std::optional<cv::program> prog;
  std::string why;
};
std::mutex& programs_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<std::string, std::shared_ptr<const program_entry>>& programs() {
  static auto* p = new std::unordered_map<std::string, std::shared_ptr<const program_entry>>();  // leaked at exit
  return *p;
}


// One device's VM image: loaded from the package, or compiled from source on a background thread.
struct image_state {
  std::mutex m;
  bool started = false;
  std::atomic<bool> ready{false};
  std::string why = "the VM image is loading";
  std::shared_ptr<rt::library> lib;
  std::shared_ptr<rt::kernel> map, reduce;
};
image_state& image_of(int ordinal) {
  static auto* states = new std::unordered_map<int, std::unique_ptr<image_state>>();  // leaked at exit
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  auto& s = (*states)[ordinal];
  if (!s) s = std::make_unique<image_state>();
  return *s;
}

void install(image_state& s, const std::string& image) {
  auto lib = rt::library::load(image);
  auto map = lib->get_kernel("tg_vm_map", "tegula_vm_map");
  auto reduce = lib->get_kernel("tg_vm_reduce", "tegula_vm_reduce");
  std::lock_guard<std::mutex> lock(s.m);
  s.lib = lib, s.map = map, s.reduce = reduce;
  s.ready = true;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  std::ostringstream o;
  o << f.rdbuf();
  return o.str();
}

cv::view view_of(const view2d& w) {
  cv::view v;
  v.addr = w.address;
  v.rs = w.row_stride, v.cs = w.col_stride, v.bs = w.batch_stride;
  v.dtype = static_cast<std::int32_t>(w.t);
  return v;
}

// The register bits of a reduction's start value in dtype t.
std::uint64_t identity_bits(op_kind op, dtype t) {
  return std::visit([&](auto v) { return cv::register_bits(t, v); }, reduction_identity(op, t));
}

// The map kernel's grid over `total` elements: a grid-stride walk of at most 16 blocks per SM.
rt::launch_config map_config(std::int64_t total, rt::device& gpu) {
  rt::launch_config cfg;
  cfg.block = {unsigned(cv::block_threads), 1, 1};
  const std::int64_t blocks = std::min<std::int64_t>((total + cv::block_threads - 1) / cv::block_threads,
                                                     std::int64_t(gpu.sm_count()) * 16);
  cfg.grid = {unsigned(std::max<std::int64_t>(blocks, 1)), 1, 1};
  return cfg;
}

void launch(const cv::params& P, const rt::launch_config& cfg, rt::kernel& kern, rt::device& gpu) {
  rt::param_buffer buf(sizeof(cv::params));
  buf.put(0, &P, sizeof(cv::params));
  rt::launch(array_stream(gpu), cfg, kern, buf);
}

}  // namespace

std::optional<cv::program> build_program(const plan& p, std::string* why) {
  std::string reason;
  std::optional<cv::program> prog;
  if (auto body = emit_body(p, &reason)) {
    try {
      auto post = kernel::compile(*body, kernel::target{});  // the CPU target: the pass pipeline only
      prog = cv::compile_program(post->fn, p.order.back()->kind == node_kind::reduce, &reason);
    } catch (const error& err) {
      reason = std::string("its body did not compile: ") + err.what();
    }
  }
  if (!prog && why) *why = reason;
  return prog;
}

mode current_mode() { return static_cast<mode>(mode_state().load(std::memory_order_relaxed)); }
void set_mode(mode m) { mode_state().store(int(m), std::memory_order_relaxed); }
const char* mode_name(mode m) { return m == mode::first ? "first" : m == mode::never ? "never" : "always"; }

const cv::program* program_for(const std::string& key, const plan& p, std::string* why) {
  std::shared_ptr<const program_entry> e;
  {
    std::lock_guard<std::mutex> lock(programs_mutex());
    auto it = programs().find(key);
    if (it != programs().end()) e = it->second;
  }
  if (!e) {
    auto made = std::make_shared<program_entry>();
    made->prog = build_program(p, &made->why);
    std::shared_ptr<const program_entry> built = std::move(made);
    std::lock_guard<std::mutex> lock(programs_mutex());
    e = programs().emplace(key, std::move(built)).first->second;
  }
  if (!e->prog && why) *why = e->why;
  return e->prog ? &*e->prog : nullptr;
}

std::string image_dir() { return package_dir(); }

std::string image_name(int arch) {
  auto spec = cv::image_for(arch);
  return spec ? spec->file : std::string();
}

bool available(rt::device& gpu, std::string* why) {
  image_state& s = image_of(gpu.ordinal());
  if (s.ready.load(std::memory_order_acquire)) return true;
  std::unique_lock<std::mutex> lock(s.m);
  if (!s.started) {
    s.started = true;
    auto spec = cv::image_for(gpu.arch());
    if (!spec) {
      s.why = "the array VM needs compute capability 8.0 or newer";
    } else {
      std::string image = read_file(image_dir() + "/" + spec->file);
      if (!image.empty()) {
        lock.unlock();
        try {
          if (spec->ptx) image.push_back('\0');
          install(s, image);
          return true;
        } catch (const error& e) {
          lock.lock();
          s.why = std::string("the packaged VM image did not load: ") + e.what();
        }
      } else {
        // No packaged image (a build without NVRTC, or a tree built before the VM): compile it from source once,
        // through the disk cache, off this thread.
        s.why = "the array VM is compiling (no packaged image " + spec->file + " in " + image_dir() + ")";
        const int arch = gpu.arch();
        image_state* state = &s;
        std::thread([state, arch] {
          try {
            jit::compile_request r;
            r.source = cv::source(arch);
            r.name = "tegula_vm.cu";
            r.arch = arch;
            r.made_by = jit::component::array;
            r.kernel_name = "tegula_vm";
            auto done = jit::compile(r);
            install(*state, done->result->code);
          } catch (const std::exception& e) {
            std::lock_guard<std::mutex> l(state->m);
            state->why = std::string("the array VM did not compile: ") + e.what();
          }
        }).detach();
      }
    }
  }
  if (s.ready.load(std::memory_order_acquire)) return true;
  if (why) *why = s.why;
  return false;
}

void run(const plan& p, const cv::program& prog, rt::device& gpu) {
  image_state& s = image_of(gpu.ordinal());
  if (!s.ready.load(std::memory_order_acquire)) fail(error_kind::internal, "the array VM ran before its image loaded");
  auto P = std::make_unique<cv::params>();
  P->B = p.B, P->R = p.R, P->C = p.C;
  P->n_code = static_cast<std::int32_t>(prog.code.size());
  if (p.leaves.size() > std::size_t(cv::max_leaves) || prog.code.size() > std::size_t(cv::max_code))
    fail(error_kind::internal, "an array VM program past the VM's limits");
  for (std::size_t i = 0; i < p.leaves.size(); ++i) P->leaves[i] = view_of(p.leaves[i]);
  int nout = 0;
  auto add_out = [&](const view2d& w) {
    if (nout >= cv::max_outs) fail(error_kind::internal, "an array VM program with too many outputs");
    if (ir::is_complex(w.t)) {
      auto [re, im] = complex_parts(w);
      P->outs[nout++] = view_of(re);
      if (nout >= cv::max_outs) fail(error_kind::internal, "an array VM program with too many outputs");
      P->outs[nout++] = view_of(im);
    } else {
      P->outs[nout++] = view_of(w);
    }
  };
  view2d out = p.out;
  out.t = p.out_t;
  add_out(out);
  for (const auto& w : p.sibling_out) add_out(w);
  if (p.scalars.size() != std::size_t(prog.n_scalars) ||
      p.scalars.size() + prog.constants.size() > std::size_t(cv::max_pool))
    fail(error_kind::internal, "an array VM program whose scalars differ from its plan's");
  for (std::size_t i = 0; i < p.scalars.size(); ++i) {
    const kernel::scalar_arg a = scalar_parameter(p, i);
    P->pool[i] = ir::is_float(a.t) ? cv::register_bits(a.t, a.f) : cv::register_bits(a.t, a.i);
  }
  for (std::size_t i = 0; i < prog.constants.size(); ++i) P->pool[p.scalars.size() + i] = prog.constants[i];
  for (std::size_t i = 0; i < prog.code.size(); ++i) P->code[i] = prog.code[i];

  rt::launch_config cfg;
  cfg.block = {unsigned(cv::block_threads), 1, 1};
  rt::kernel* kern = nullptr;
  const node& root = *p.order.back();
  if (root.kind == node_kind::reduce) {
    const dtype acc = prog.yield_t == dtype::f16 || prog.yield_t == dtype::bf16 ? dtype::f32 : prog.yield_t;
    P->combine = cv::combine_code_of(root.op, acc);
    P->identity = identity_bits(root.op, acc);
    P->store_code = acc == p.out_t ? -1 : cv::opcode_of(op_kind::astype, &acc, 1, p.out_t);
    if (P->combine < 0 || (acc != p.out_t && P->store_code < 0))
      fail(error_kind::internal, "the array VM cannot reduce '", ir::info(root.op).text, "' in ", ir::name(acc));
    P->parts = static_cast<std::int32_t>(stores_partials(p) ? p.parts : 1);
    P->chunk = (p.C + P->parts - 1) / P->parts;
    const std::int64_t blocks = p.B * p.R * P->parts;
    if (blocks > 2147483647) fail(error_kind::invalid_argument, "array too large for one kernel launch (", blocks, " blocks)");
    cfg.grid = {unsigned(std::max<std::int64_t>(blocks, 1)), 1, 1};
    kern = s.reduce.get();
  } else {
    cfg = map_config(p.B * p.R * p.C, gpu);
    kern = s.map.get();
  }
  launch(*P, cfg, *kern, gpu);
}

std::vector<node_ptr> inner_reductions(const plan& p) {
  std::vector<node_ptr> inner;
  if (p.shape == kernel_shape::scan_loop) return inner;
  for (const auto& n : p.order)
    if (n->kind == node_kind::reduce && n != p.order.back()) inner.push_back(n);
  return inner;
}

node_ptr part_to_cut(const plan& p) {
  // The graph's node count below each of the root's pending inputs (shared nodes counted once per input).
  auto graph_size = [](const node_ptr& top) {
    std::vector<const node*> stack{top.get()};
    std::unordered_set<const node*> seen{top.get()};
    while (!stack.empty()) {
      const node* n = stack.back();
      stack.pop_back();
      for (const auto& in : n->inputs)
        if (in->pending() && seen.insert(in.get()).second) stack.push_back(in.get());
    }
    return seen.size();
  };
  node_ptr best;
  std::size_t best_size = 0;
  for (const auto& in : p.order.back()->inputs) {
    if (!in->pending()) continue;
    const std::size_t size = graph_size(in);
    if (size > best_size) best = in, best_size = size;
  }
  return best;
}

std::int64_t copy_launches(const copy_job& job) {
  const std::size_t nd = job.shape.size();
  if (job.src_strides.size() != nd || job.dst_strides.size() != nd) return 0;
  const auto& regs = cv::register_dtypes();
  for (ir::dtype t : {job.src_t, job.dst_t})
    if (std::find(regs.begin(), regs.end(), t) == regs.end()) return 0;
  if (job.src_t != job.dst_t && cv::opcode_of(op_kind::astype, &job.src_t, 1, job.dst_t) < 0) return 0;
  std::int64_t launches = 1;
  for (std::size_t i = 0; i + 3 < nd; ++i) launches *= job.shape[i];
  return launches > max_copy_launches ? 0 : launches;
}

bool run_copy(const copy_job& job, rt::device& gpu) {
  const std::int64_t launches = copy_launches(job);
  if (launches == 0) return false;
  const std::size_t nd = job.shape.size();
  cv::instr code[3] = {};
  int n_code = 1;
  code[0].k = std::uint8_t(cv::kind::load);  // r0 = the source element
  std::uint8_t value = 0;
  if (job.src_t != job.dst_t) {
    const int opcode = cv::opcode_of(op_kind::astype, &job.src_t, 1, job.dst_t);
    cv::instr& cast = code[n_code++];  // r1 = r0 as dst_t
    cast.k = std::uint8_t(cv::kind::op), cast.code = std::uint16_t(opcode), cast.dst = 1, cast.a = 0;
    value = 1;
  }
  cv::instr& store = code[n_code++];  // the destination element = the value
  store.k = std::uint8_t(cv::kind::store), store.a = 0, store.b = value;
  image_state& s = image_of(gpu.ordinal());
  if (!s.ready.load(std::memory_order_acquire)) fail(error_kind::internal, "the array VM ran before its image loaded");
  auto P = std::make_unique<cv::params>();
  // The space (B, R, C): the copy's last three axes, padded in front with ones.
  const std::size_t lead = nd > 3 ? nd - 3 : 0;
  std::int64_t ext[3] = {1, 1, 1}, ss[3] = {0, 0, 0}, ds[3] = {0, 0, 0};
  for (std::size_t i = lead; i < nd; ++i) {
    const std::size_t k = 3 - (nd - lead) + (i - lead);
    ext[k] = job.shape[i], ss[k] = job.src_strides[i], ds[k] = job.dst_strides[i];
  }
  P->B = ext[0], P->R = ext[1], P->C = ext[2];
  P->leaves[0].bs = ss[0], P->leaves[0].rs = ss[1], P->leaves[0].cs = ss[2];
  P->leaves[0].dtype = static_cast<std::int32_t>(job.src_t);
  P->outs[0].bs = ds[0], P->outs[0].rs = ds[1], P->outs[0].cs = ds[2];
  P->outs[0].dtype = static_cast<std::int32_t>(job.dst_t);
  P->n_code = n_code;
  for (int i = 0; i < n_code; ++i) P->code[i] = code[i];
  const rt::launch_config cfg = map_config(ext[0] * ext[1] * ext[2], gpu);
  const std::int64_t src_item = ir::size_bytes(job.src_t), dst_item = ir::size_bytes(job.dst_t);
  for (std::int64_t l = 0; l < launches; ++l) {
    std::int64_t rest = l, src_off = 0, dst_off = 0;  // the leading axes' index of launch l, as element offsets
    for (std::size_t i = lead; i-- > 0;) {
      const std::int64_t idx = rest % job.shape[i];
      rest /= job.shape[i];
      src_off += idx * job.src_strides[i], dst_off += idx * job.dst_strides[i];
    }
    P->leaves[0].addr = job.src + static_cast<std::uintptr_t>(src_off * src_item);
    P->outs[0].addr = job.dst + static_cast<std::uintptr_t>(dst_off * dst_item);
    launch(*P, cfg, *s.map, gpu);  // the parameters travel by value: P may change for the next launch
  }
  return true;
}

last_run& last() {
  thread_local last_run l;
  return l;
}

}  // namespace tegula::array::vm
