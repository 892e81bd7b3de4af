// Bin counts of engine arrays (bin_count_arrays.hpp).
#include "tegula/libs/bin_count_arrays.hpp"

#include "tegula/libs/arrays.hpp"
#include "tegula/libs/bin_counts.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

namespace {

// The weights' kind, checked against n elements on x's device.
bin_weights weights_of(const node_ptr& w, const node& x, std::int64_t n) {
  if (!w) return bin_weights::none;
  const node& nw = input(w);
  if (nw.size() != n) fail(error_kind::invalid_argument, "bin counts: ", nw.size(), " weights for ", n, " values");
  if (nw.device != x.device || nw.gpu != x.gpu)
    fail(error_kind::invalid_argument, "bin counts: weights live on another device");
  if (nw.t == ir::dtype::i64) return bin_weights::int64;
  if (nw.t == ir::dtype::f64) return bin_weights::float64;
  fail(error_kind::type_error, "bin count weights are int64 or float64, not ", ir::name(nw.t));
}

node_ptr counts_array(const node& like, std::int64_t bins, bin_weights w) {
  if (bins < 0) fail(error_kind::invalid_argument, "bin counts: negative number of bins");
  return empty_like_device(like, {bins}, w == bin_weights::float64 ? ir::dtype::f64 : ir::dtype::i64);
}

}  // namespace

node_ptr count_bins(const node_ptr& idx0, std::int64_t bins, const node_ptr& weights) {
  const node& ni = input(idx0);
  rt::device& dev = cuda_device(ni, "the bin count");
  expect_dtype(ni, ir::dtype::i64, "bincount", "the bin indices");
  const std::int64_t n = ni.size();
  bin_weights w = weights_of(weights, ni, n);
  node_ptr idx = contiguous_leaf(idx0), wc = weights ? contiguous_leaf(weights) : nullptr;
  node_ptr counts = counts_array(ni, bins, w);
  count_bins(dev, array::array_stream(dev), element_address(input(idx)), n, bins, w, wc ? element_address(input(wc)) : 0,
             element_address(output(counts)));
  return counts;
}

node_ptr count_bins_uniform(const node_ptr& x0, const node_ptr& edges0, const node_ptr& weights) {
  const node& nx = input(x0);
  rt::device& dev = cuda_device(nx, "histogram's bin count");
  const node& ne = input(edges0);
  if (nx.shape.size() != 1 || ne.shape.size() != 1 || ne.shape[0] < 1)
    fail(error_kind::invalid_argument, "histogram's bin count takes 1-D values and at least one edge");
  const ir::dtype et = nx.t == ir::dtype::f32 ? ir::dtype::f32 : ir::dtype::f64;
  if (nx.t != ir::dtype::f32 && nx.t != ir::dtype::f64 && nx.t != ir::dtype::i32 && nx.t != ir::dtype::i64)
    fail(error_kind::type_error, "histogram's bin count takes float32, float64, int32 or int64 values, not ",
         ir::name(nx.t));
  expect_dtype(ne, et, "histogram", "the edges");
  if (ne.device != nx.device || ne.gpu != nx.gpu) fail(error_kind::invalid_argument, "histogram: edges on another device");
  const std::int64_t n = nx.shape[0], bins = ne.shape[0] - 1;
  bin_weights w = weights_of(weights, nx, n);
  node_ptr x = contiguous_leaf(x0), e = contiguous_leaf(edges0), wc = weights ? contiguous_leaf(weights) : nullptr;
  node_ptr counts = counts_array(nx, bins, w);
  count_bins_uniform(dev, array::array_stream(dev), element_address(input(x)), std::string(ir::name(nx.t)), n,
                     element_address(input(e)), bins, w, wc ? element_address(input(wc)) : 0, element_address(output(counts)));
  return counts;
}

}  // namespace tegula::libs
