// Planning a materialisation: which kernel shape evaluates a pending graph, how each leaf is seen
// as a 2-D strided view of the iteration space, the tile sizes, and the cache key of the kernel.
//
// Every array kernel runs over a 2-D space (rows R, columns C): the graph's shape (or a reduction
// root's input shape) with the kept axes coalesced into rows and the reduced axes (elementwise:
// the last axis) into columns. Leaves are passed as 2-D arrays with run-time extents and strides,
// so one compiled kernel serves every shape with the same structure, dtypes and layout classes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "tegula/array/expr.hpp"
#include "tegula/kernel/arguments.hpp"

namespace tegula::array {

enum class kernel_shape : std::uint8_t {
  map,       // elementwise: tiles (TR, TC) over the space, one store
  rows,      // reductions along the columns inside the graph: one block per TR rows, the row (C <= TC) in one tile
  row_loop,  // a root reduction over long rows: each block loops over the row's column tiles
  split,     // a root reduction over few, very long rows: blocks split rows into parts -> partial results
  scan_loop, // a root scan over long rows: each block walks its row's column tiles, carrying the total
  col_loop,  // a root reduction whose rows are contiguous and columns strided (a sum over axis 0 of a C-order
             // matrix): each block owns TR contiguous rows and walks the columns in (TC, TR) tiles read
             // transposed (coalesced along the rows), in `parts` column ranges when the rows alone are few blocks
};

// A leaf (or the output) as seen by the kernel: a 2-D strided view, or in a batched space a 3-D one (batches of
// 2-D views: the kernel's array has the batch axis first).
struct view2d {
  std::uintptr_t address = 0;  // element [0, 0] (offset folded in)
  dtype t = dtype::f32;
  std::int64_t rows = 1, cols = 1, batches = 1;
  std::int64_t row_stride = 0, col_stride = 0, batch_stride = 0;  // elements
  bool col_bcast = false;    // one value per row (cols == 1 in the space): loaded as (TR, 1)
  bool row_bcast = false;    // one row for all rows: loaded as (1, TC)
  bool batch_bcast = false;  // one batch for all batches (batched spaces)
  bool contiguous = true;    // col_stride == 1 (or a single column)
  bool aligned = true;       // 16-byte aligned address, row pitch and batch pitch
};

struct plan {
  kernel_shape shape = kernel_shape::map;
  std::int64_t R = 1, C = 1, TR = 1, TC = 1;
  // A batched space (B, R, C): the kept axes split in two groups, the outer ones (batches, B of them) and the
  // innermost one (the rows), where a leaf's kept axes do not merge into one stride (an inner block of a 3-D
  // array, x[1:-1, 1:-1, 1:-1]). Each block works in one batch; leaves and the output are 3-D arrays.
  bool batched = false;
  std::int64_t B = 1;
  // Sibling outputs: other pending elementwise nodes of the root's shape computed by the same kernel, each
  // stored to fresh contiguous memory (its order index, and its output view).
  std::vector<int> sibling_at;
  std::vector<view2d> sibling_out;
  // One value per row is stored (TR, 1): a reduction root, or a 0-d expression of full reductions (the space is
  // their input, one row).
  bool row_result = false;
  std::int64_t parts = 1;               // split: blocks per row; col_loop: column ranges (partials when > 1)
  std::vector<node_ptr> order;          // the graph in topological order (leaves and scalars included)
  std::vector<int> leaf_of;             // order index -> leaf/scalar param index, -1 for ops
  std::vector<int> inputs_flat, inputs_begin;  // order index i's inputs: inputs_flat[inputs_begin[i]..[i+1])
  std::vector<view2d> leaves;           // one per leaf in order (a complex leaf: two, its parts)
  std::vector<const node*> scalars;     // one per scalar in order (an iota: two, start and step; complex: re, im)
  view2d out;                           // the result (split: the partials (R, parts); col_loop: (R, parts) of
                                        // row stride 1, the memory of a (parts, R) array)
  dtype out_t = dtype::f32;             // dtype stored (split: the partial dtype)
  std::vector<int> perm;                // space axis order (kept axes, then reduced axes)
  layout out_layout;                    // the result's layout (of the root's shape) over its storage
  std::string key;                      // kernel cache key
  std::int64_t ncols = 1;               // C, passed to the kernel (masks of partial column tiles)
  std::int64_t grid = 1;

  // Scratch reused between plans (materialize.cpp keeps one plan per recursion depth), so a
  // repeated small operation plans without allocating.
  std::vector<std::pair<const node*, int>> seen;
  std::unordered_map<const node*, int> seen_index;  // seen, indexed once the graph is not small
  std::unordered_multimap<std::uintptr_t, int> leaf_index;  // leaves by address, once there are many
  std::vector<std::int64_t> leaf_strides;  // nd per leaf: its strides broadcast to the space

  int input(std::size_t i, int k) const { return inputs_flat[inputs_begin[i] + k]; }
  void reset();
};

// Whether the kernel stores partial results that a second stage reduces (plan.out holds the partials).
inline bool stores_partials(const plan& p) {
  return p.shape == kernel_shape::split || (p.shape == kernel_shape::col_loop && p.parts > 1);
}

// A complex view as two float views (its real and its imaginary parts): kernels have no complex values.
std::pair<view2d, view2d> complex_parts(const view2d& w);

// What must happen before a graph can be planned: a node to materialise on its own first (an
// inner reduction that does not fit the row kernel), or a leaf to copy into `space_layout`.
struct plan_blocker {
  node_ptr materialize_first;
  node_ptr copy_leaf;            // the leaf to copy (as the graph currently sees it)
  const node* copy_key = nullptr;  // the node the graph refers to (the key for substitutes)
  layout space_layout;           // for copy_leaf: the layout (of the leaf's broadcast shape) the copy gets
  bool out_unfit = false;        // the given output view does not merge into the space's two groups
};

// Plans the evaluation of pending `root` into a fresh contiguous result, or says what blocks it.
// `sm_count` sizes split reductions (the CPU interpreter passes the same default, so the CPU runs
// the very kernels the GPU runs).
// `subst` replaces leaves (by node) with copies planned by an earlier blocker; `out_address` is the
// result's address (its element [0, ...]) when it is known (alignment is part of the key), else 0 (a fresh
// allocation, which is always aligned). `out_view`: the result is written through this view of existing
// memory (shape: the root's; strides any, the offset already in out_address) instead of contiguously; not for
// scans. A view that does not merge into the space's groups (a reduction's: its kept axes into one) blocks with
// out_unfit (the caller evaluates into fresh memory and copies). `siblings`: pending elementwise nodes of the
// root's shape (sibling_outputs in expr.hpp) the kernel also stores, each to fresh memory; only with an
// elementwise root and no out_view. A split reduction writes its partials to fresh
// memory as always (the caller passes the view on to the second stage).
using substitutes = std::unordered_map<const node*, node_ptr>;
// Returns false (and fills `blocker`) when something must happen first.
bool make_plan(plan& p, plan_blocker& blocker, const node_ptr& root, std::uintptr_t out_address, int sm_count,
               const substitutes& subst, const layout* out_view = nullptr,
               const std::vector<node_ptr>* siblings = nullptr);

// The dtype an iota computes in: float64 for floats, int64 for ints and bool.
inline dtype iota_wide(dtype t) { return ir::is_float(t) ? dtype::f64 : dtype::i64; }

// The value of scalar parameter i of plan p (p.scalars[i]): an iota's start then its step, a complex scalar's real
// then imaginary part, any other scalar its value; what the fused kernel and the array VM are both given.
kernel::scalar_arg scalar_parameter(const plan& p, std::size_t i);

// The SM count the CPU device plans with (the H200's), so the interpreter runs the GPU's very kernel shapes.
constexpr int cpu_sm_count = 132;

// The largest row (elements) the rows kernel holds in one tile.
constexpr std::int64_t max_row_tile = 8192;

}  // namespace tegula::array
