// The Hopper matrix-product kernel (sm_90a) for a loop recognised by matmul_plan.cpp: persistent
// blocks, a producer warpgroup issuing bulk tensor copies (TMA) into a ring of 128-byte swizzled
// shared-memory stages guarded by mbarriers, and one or two consumer warpgroups issuing wgmma on
// them. Everything outside the K loop (the prologue, the accumulator's initial value and the
// user's epilogue: bias, activations, casts, stores) is ordinary emitter output run by the
// consumers, with (BM, BN) tiles held in the wgmma accumulator layout (layout.hpp).
#include <algorithm>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/codegen/matmul_plan.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// PTX helpers: mbarriers, the copy engine, wgmma and shared-memory matrix descriptors.
const char* sm90_text = R"(struct __align__(64) tg_tensor_map { unsigned long long opaque[16]; };
__device__ __forceinline__ unsigned tg_smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void tg_mbar_init(unsigned bar, unsigned count) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory"); }
__device__ __forceinline__ void tg_mbar_expect_tx(unsigned bar, unsigned bytes) { asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory"); }
__device__ __forceinline__ void tg_mbar_arrive(unsigned bar) { asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory"); }
__device__ __forceinline__ void tg_mbar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  } while (!done);
}
__device__ __forceinline__ void tg_tma_load_2d(unsigned dst, const tg_tensor_map* map, unsigned bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst), "l"(map), "r"(bar), "r"(c0), "r"(c1) : "memory");
}
// A shared-memory matrix descriptor with 128-byte swizzling (the start address 16-byte units).
__device__ __forceinline__ unsigned long long tg_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return (unsigned long long)((addr & 0x3FFFFu) >> 4) | ((unsigned long long)(lbo >> 4) << 16) |
         ((unsigned long long)(sbo >> 4) << 32) | (1ull << 62);
}
__device__ __forceinline__ void tg_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void tg_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void tg_wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory"); }
// Clusters of two (matmul_plan::pair): a copy delivered to both blocks' shared memory at the same offset,
// completing on each block's mbarrier at that offset; an arrival on block `rank`'s mbarrier.
__device__ __forceinline__ void tg_tma_load_2d_pair(unsigned dst, const tg_tensor_map* map, unsigned bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"
               :: "r"(dst), "l"(map), "r"(bar), "r"(c0), "r"(c1), "h"((unsigned short)3) : "memory");
}
// (Release at CTA scope, as for a local arrival: a cluster-scope release on every K step halved the speed.)
__device__ __forceinline__ void tg_mbar_arrive_in(unsigned bar, unsigned rank) {
  asm volatile("{ .reg .b32 a; mapa.shared::cluster.u32 a, %0, %1; mbarrier.arrive.shared::cluster.b64 _, [a]; }"
               :: "r"(bar), "r"(rank) : "memory");
}
__device__ __forceinline__ unsigned tg_cluster_rank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ void tg_cluster_sync() { asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory"); }
__device__ __forceinline__ void tg_tma_store_2d(const tg_tensor_map* map, unsigned src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(src), "r"(c0), "r"(c1) : "memory");
}
)";

std::string ptx_type(ir::dtype t) {
  switch (t) {
    case ir::dtype::bf16: return "bf16";
    case ir::dtype::f16: return "f16";
    case ir::dtype::f8e4m3: return "e4m3";
    case ir::dtype::f8e5m2: return "e5m2";
    default: return "tf32";
  }
}

}  // namespace

// One wgmma of an m64 block: accumulator registers acc[off .. off + n/2), descriptors da, db.
std::string emitter::wgmma_asm(const matmul_plan& p, const std::string& acc, int off, const std::string& da,
                               const std::string& db) const {
  const int n = p.bn, regs = n / 2;
  std::string d;
  for (int i = 0; i < regs; ++i) d += str(i ? ", " : "", "%", i);
  // Only 16-bit inputs take the transpose immediates (TF32 and float8 read both operands K-major).
  const bool sixteen = p.in == ir::dtype::bf16 || p.in == ir::dtype::f16;
  std::string tail = sixteen ? str("p, 1, 1, 0, ", p.b.k_major ? 0 : 1) : "p, 1, 1";
  std::string s = str("asm volatile(\"{ .reg .pred p; setp.ne.b32 p, %", regs + 2, ", 0; wgmma.mma_async.sync.aligned.m64n", n,
                      "k", p.kstep, ".f32.", ptx_type(p.in), ".", ptx_type(p.in), " {", d, "}, %", regs, ", %", regs + 1,
                      ", ", tail, "; }\" : ");
  for (int i = 0; i < regs; ++i) s += str(i ? ", " : "", "\"+f\"(", acc, "[", off + i, "])");
  s += str(" : \"l\"(", da, "), \"l\"(", db, "), \"r\"(1) : \"memory\");");
  return s;
}

bool emitter::emit_tma_store(const ir::op& o, const array_info& a, ir::value_id v) {
  const ir::type& t = type_of(v);
  if (!mm_ || a.rank != 2 || !a.spec.last_dim_contiguous || !a.spec.aligned_16) return false;
  if (t.shape != std::vector<std::int64_t>{mm_->bm, mm_->bn}) return false;
  const ir::dtype e = a.elem;
  if (e != ir::dtype::bf16 && e != ir::dtype::f16 && e != ir::dtype::f32) return false;
  const int eb = ir::size_bytes(e), span = 128 / eb;
  if (mm_->bn % span != 0) return false;
  // The tile goes out in boxes of 128-byte columns through two staging buffers (one when a single box
  // makes the tile): a box is written while the one before it is still being read by the copy engine.
  const int boxes = mm_->bn / span, buffers = std::min(boxes, 2);
  const std::int64_t box_bytes = std::int64_t(mm_->bm) * 128, staging = buffers * box_bytes;
  // The staging must leave room for at least two pipeline stages (and a little epilogue memory).
  const int min_stages = opt_.stages > 0 ? opt_.stages : 2;
  if (min_stages * mm_->stage_bytes() + mm_->teams * std::max(cstage_bytes_, staging) > 227 * 1024 - 1024 - 4096) return false;
  // One tensor map per stored array: boxes of BM rows x 128 bytes, 128-byte swizzled.
  const int ai = array_index(a.value);
  std::size_t m = 0;
  while (m < store_maps_.size() && store_maps_[m].array != ai) ++m;
  if (m == store_maps_.size()) store_maps_.push_back({ai, e, span, mm_->bm});
  cstage_bytes_ = std::max(cstage_bytes_, staging);
  const tile_layout l = layout(v);
  line("// the tile goes to shared memory (swizzled, as the copy engine reads it) box by box, each box to global");
  line("// memory asynchronously");
  line(str("const int fr_ = (", tid_, " >> 7) * ", 64 * l.frag_mb, " + ((", tid_, " >> 5) & 3) * 16 + ((", tid_, " & 31) >> 2);"));
  line(str("const int fb_ = (", tid_, " & 3) * ", 2 * eb, ";  // byte of the thread's first column in an 8-column group"));
  const char* word = eb == 4 ? "uint2" : "unsigned";
  const int groups = 128 / (8 * eb);  // 8-column groups per box
  for (int b = 0; b < boxes; ++b) {
    const std::int64_t buf = (b % 2) * box_bytes;
    // The buffer's last store (two boxes ago, or the last tile's) has been read: at a tile's first box
    // every store before it, after that all but the newest.
    line(str("if (", tid_, " == 0) asm volatile(\"cp.async.bulk.wait_group.read ", b == 0 ? 0 : 1, ";\" ::: \"memory\");"));
    barrier();
    for (int mb = 0; mb < l.frag_mb; ++mb)
      for (int h = 0; h < 2; ++h) {
        open("");
        line(str("const int r_ = fr_ + ", mb * 64 + h * 8, ";"));
        for (int n8 = b * groups; n8 < (b + 1) * groups && n8 < l.frag_n / 8; ++n8) {
          const int s0 = mb * (l.frag_n / 2) + n8 * 4 + h * 2;
          const int col_byte = (n8 * 8 * eb) % 128;  // + fb_
          line(str("{ const int b_ = ", col_byte, " + fb_; union { ", word, " u; ", storage_type(e), " e[2]; } w_; w_.e[0] = ",
                   to_storage(e, str(name(v), "[", s0, "]")), "; w_.e[1] = ", to_storage(e, str(name(v), "[", s0 + 1, "]")),
                   "; *reinterpret_cast<", word, "*>(tg_cstage_w + ", buf, " + r_ * 128 + ((((b_ >> 4) ^ (r_ & 7)) << 4) | (b_ & 15))) = w_.u; }"));
        }
        close();
      }
    line("asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");  // visible to the copy engine");
    barrier();
    open(str("if (", tid_, " == 0)"));
    line(str("tg_tma_store_2d(&tg_map_s", m, ", tg_smem_addr(tg_cstage_w + ", buf, "), (int)(b1_ + ", b * span, "), (int)b0_);"));
    line("asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\");");
    close();
  }
  (void)o;
  return true;
}

kernel_source emitter::generate_matmul(const matmul_plan& p) {
  std::vector<std::string> params, prologue;
  signature(params, prologue);
  const int C = p.consumers, W = C * p.teams, T = 128 * (W + 1);  // warpgroups per tile, consumer warpgroups
  const int eb = ir::size_bytes(p.in);
  const std::int64_t stage = p.stage_bytes();
  params.push_back("const __grid_constant__ tg_tensor_map tg_map_a");
  params.push_back("const __grid_constant__ tg_tensor_map tg_map_b");
  for (int d = 0; d < 3; ++d) {
    bid_[d] = str("tg_b", d);
    nblocks_[d] = str("tg_grid", d);
  }
  const ir::region& body = p.loop->regions[0];
  const ir::value_id acc = p.loop->results[0];

  // The user's block indices of virtual block tg_v.
  auto block_ids = [&] {
    line("const int tg_b0 = (int)(tg_v % tg_grid0);");
    line("const int tg_b1 = (int)((tg_v / tg_grid0) % tg_grid1);");
    line("const int tg_b2 = (int)(tg_v / ((long long)tg_grid0 * tg_grid1));");
  };
  // Walks the virtual blocks this persistent block runs (the user's grid, in order). A pair walks
  // blocks 2j and 2j+1 together; with an odd total the second block of the last pair shadows the first
  // (the same loads and products, its epilogue skipped: tg_live). With two teams of consumers, team t
  // takes the block's tiles t, t + 2, ... (the producer fills the ring with every tile in turn).
  auto blocks_loop = [&](bool by_team) {
    if (p.pair) {
      open("for (long long tg_j = blockIdx.x >> 1; 2 * tg_j < tg_total; tg_j += gridDim.x >> 1)");
      line("const bool tg_live = 2 * tg_j + tg_rank < tg_total;");
      line("const long long tg_v = 2 * tg_j + (tg_live ? tg_rank : 0u);");
      line("const long long tg_pv = 2 * tg_j + (2 * tg_j + 1 < tg_total ? 1u - tg_rank : 0u);  // the other block's");
    } else if (by_team) {
      open("for (long long tg_v = blockIdx.x + (long long)gridDim.x * tg_team; tg_v < tg_total; tg_v += 2ll * gridDim.x)");
    } else {
      open("for (long long tg_v = blockIdx.x; tg_v < tg_total; tg_v += gridDim.x)");
    }
    block_ids();
  };
  auto loop_header = [&] {
    const ir::value_id iv = body.args[0];
    std::string it = fresh("it");
    open(for_header(*p.loop, it));
    line(str(reg_type(dtype_of(iv)), " ", name(iv), " = ", it, ";"));
  };

  // ---- producer: one thread walks the same blocks and K steps, filling the ring.
  open("if (tg_wg == 0)");
  if (W == 2) line("asm volatile(\"setmaxnreg.dec.sync.aligned.u32 40;\" ::: \"memory\");");
  open("if (threadIdx.x == 0)");
  line("int tg_stage = 0;");
  line("unsigned tg_phase = 0;");
  // The element coordinates of an operand's tile: row, column.
  auto origin = [&](const mma_operand& m) {
    const ir::type& t = type_of(m.load->results[0]);
    return std::pair{str("(int)(", name(m.load->operands[1]), " * ", t.shape[0], ")"),
                     str("(int)(", name(m.load->operands[2]), " * ", t.shape[1], ")")};
  };
  // A pair shares an operand's tile when the other block's load indices equal this block's. The other
  // block's come from the producer's slice run again for its block (tg_other): once per block when every
  // index is computed outside the K loop or is the loop's variable (equal in both: they run in lockstep),
  // else at every K step.
  const ir::value_id iv = body.args[0];
  std::vector<ir::value_id> indices;  // A's row and column tile indices, then B's
  for (const mma_operand* m : {&p.a, &p.b}) indices.insert(indices.end(), {m->load->operands[1], m->load->operands[2]});
  bool per_block = true;
  for (ir::value_id v : indices)
    for (const ir::op& o : body.ops)
      if (v != iv && std::find(o.results.begin(), o.results.end(), v) != o.results.end()) per_block = false;
  auto sharing = [&] {
    line("int tg_o[4];");
    line(str("tg_other(tg_pv, ", per_block ? "0" : name(iv), ", tg_o);"));
    for (int w = 0; w < 2; ++w) {
      std::string same;
      for (int j = 0; j < 2; ++j)
        if (indices[std::size_t(2 * w + j)] != iv)
          same += str(same.empty() ? "" : " && ", name(indices[std::size_t(2 * w + j)]), " == tg_o[", 2 * w + j, "]");
      line(str("const bool tg_share", w, " = ", same.empty() ? "true" : same, ";"));
    }
  };
  if (p.pair) {
    open("auto tg_other = [&](long long tg_v, long long tg_it, int* tg_o)");
    block_ids();
    for (const ir::op& o : f_.body.ops)
      if (p.producer_ops.count(&o)) emit_op(o);
    if (!per_block) {
      line(str("const ", reg_type(dtype_of(iv)), " ", name(iv), " = (", reg_type(dtype_of(iv)), ")tg_it;"));
      for (const ir::op& o : body.ops)
        if (p.producer_ops.count(&o)) emit_op(o);
    } else {
      line("(void)tg_it;");
    }
    for (std::size_t j = 0; j < 4; ++j)
      if (indices[j] != iv) line(str("tg_o[", j, "] = (int)", name(indices[j]), ";"));
    close(";");
  }
  blocks_loop(false);
  for (const ir::op& o : f_.body.ops)
    if (p.producer_ops.count(&o)) emit_op(o);
  if (p.pair && per_block) sharing();
  loop_header();
  for (const ir::op& o : body.ops)
    if (p.producer_ops.count(&o)) emit_op(o);
  if (p.pair && !per_block) sharing();
  line("tg_mbar_wait(tg_empty + tg_stage * 8, tg_phase ^ 1u);");
  line(str("tg_mbar_expect_tx(tg_full + tg_stage * 8, ", stage, ");"));
  line(str("const unsigned tg_dst = tg_pipe + tg_stage * ", stage, ";"));
  // Copies box by box. A pair copies each box in two halves of rows (the tensor maps' boxes are half
  // height): both halves itself, or, when the other block needs the same tile, its own half to both.
  auto copies = [&](const mma_operand& m, const char* map, std::int64_t base, int which) {
    const auto [row, col] = origin(m);
    auto copy = [&](const char* fn, int b, const std::string& half) {
      const std::string rows = p.pair ? str(" + ", half, " * ", m.box_rows / 2) : "";
      const std::string at = p.pair ? str(" + ", half, " * ", m.box_rows / 2 * 128) : "";
      line(str(fn, "(tg_dst + ", base + std::int64_t(b) * m.box_rows * 128, at, ", &", map, ", tg_full + tg_stage * 8, ",
               col, " + ", b * m.box_cols, ", ", row, rows, ");"));
    };
    if (!p.pair) {
      for (int b = 0; b < m.boxes; ++b) copy("tg_tma_load_2d", b, "");
      return;
    }
    open(str("if (tg_share", which, ")"));
    for (int b = 0; b < m.boxes; ++b) copy("tg_tma_load_2d_pair", b, "(int)tg_rank");
    otherwise();
    for (int b = 0; b < m.boxes; ++b)
      for (const char* half : {"0", "1"}) copy("tg_tma_load_2d", b, half);
    close();
  };
  copies(p.a, "tg_map_a", 0, 0);
  copies(p.b, "tg_map_b", p.a.bytes, 1);
  line(str("if (++tg_stage == ", "TG_STAGES", ") { tg_stage = 0; tg_phase ^= 1u; }"));
  close();  // K loop
  close();  // blocks
  close();  // thread 0
  otherwise();

  // ---- consumers: the user's code around the loop, the loop as wgmma. A stage is released to the
  // producer (to both blocks' producers in a pair: either may copy into it) when read.
  const std::string release = p.pair ? "if (tg_prev >= 0 && (tg_tid & 127) == 0) { tg_mbar_arrive(tg_empty + tg_prev * 8); "
                                       "tg_mbar_arrive_in(tg_empty + tg_prev * 8, tg_rank ^ 1u); }"
                                     : "if (tg_prev >= 0 && (tg_tid & 127) == 0) tg_mbar_arrive(tg_empty + tg_prev * 8);";
  if (W == 2) line("asm volatile(\"setmaxnreg.inc.sync.aligned.u32 232;\" ::: \"memory\");");
  line(str("const int tg_tid = (int)threadIdx.x - 128", p.teams == 2 ? " - 128 * tg_team" : "", ";"));
  tid_ = "tg_tid";
  barrier_ = p.teams == 2 ? std::string("asm volatile(\"bar.sync %0, 128;\" :: \"r\"(1 + tg_team) : \"memory\");")
                          : str("asm volatile(\"bar.sync 1, ", 128 * C, ";\" ::: \"memory\");");
  line("int tg_stage = 0;");
  line("unsigned tg_phase = 0;");
  if (p.teams == 2) line("int tg_turns = 0;  // tiles this team has taken");
  blocks_loop(p.teams == 2);
  std::size_t i = 0;
  for (; &f_.body.ops[i] != p.loop; ++i) emit_op(f_.body.ops[i]);
  if (p.teams == 2) {
    // Skip the other team's tile before this one (each tile takes the same K steps: matmul_plan.cpp).
    open("if (tg_v >= gridDim.x)");
    line("int tg_nk = 0;");
    open(for_header(*p.loop, fresh("it")));
    line("++tg_nk;");
    close();
    line("tg_stage += tg_nk;");
    line("tg_phase ^= (unsigned)(tg_stage / TG_STAGES) & 1u;");
    line("tg_stage %= TG_STAGES;");
    close();
    // The teams' main loops strictly alternate: a team starts when the other has finished the tile before
    // this one (mbarrier tg_turn + 8 * team). Besides keeping the tensor cores to one team at a time, this
    // bounds how far ahead a team waits on the ring: a parity wait tells only a phase from the one before.
    line("if (tg_team == 1 || tg_turns > 0) tg_mbar_wait(tg_turn + tg_team * 8, (unsigned)(tg_turns - 1 + tg_team) & 1u);");
  }
  note_op(*p.loop);
  declare(acc);
  assign(acc, p.loop->operands[3]);
  line("int tg_prev = -1;");
  loop_header();
  line("tg_mbar_wait(tg_full + tg_stage * 8, tg_phase);");
  line(str("const unsigned tg_sa = tg_pipe + tg_stage * ", stage, ";"));
  // Operand fences keep the compiler from moving accumulator accesses into the wgmma pipeline.
  const int acc_regs = p.mb * p.bn / 2;
  line(str("#pragma unroll\n", std::string(std::size_t(indent_) * 2, ' '), "for (int i_ = 0; i_ < ", acc_regs,
           "; ++i_) asm volatile(\"\" : \"+f\"(", name(acc), "[i_]) :: \"memory\");"));
  line("tg_wgmma_fence();");
  const int row0 = 64 * p.mb;  // rows per consumer warpgroup
  for (int kk = 0; kk < p.bk / p.kstep; ++kk) {
    const int kbyte = kk * p.kstep * eb, chunk = kbyte / 128, inner = kbyte % 128;
    std::string db = p.b.k_major ? str("tg_desc(tg_sa + ", p.a.bytes + std::int64_t(chunk) * p.bn * 128 + inner, ", 16, 1024)")
                                 : str("tg_desc(tg_sa + ", p.a.bytes + std::int64_t(kk) * p.kstep * 128, ", ", p.bk * 128, ", 1024)");
    for (int mb = 0; mb < p.mb; ++mb) {
      std::string da = str("tg_desc(tg_sa + ", std::int64_t(chunk) * p.bm * 128 + inner + mb * 64 * 128,
                           " + (tg_tid >> 7) * ", row0 * 128, ", 16, 1024)");
      line(wgmma_asm(p, name(acc), mb * p.bn / 2, da, db));
    }
  }
  line("tg_wgmma_commit();");
  line("tg_wgmma_wait<1>();");
  line(str("#pragma unroll\n", std::string(std::size_t(indent_) * 2, ' '), "for (int i_ = 0; i_ < ", acc_regs,
           "; ++i_) asm volatile(\"\" : \"+f\"(", name(acc), "[i_]) :: \"memory\");"));
  line(release);
  line("tg_prev = tg_stage;");
  line(str("if (++tg_stage == ", "TG_STAGES", ") { tg_stage = 0; tg_phase ^= 1u; }"));
  close();  // K loop
  line("tg_wgmma_wait<0>();");
  line(release);
  if (p.teams == 2) {
    line("if (tg_tid == 0) tg_mbar_arrive(tg_turn + (tg_team ^ 1) * 8);  // the other team's turn");
    line("++tg_turns;");
  }
  if (p.pair) open("if (tg_live)");
  for (++i; i < f_.body.ops.size(); ++i)
    if (f_.body.ops[i].kind != ir::op_kind::yield) emit_op(f_.body.ops[i]);
  if (p.pair) close();
  close();  // blocks
  if (!store_maps_.empty())
    line(str("if (", tid_, " == 0) asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");  // stores done before exit"));
  close();  // consumers
  if (p.pair) line("tg_cluster_sync();  // neither block exits while the other may still copy into it or release its stages");
  for (std::size_t m = 0; m < store_maps_.size(); ++m) params.push_back(str("const __grid_constant__ tg_tensor_map tg_map_s", m));

  for (int d = 0; d < 3; ++d) params.push_back(str("int tg_grid", d));
  // The ring takes what shared memory the epilogue leaves: up to 6 stages, at least 2.
  constexpr std::int64_t max_shared = 227 * 1024;
  const std::int64_t epilogue = (smem_bytes_ + 127) / 128 * 128;
  std::int64_t room = max_shared - 1024 - p.teams * (epilogue + cstage_bytes_) - 128;
  int stages = opt_.stages > 0 ? opt_.stages : int(std::min<std::int64_t>(6, room / stage));
  if (stages < 2 || stages * stage > room)
    fail(error_kind::invalid_argument, to_string(p.mma->loc), p.mma->loc.known() ? ": " : "", "cannot generate CUDA for 'mma' in kernel '",
         f_.name, "': ", stages, " pipeline stages of ", stage, " bytes (", p.bm, "x", p.bk, " and ", p.bk, "x", p.bn,
         " tiles) do not fit in shared memory beside the epilogue's ", epilogue, " bytes; use smaller tiles");
  const std::int64_t pipe = stages * stage;

  kernel_source k;
  k.name = str(f_.name.empty() ? "tegula_kernel" : f_.name);
  for (char& ch : k.name)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')) ch = '_';
  k.block_threads = T;
  k.dynamic_shared_bytes = int(1024 + pipe + p.teams * (cstage_bytes_ + epilogue) + 128);
  k.arch_specific = true;
  k.persistent = true;
  k.stages = stages;
  k.cluster = p.pair ? 2 : 1;
  const int halves = p.pair ? 2 : 1;
  k.tensor_maps = {{array_index(p.a.array), p.in, p.a.box_cols, p.a.box_rows / halves},
                   {array_index(p.b.array), p.in, p.b.box_cols, p.b.box_rows / halves}};
  k.tensor_maps.insert(k.tensor_maps.end(), store_maps_.begin(), store_maps_.end());
  std::string s = preamble(needs_, opt_.arch);
  s += sm90_text;
  s += str("\n// '", f_.name, "': tensor-core matrix product, ", p.bm, "x", p.bn, "x", p.bk, " tiles, ", stages,
           " stages, ", C, " consumer warpgroup(s) per tile", p.teams == 2 ? " in two teams taking turns" : "",
           " + 1 producer; persistent over the grid",
           p.pair ? "; clusters of two blocks sharing equal operand tiles" : "", ".\n");
  s += str("#define TG_STAGES ", stages, "\n");
  s += str("extern \"C\" __global__ void __launch_bounds__(", T, ", 1) ", k.name, "(");
  for (std::size_t j = 0; j < params.size(); ++j) s += (j ? ", " : "") + params[j];
  s += ") {\n";
  s += "  extern __shared__ __align__(1024) unsigned char tg_dyn[];\n";
  s += "  unsigned char* const tg_base = (unsigned char*)(((unsigned long long)tg_dyn + 1023ull) & ~1023ull);\n";
  s += "  const unsigned tg_pipe = tg_smem_addr(tg_base);\n";
  // Layout: the ring (1024-aligned stages), the store staging tile (1024-aligned), the mbarriers,
  // then the epilogue's own shared memory.
  s += str("  unsigned char* const tg_cstage = tg_base + ", pipe, ";\n");
  // A team's store staging and epilogue memory (ping-pong: one each).
  s += p.teams == 2 ? "  const int tg_team = threadIdx.x >= 256 ? 1 : 0;\n" : "  constexpr int tg_team = 0;\n";
  s += str("  unsigned char* const tg_cstage_w = tg_cstage + tg_team * ", cstage_bytes_, ";\n");
  s += str("  const unsigned tg_full = tg_pipe + ", pipe + p.teams * cstage_bytes_, ", tg_empty = tg_full + ", stages * 8,
           ", tg_turn = tg_empty + ", stages * 8, ";\n");
  if (smem_bytes_ > 0)
    s += str("  unsigned char* const tg_smem = tg_base + ", pipe + p.teams * cstage_bytes_ + 128, " + tg_team * ", epilogue, ";\n");
  for (const std::string& l : prologue) s += "  " + l + "\n";
  s += "  const int tg_wg = (int)threadIdx.x >> 7;\n";
  s += "  const long long tg_total = (long long)tg_grid0 * tg_grid1 * tg_grid2;\n";
  if (p.pair) s += "  const unsigned tg_rank = tg_cluster_rank();\n";
  s += "  if (threadIdx.x == 0) {\n";
  s += str("    for (int i = 0; i < ", stages, "; ++i) { tg_mbar_init(tg_full + i * 8, 1); tg_mbar_init(tg_empty + i * 8, ",
           C * halves, "); }\n");
  if (p.teams == 2) s += "    tg_mbar_init(tg_turn, 1); tg_mbar_init(tg_turn + 8, 1);\n";
  s += "    asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n";
  s += "  }\n";
  s += p.pair ? "  tg_cluster_sync();  // both blocks' mbarriers initialised before either copies or arrives\n" : "  __syncthreads();\n";
  s += body_.str();
  s += "}\n";
  k.source = std::move(s);
  return k;
}

}  // namespace tegula::codegen
