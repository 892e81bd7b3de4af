// The CUDA emitter: walks post-pass IR once and writes the kernel body (internal to codegen).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/codegen/layout.hpp"
#include "tegula/codegen/preamble.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::codegen {

// An array parameter as the kernel sees it: data pointer `name`, extents `name_shape<d>`, strides
// `name_stride<d>` (elements).
struct array_info {
  ir::value_id value = -1;  // the parameter
  std::string name;
  ir::dtype elem = ir::dtype::f32;
  int rank = 0;
  array_spec spec;
  bool written = false;  // stored, scattered or atomically updated somewhere in the kernel
  std::string shape(int d) const { return name + "_shape" + std::to_string(d); }
  std::string stride(int d) const { return name + "_stride" + std::to_string(d); }
  // The stride of the last axis, "1" when known contiguous.
  std::string last_stride() const { return spec.last_dim_contiguous ? "1" : stride(rank - 1); }
};

// The dtype a reduction or scan keeps partial results in: the result's (sums, products), the
// input's (extremes, custom combines), except that float16/bfloat16 sums, products and extremes
// accumulate in float and round once at the end (emit_reduce.cpp).
ir::dtype accumulator(const ir::op& o, ir::dtype in, ir::dtype out);

struct matmul_plan;

class emitter {
 public:
  // With `mm`, the kernel is the tensor-core matrix product of matmul_sm90.cpp.
  emitter(const ir::function& f, const options& o, const matmul_plan* mm = nullptr);
  kernel_source generate();  // cuda.cpp
  kernel_source generate_matmul(const matmul_plan& p);  // matmul_sm90.cpp

 private:
  // ---- the kernel's parameters and the prologue unpacking the scalar ones (cuda.cpp)
  void signature(std::vector<std::string>& params, std::vector<std::string>& prologue);
  int array_index(ir::value_id v) const;  // position of array parameter v among the array parameters
  std::string wgmma_asm(const matmul_plan& p, const std::string& acc, int off, const std::string& da,
                        const std::string& db) const;  // matmul_sm90.cpp

  // ---- text (emitter.cpp)
  void line(const std::string& s);
  void open(const std::string& head);  // writes "head {" and indents
  void close(const std::string& tail = "");
  void otherwise();                    // "} else {"
  void note_op(const ir::op& o);       // a comment naming the op, its values and its source line
  std::string fresh(const std::string& stem);  // a new unique C identifier

  // ---- values (emitter.cpp)
  const ir::type& type_of(ir::value_id v) const { return f_.type_of(v); }
  ir::dtype dtype_of(ir::value_id v) const { return f_.type_of(v).elem; }
  tile_layout layout(ir::value_id v) const;
  const std::string& name(ir::value_id v) const { return names_.at(std::size_t(v)); }
  // Element `slot` of v: "v3[slot]" for a distributed tile, "v3" for a replicated one.
  std::string at(ir::value_id v, const std::string& slot) const;
  void declare(ir::value_id v, bool zero = false);  // "float v3[16];" / "float v3;"
  void assign(ir::value_id dst, ir::value_id src);  // same type: element-wise copy
  const array_info& array(const ir::op& o, ir::value_id v) const;
  // Every operand must be replicated or share `like`'s layout (one shape per elementwise op).
  void check_same_layout(const ir::op& o, ir::value_id like, const std::vector<ir::value_id>& vs) const;
  [[noreturn]] void unsupported(const ir::op& o, const std::string& why) const;

  // ---- loops over owned elements (emitter.cpp)
  // Emits the unrolled loop over l's groups; inside: `k_` (0..K-1), `g_` (group), `gf_` (the flat
  // index of the group's first element) and the guard `g_ < groups` when not full. `body` writes
  // the group's statements.
  void groups_loop(const tile_layout& l, const std::function<void()>& body);
  // groups_loop plus the loop over the vec elements of each group: `j_`, slot `s_` = k_*V + j_ and
  // flat index `f_` = gf_ + j_.
  void elements_loop(const tile_layout& l, const std::function<void()>& body);
  // "const int <prefix>d = ..." for each axis of `shape`, from a flat row-major index expression.
  void flat_to_coords(const std::vector<std::int64_t>& shape, const std::string& flat, const std::string& prefix);
  // The statements defining `g_` and `gf_` for group k_ of l (inside a loop over k_).
  void group_index(const tile_layout& l);

  // ---- shared memory (emitter.cpp): one buffer `tg_smem`, sized to the largest use
  std::string smem(const std::string& ctype, std::int64_t byte_offset);  // typed pointer expression
  void need_smem(const ir::op& o, std::int64_t bytes);
  // Barrier, then every owned element of v to s[flat] converted to dtype `as`, then a barrier.
  void stage(ir::value_id v, const std::string& s, ir::dtype as);
  void barrier();
  // convert() that also records the preamble helpers the conversion needs.
  std::string cvt(ir::dtype from, ir::dtype to, const std::string& e);

  // ---- ops
  void emit_region(const ir::region& r, const std::function<void(const ir::op&)>& on_yield);
  void emit_op(const ir::op& o);                 // emitter.cpp: the one switch over every op kind
  void emit_source(const ir::op& o);             // emit_elementwise.cpp
  void emit_elementwise(const ir::op& o);
  void emit_load(const ir::op& o);               // emit_memory.cpp
  void emit_store(const ir::op& o);
  void emit_tile_bases(const ir::op& o, const ir::type& t, int rank);  // load/store address helpers
  std::pair<std::string, std::string> scalar_address(const array_info& a, std::string ok) const;
  void emit_group_address(const array_info& a, const ir::type& t, const tile_layout& l, std::string rows_ok);
  std::string vector_guard(const array_info& a, const tile_layout& l, int ew) const;
  // A load (v its result) or store (v the stored tile) of a tile in the wgmma layout, after
  // emit_tile_bases (emit_fragment.cpp).
  void emit_fragment_access(const ir::op& o, const array_info& a, ir::value_id v, bool store);
  // A whole (BM, BN) tile of a matmul kernel stored through shared memory by the copy engine
  // (asynchronous: it overlaps the next tile's main loop); false when the array does not allow it.
  bool emit_tma_store(const ir::op& o, const array_info& a, ir::value_id v);  // matmul_sm90.cpp
  void emit_gather(const ir::op& o);             // emit_indexed.cpp
  void emit_scatter(const ir::op& o);
  void emit_atomic(const ir::op& o);
  void emit_reshape(const ir::op& o);            // emit_shape.cpp (also expand_dims)
  void emit_permute(const ir::op& o);
  void emit_broadcast(const ir::op& o);
  void emit_mma(const ir::op& o);                // emit_mma.cpp
  void emit_reduction(const ir::op& o);          // emit_reduce.cpp
  void emit_block_reduction(const ir::op& o, const std::vector<bool>& reduced);
  void emit_axis_reduction(const ir::op& o, const std::vector<bool>& reduced);
  void emit_scan(const ir::op& o);               // emit_scan.cpp
  void emit_print(const ir::op& o);              // emit_debug.cpp
  void emit_assert(const ir::op& o);
  void emit_for(const ir::op& o);                // emit_control.cpp
  // "for (IV it = lb; cond; it += step)" of a for op, the direction fixed when the step is constant.
  std::string for_header(const ir::op& o, const std::string& it);
  void emit_if(const ir::op& o);
  void emit_while(const ir::op& o);
  // A device lambda `name(acc, x)` running region 0 of a reduce/scan op (emit_control.cpp).
  std::string emit_combine_lambda(const ir::op& o, ir::dtype t);

  // ---- helpers shared by the reduction and scan files (emit_reduce.cpp)
  // C expression combining accumulators a and b for sum/prod/max/min (and cumsum/cumprod).
  std::string combine_expr(ir::op_kind k, ir::dtype acc, const std::string& a, const std::string& b);
  std::string identity_expr(const ir::op& o, ir::dtype acc);
  // The padding value of a load/gather (attr padding) as a register literal of dtype t.
  std::string padding_expr(const ir::op& o, ir::dtype t) const;

  const ir::function& f_;
  const options& opt_;
  // The thread's index among the tile threads, the barrier among them, and the block indices and
  // grid extents the IR sees: the CUDA built-ins, except in matmul kernels (consumer warpgroups,
  // a named barrier, persistent blocks).
  std::string tid_ = "(int)threadIdx.x";
  std::string barrier_ = "__syncthreads();";
  std::string bid_[3] = {"(int)blockIdx.x", "(int)blockIdx.y", "(int)blockIdx.z"};
  const matmul_plan* mm_ = nullptr;          // set while emitting a tensor-core kernel
  std::vector<tensor_map_spec> store_maps_;  // tensor maps of arrays stored by the copy engine
  std::int64_t cstage_bytes_ = 0;            // shared memory staging those stores
  std::string nblocks_[3] = {"(int)gridDim.x", "(int)gridDim.y", "(int)gridDim.z"};
  kernel_layout lay_;
  std::vector<std::string> names_;
  std::map<ir::value_id, array_info> arrays_;
  std::vector<int> uses_;  // how many operands name each value
  std::ostringstream body_;
  int indent_ = 1;
  int unique_ = 0;
  int lambda_depth_ = 0;  // > 0 while emitting a combine region: block-wide barriers are not allowed
  const ir::op* current_ = nullptr;  // the op being emitted (for error locations)
  std::int64_t smem_bytes_ = 0;
  preamble_needs needs_;
};

}  // namespace tegula::codegen
