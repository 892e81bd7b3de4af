// tegula's single-pass chained scan (see chained_scan.hpp).
#include "tegula/libs/chained_scan.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::libs {
namespace {

constexpr std::size_t ticket_bytes = 128;  // the ticket counter, alone in its cache line, before the tile status
constexpr std::uint32_t max_epoch = (1u << 30) - 1;  // epochs fill the status words' top 30 bits
constexpr std::int64_t delay_min_tiles = 500;        // smaller grids look back without the delay

// The scan scratch of a device's default stream (the array engine's): the ticket counter and status words, how many
// words it has room for, the last call's epoch and the tickets taken so far. Calls on one stream run in order, so each
// finds the words of the one before. (Another stream may be destroyed and its handle reused by a new one whose work
// overlaps the old one's, so calls on other streams take fresh scratch.)
struct stream_scratch {
  std::shared_ptr<rt::buffer> buffer;
  std::int64_t words = 0;
  std::uint32_t epoch = 0;
  std::uint64_t tickets = 0;
};

std::mutex& scratch_lock() {
  static std::mutex m;
  return m;
}

stream_scratch& default_stream_scratch(rt::device& dev) {
  static auto* all = new std::map<int, stream_scratch>();  // leaked: buffers outlive exit
  return (*all)[dev.ordinal()];
}

// The kernel, after #defines of TG_THREADS, TG_ITEMS, TG_MUL, TG_LOAD, TG_STORE, TG_DELAY, TG_LB_WARPS, TG_GRID,
// TG_STRIDE (status words apart: 1, or 4 / 16 to spread the polls over more L2 sectors / lines) and
// TG_MIN_BLOCKS (blocks per SM the registers must allow, 0: the compiler's choice).
// Tile t covers elements [t TILE, (t + 1) TILE). Warp w of the block owns the segment of SEG = 32 ITEMS elements
// from w SEG, read as ITEMS / 4 stripes of 128: lane l holds stripe k's elements k 128 + 4 l .. + 3.
// status[t] is a 64-bit word: the call's epoch in bits 34-63, a flag in bits 32-33, the float's bits in the low 32.
// Tile t publishes its own total (flag 1) and then its inclusive prefix (flag 2); a word of another epoch (an earlier
// call's, or the zeros of new memory) reads as flag 0, not yet published. So the status words need no clearing
// between calls on one stream, and the ticket counter none either: each call subtracts the tickets taken before it.
const char* kernel_body = R"(
#define TG_WARPS (TG_THREADS / 32)
#define TG_VECS (TG_ITEMS / 4)
#define TG_SEG (32 * TG_ITEMS)
#define TG_TILE (TG_THREADS * TG_ITEMS)
#define TG_FULL 0xffffffffu
#define TG_AGGREGATE 1ull
#define TG_PREFIX 2ull
#define TG_IDENT (TG_MUL ? 1.0f : 0.0f)

__device__ __forceinline__ float tg_op(float a, float b) { return TG_MUL ? a * b : a + b; }

__device__ __forceinline__ float4 tg_load4(const float* p) {
#if TG_LOAD == 1
  return __ldg(reinterpret_cast<const float4*>(p));
#elif TG_LOAD == 2
  return __ldcs(reinterpret_cast<const float4*>(p));
#else
  return *reinterpret_cast<const float4*>(p);
#endif
}

__device__ __forceinline__ void tg_store4(float* p, float4 v) {
#if TG_STORE == 1
  __stcs(reinterpret_cast<float4*>(p), v);
#else
  *reinterpret_cast<float4*>(p) = v;
#endif
}

__device__ __forceinline__ unsigned long long tg_ld_status(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// The flag of a status word: 0 unless it was written in this call's epoch.
__device__ __forceinline__ unsigned long long tg_flag(unsigned long long s, unsigned epoch) {
  return (s >> 34) == epoch ? (s >> 32) & 3ull : 0ull;
}

__device__ __forceinline__ void tg_st_status(unsigned long long* p, unsigned epoch, unsigned long long flag, float v) {
  const unsigned long long word = ((unsigned long long)epoch << 34) | (flag << 32) | __float_as_uint(v);
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(word) : "memory");
}

__device__ __forceinline__ float tg_warp_inclusive(float x, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const float y = __shfl_up_sync(TG_FULL, x, d);
    if (lane >= d) x = tg_op(y, x);
  }
  return x;
}

// Every lane gets the same total: each step combines the same two values in either order.
__device__ __forceinline__ float tg_warp_total(float x) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x = tg_op(x, __shfl_xor_sync(TG_FULL, x, d));
  return x;
}

__device__ __forceinline__ void tg_load_tile(const float* in, long long n, long long tile, int warp, int lane,
                                             float4 (&v)[TG_VECS]) {
  const long long base = tile * TG_TILE + warp * TG_SEG + lane * 4;
  if ((tile + 1) * TG_TILE <= n) {
#pragma unroll
    for (int k = 0; k < TG_VECS; ++k) v[k] = tg_load4(in + base + k * 128);
  } else {  // the last tile: element by element, the identity past n
#pragma unroll
    for (int k = 0; k < TG_VECS; ++k) {
      const long long e = base + k * 128;
      v[k].x = e < n ? in[e] : TG_IDENT;
      v[k].y = e + 1 < n ? in[e + 1] : TG_IDENT;
      v[k].z = e + 2 < n ? in[e + 2] : TG_IDENT;
      v[k].w = e + 3 < n ? in[e + 3] : TG_IDENT;
    }
  }
}

__device__ __forceinline__ void tg_store_tile(float* out, long long n, long long tile, int warp, int lane,
                                              const float4 (&v)[TG_VECS]) {
  const long long base = tile * TG_TILE + warp * TG_SEG + lane * 4;
  if ((tile + 1) * TG_TILE <= n) {
#pragma unroll
    for (int k = 0; k < TG_VECS; ++k) tg_store4(out + base + k * 128, v[k]);
  } else {
#pragma unroll
    for (int k = 0; k < TG_VECS; ++k) {
      const long long e = base + k * 128;
      if (e < n) out[e] = v[k].x;
      if (e + 1 < n) out[e + 1] = v[k].y;
      if (e + 2 < n) out[e + 2] = v[k].z;
      if (e + 3 < n) out[e + 3] = v[k].w;
    }
  }
}

// One warp's window of the look-back: lane i reads tile j (j = the window's nearest tile - i; below 0, the identity
// as an inclusive prefix) and the warp waits until every tile up to the nearest inclusive prefix (all 32 when none
// has one) has published at least its total, pausing TG_DELAY ns before each poll when TG_DELAY > 0, the first one
// too, as CUB's fixed delay does on sm_90 (688 ns for float sums there; its scan ran 8% slower without it). Returns
// the window's combined value up to the nearest prefix (every lane the same); `found` says whether the window held a
// prefix.
__device__ __forceinline__ float tg_window(const unsigned long long* status, unsigned epoch, long long j, int lane,
                                           bool& found) {
  unsigned long long s, flag;
  while (true) {
#if TG_DELAY > 0
    __nanosleep(TG_DELAY);
#endif
    s = j >= 0 ? tg_ld_status(status + j * TG_STRIDE) : (unsigned long long)__float_as_uint(TG_IDENT);
    flag = j >= 0 ? tg_flag(s, epoch) : TG_PREFIX;
    const unsigned ready = __ballot_sync(TG_FULL, flag != 0ull);
    const unsigned prefixes = __ballot_sync(TG_FULL, flag == TG_PREFIX);
    const unsigned need = prefixes ? ((prefixes & (0u - prefixes)) << 1) - 1u : TG_FULL;
    if ((ready & need) == need) break;
  }
  const unsigned done = __ballot_sync(TG_FULL, flag == TG_PREFIX);
  float v = __uint_as_float(unsigned(s));
  if (done && lane > __ffs(done) - 1) v = TG_IDENT;  // past the nearest inclusive prefix (maybe unpublished)
  found = done != 0u;
  return tg_warp_total(v);
}

#if TG_LB_WARPS == 1
// The look-back by warp 0 alone, window after window, with no block barrier until it is done: lane 0 publishes the
// tile's inclusive prefix (aggregate: the tile's total) as soon as it is known, then the block shares the prefix
// through s_part[0] behind one barrier.
__device__ float tg_look_back_publish(unsigned long long* status, unsigned epoch, long long tile, int warp, int lane,
                                      float aggregate, float (&s_part)[TG_WARPS]) {
  if (warp == 0) {
    float prefix = TG_IDENT;
    bool found = false;
    for (long long j = tile - 1 - lane; !found; j -= 32)
      prefix = tg_op(prefix, tg_window(status, epoch, j, lane, found));
    if (lane == 0) {
      tg_st_status(status + tile * TG_STRIDE, epoch, TG_PREFIX, tg_op(prefix, aggregate));
      s_part[0] = prefix;
    }
  }
  __syncthreads();
  return s_part[0];
}
#else
// The combined values of every tile before `tile`, read by the first TG_LB_WARPS warps (the whole block when
// TG_LB_WARPS is its warp count): warp w's window starts at tile - 1 - 32 w and moves 32 TG_LB_WARPS further back
// each round until one holds an inclusive prefix; the warps' parts are combined nearest first. Every thread of the
// block runs the rounds. More warps move the known prefixes forward faster when many tiles are in flight together;
// fewer poll L2 less.
__device__ float tg_look_back(const unsigned long long* status, unsigned epoch, long long tile, int warp, int lane,
                              float (&s_part)[TG_WARPS], int (&s_done)[TG_WARPS]) {
  float prefix = TG_IDENT;
  long long j = tile - 1 - threadIdx.x;
  while (true) {
    if (warp < TG_LB_WARPS) {
      bool done;
      const float part = tg_window(status, epoch, j, lane, done);
      if (lane == 0) s_part[warp] = part, s_done[warp] = done;
    }
    __syncthreads();
    bool found = false;
    for (int w = 0; w < TG_LB_WARPS && !found; ++w) {  // every thread, the same order: the same result everywhere
      prefix = tg_op(prefix, s_part[w]);
      found = s_done[w] != 0;
    }
    __syncthreads();  // the parts are rewritten next round
    if (found) return prefix;
    j -= 32 * TG_LB_WARPS;
  }
}
#endif

// Scans the tile held in v (its warp's segment, then across the block): afterwards v holds the inclusive scan within
// the tile, `aggregate` is the tile's total and `local` the combined value of the segments before this warp's.
__device__ __forceinline__ void tg_scan_tile(float4 (&v)[TG_VECS], int warp, int lane, float (&s_warp)[TG_WARPS],
                                             float& aggregate, float& local) {
  float carry = TG_IDENT;
#pragma unroll
  for (int k = 0; k < TG_VECS; ++k) {
    float4& a = v[k];
    a.y = tg_op(a.x, a.y);
    a.z = tg_op(a.y, a.z);
    a.w = tg_op(a.z, a.w);
    const float inc = tg_warp_inclusive(a.w, lane);
    float exc = __shfl_up_sync(TG_FULL, inc, 1);
    if (lane == 0) exc = TG_IDENT;
    const float add = tg_op(carry, exc);
    a.x = tg_op(add, a.x);
    a.y = tg_op(add, a.y);
    a.z = tg_op(add, a.z);
    a.w = tg_op(add, a.w);
    carry = tg_op(carry, __shfl_sync(TG_FULL, inc, 31));
  }
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();
  const float t = lane < TG_WARPS ? s_warp[lane] : TG_IDENT;
  const float inc = tg_warp_inclusive(t, lane);
  aggregate = __shfl_sync(TG_FULL, inc, 31);
  float exc = __shfl_up_sync(TG_FULL, inc, 1);
  if (lane == 0) exc = TG_IDENT;
  local = __shfl_sync(TG_FULL, exc, warp);
}

// Publishes the tile's aggregate, looks back for its prefix, publishes the inclusive prefix, and stores the tile.
__device__ __forceinline__ void tg_finish_tile(float* out, long long n, long long tile, int warp, int lane,
                                               float4 (&v)[TG_VECS], float aggregate, float local,
                                               unsigned long long* status, unsigned epoch,
                                               float (&s_part)[TG_WARPS], int (&s_done)[TG_WARPS]) {
  float prefix = TG_IDENT;
  if (tile == 0) {
    if (threadIdx.x == 0) tg_st_status(status, epoch, TG_PREFIX, aggregate);
  } else {
    if (threadIdx.x == 0) tg_st_status(status + tile * TG_STRIDE, epoch, TG_AGGREGATE, aggregate);
#if TG_LB_WARPS == 1
    prefix = tg_look_back_publish(status, epoch, tile, warp, lane, aggregate, s_part);
#else
    prefix = tg_look_back(status, epoch, tile, warp, lane, s_part, s_done);
    if (threadIdx.x == 0) tg_st_status(status + tile * TG_STRIDE, epoch, TG_PREFIX, tg_op(prefix, aggregate));
#endif
  }
  const float start = tg_op(prefix, local);
#pragma unroll
  for (int k = 0; k < TG_VECS; ++k) {
    v[k].x = tg_op(start, v[k].x);
    v[k].y = tg_op(start, v[k].y);
    v[k].z = tg_op(start, v[k].z);
    v[k].w = tg_op(start, v[k].w);
  }
  tg_store_tile(out, n, tile, warp, lane, v);
}

// TG_GRID 0: a persistent grid, each block taking tiles by ticket until none are left, the next tile's loads in
// flight while it scans and looks back. TG_GRID 1: one tile per block (a grid of every tile), in ticket order.
// TG_GRID 2: one tile per block, tile = block index (no ticket round trip before the loads; relies on blocks starting
// in index order, as CUB's scan does). The one-tile kernels hold one tile in registers, not two, so more blocks fit.
#if TG_MIN_BLOCKS > 0
#define TG_BOUNDS __launch_bounds__(TG_THREADS, TG_MIN_BLOCKS)
#else
#define TG_BOUNDS __launch_bounds__(TG_THREADS)
#endif
extern "C" __global__ void TG_BOUNDS
tg_chained_scan(const float* in, float* out, long long n, long long tiles, unsigned long long* status,
                unsigned long long* ticket, unsigned long long ticket_base, unsigned epoch) {
  __shared__ long long s_tile[2];       // tickets, alternating so a new one never overwrites one still being read
  __shared__ float s_warp[TG_WARPS];    // each warp's segment total
  __shared__ float s_part[TG_WARPS];    // the look-back's parts, one per warp
  __shared__ int s_done[TG_WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float aggregate, local;
#if TG_GRID == 2
  const long long tile = blockIdx.x;
#else
  if (threadIdx.x == 0) s_tile[0] = (long long)(atomicAdd(ticket, 1ull) - ticket_base);
  __syncthreads();
  long long tile = s_tile[0];
#endif
#if TG_GRID == 1 || TG_GRID == 2
  float4 cur[TG_VECS];
  tg_load_tile(in, n, tile, warp, lane, cur);
  tg_scan_tile(cur, warp, lane, s_warp, aggregate, local);
  tg_finish_tile(out, n, tile, warp, lane, cur, aggregate, local, status, epoch, s_part, s_done);
#elif TG_GRID == 0
  float4 cur[TG_VECS];
  int slot = 0;
  if (tile < tiles) tg_load_tile(in, n, tile, warp, lane, cur);
  while (tile < tiles) {
    slot ^= 1;
    if (threadIdx.x == 0) s_tile[slot] = (long long)(atomicAdd(ticket, 1ull) - ticket_base);
    __syncthreads();  // also: every warp has read s_warp of the previous tile
    const long long next = s_tile[slot];
    float4 nxt[TG_VECS];
    if (next < tiles) tg_load_tile(in, n, next, warp, lane, nxt);  // in flight during the scan and look-back
    tg_scan_tile(cur, warp, lane, s_warp, aggregate, local);
    tg_finish_tile(out, n, tile, warp, lane, cur, aggregate, local, status, epoch, s_part, s_done);
#pragma unroll
    for (int k = 0; k < TG_VECS; ++k) cur[k] = nxt[k];
    tile = next;
  }
#endif
}
)";

struct scan_kernel {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> scan;
};

void check_tile(int threads, int items, int load, int store) {
  if (threads % 32 || threads < 32 || threads > 1024 || items % 4 || items < 4 || items > 64)
    fail(error_kind::invalid_argument, "chained scan tile of ", threads, " threads x ", items,
         " items: threads are a multiple of 32 up to 1024, items a multiple of 4 up to 64");
  if (load < 0 || load > 2) fail(error_kind::invalid_argument, "chained scan load variant ", load, " is not 0 to 2");
  if (store < 0 || store > 1)
    fail(error_kind::invalid_argument, "chained scan store variant ", store, " is not 0 or 1");
}

// Every bound of one kernel variant, checked by the scan call and by the source itself (the kernel would index past
// its status words with a stride of 0, or name a grid it does not have).
void check_variant(int threads, int items, int load, int store, int delay, int lookback_warps, int grid, int stride,
                   int min_blocks) {
  check_tile(threads, items, load, store);
  if (delay < 0 || delay > 100000)
    fail(error_kind::invalid_argument, "chained scan look-back delay of ", delay, " ns: 0 (none) to 100000");
  if (lookback_warps < 0 || lookback_warps > threads / 32)
    fail(error_kind::invalid_argument, "chained scan: ", lookback_warps, " look-back warps of a ", threads,
         "-thread block (0: all of them)");
  if (grid < 0 || grid > 2)
    fail(error_kind::invalid_argument, "chained scan grid kind ", grid,
         " is not 0 (persistent), 1 or 2 (one tile per block, by ticket or by block index)");
  if (stride < 1 || stride > 32 || (stride & (stride - 1)))
    fail(error_kind::invalid_argument, "chained scan: a status stride of ", stride,
         " words (a power of two up to 32; 0 asks for the default)");
  if (min_blocks < 0 || min_blocks > 32)
    fail(error_kind::invalid_argument, "chained scan: ", min_blocks, " minimum blocks per SM (0 to 32)");
}

}  // namespace

bool chained_scan_applies(std::uintptr_t in, std::uintptr_t out) { return in % 16 == 0 && out % 16 == 0; }

std::string chained_scan_source(bool multiply, int threads, int items, int load, int store, int delay,
                                int lookback_warps, int grid, int stride, int min_blocks) {
  check_variant(threads, items, load, store, delay, lookback_warps, grid, stride, min_blocks);
  return str("#define TG_THREADS ", threads, "\n#define TG_ITEMS ", items, "\n#define TG_MUL ", multiply ? 1 : 0,
             "\n#define TG_LOAD ", load, "\n#define TG_STORE ", store, "\n#define TG_DELAY ", delay,
             "\n#define TG_LB_WARPS ", lookback_warps ? lookback_warps : threads / 32, "\n#define TG_GRID ", grid,
             "\n#define TG_STRIDE ", stride, "\n#define TG_MIN_BLOCKS ", min_blocks,
             "\n", kernel_body);
}

std::string chained_scan_source_for(const chained_scan_problem& p, std::int64_t tiles) {
  const int threads = p.threads ? p.threads : chained_scan_threads, items = p.items ? p.items : chained_scan_items;
  const int stride = p.status_stride ? p.status_stride : chained_scan_status_stride;
  const int mode = p.blocks_per_sm < 0 ? -p.blocks_per_sm : 0;
  const int delay = tiles >= delay_min_tiles ? p.delay : 0;
  return chained_scan_source(p.multiply, threads, items, p.load, p.store, delay, p.lookback_warps, mode, stride,
                             p.min_blocks);
}

bool chained_scan_delays(std::int64_t tiles) { return tiles >= delay_min_tiles; }

void chained_inclusive_scan(rt::device& dev, const rt::stream& s, const chained_scan_problem& p) {
  if (p.n < 0) fail(error_kind::invalid_argument, "negative scan length");
  const int threads = p.threads ? p.threads : chained_scan_threads, items = p.items ? p.items : chained_scan_items;
  const int stride = p.status_stride ? p.status_stride : chained_scan_status_stride;
  if (p.blocks_per_sm < -2)
    fail(error_kind::invalid_argument, "chained scan: blocks per SM is -1 or -2 (one tile per block, by ticket or by "
         "block index), 0 (as many as fit) or more");
  // The grid kind: 0 persistent by ticket; one tile per block by ticket (1) or block index (2).
  const int mode = p.blocks_per_sm < 0 ? -p.blocks_per_sm : 0;
  check_variant(threads, items, p.load, p.store, p.delay, p.lookback_warps, mode, stride, p.min_blocks);
  if (!chained_scan_applies(p.in, p.out))
    fail(error_kind::invalid_argument,
         "the chained scan reads and writes float4: both pointers must be 16-byte aligned");
  if (p.n == 0) return;
  dev.make_current();
  const std::int64_t tile = std::int64_t(threads) * items;
  const std::int64_t tiles = (p.n + tile - 1) / tile;
  // The look-back delay only pays in a large grid (CUB's fixed delay applies from 500 blocks, as here).
  const int delay = tiles >= delay_min_tiles ? p.delay : 0;
  const auto key = std::make_tuple(dev.arch(), p.multiply, threads, items, p.load, p.store, delay, p.lookback_warps,
                                   mode, stride, p.min_blocks);
  const scan_kernel& k = kernels_once<scan_kernel>(key, [&] {
    scan_kernel built;
    const std::string src = chained_scan_source_for(p, tiles);
    built.code = compile_nvrtc(src, {}, dev.arch(), "chained scan", false);
    built.scan = built.code->get_kernel("tg_chained_scan");
    return built;
  });
  std::int64_t grid = tiles;        // one tile per block
  if (mode == 0) {                  // a persistent grid: as many blocks as fit at once (or as asked)
    const int per_sm =
        p.blocks_per_sm > 0 ? p.blocks_per_sm : k.scan->max_active_blocks_per_sm(threads, 0, dev);
    if (per_sm < 1)
      fail(error_kind::internal, "the chained scan kernel of ", threads, " threads does not fit on an SM");
    grid = std::min<std::int64_t>(tiles, std::int64_t(per_sm) * dev.sm_count());
  }
  if (grid > 0x7fffffff)
    fail(error_kind::invalid_argument, "chained scan: ", tiles, " tiles are more than a grid holds");

  // On the default stream the ticket counter and status words are reused call after call (see the kernel's notes):
  // a call needs no memset and no allocation unless it has more tiles than any call before it.
  std::lock_guard<std::mutex> g(scratch_lock());  // also orders the epochs and ticket bases as the launches
  stream_scratch fresh;
  stream_scratch& st = &s == dev.default_stream().get() ? default_stream_scratch(dev) : fresh;
  const std::int64_t words = tiles * stride;
  if (!st.buffer || words > st.words || st.epoch == max_epoch) {
    if (st.buffer) st.buffer->close(&s);
    st.words = std::max<std::int64_t>(words, 2 * st.words);
    st.buffer = rt::buffer::allocate(ticket_bytes + std::size_t(st.words) * sizeof(std::uint64_t),
                                     dev.default_stream());
    st.buffer->fill(0, s);
    st.epoch = 0, st.tickets = 0;
  }
  const std::uint32_t epoch = ++st.epoch;
  const std::uint64_t ticket_base = st.tickets;
  // Tickets this call takes: one per tile, and in a persistent grid one more per block (the one past the end).
  st.tickets += mode == 2 ? 0 : std::uint64_t(tiles) + (mode ? 0 : std::uint64_t(grid));
  const auto ticket = std::uintptr_t(st.buffer->ptr()), status = ticket + ticket_bytes;
  cub_params a(*k.scan);
  a << p.in << p.out << static_cast<long long>(p.n) << static_cast<long long>(tiles) << status << ticket
    << static_cast<unsigned long long>(ticket_base) << static_cast<unsigned>(epoch);
  rt::launch(s, cub_launch_config(unsigned(grid), unsigned(threads)), *k.scan, a.buffer());
  if (fresh.buffer) fresh.buffer->close(&s);  // freed in order after the kernel
}

}  // namespace tegula::libs
