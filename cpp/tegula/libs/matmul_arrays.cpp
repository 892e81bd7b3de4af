// Matrix products of engine arrays (matmul_arrays.hpp): operands as cuBLASLt reads them, the call, the result.
#include "tegula/libs/matmul_arrays.hpp"

#include "tegula/array/materialize.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/libs/cublaslt.hpp"
#include "tegula/libs/host_gemm.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::dims;
using array::node;
using array::node_ptr;

std::int64_t padded_row(std::int64_t cols, int item) { return (cols * item + 15) / 16 * 16 / item; }

gemm_operand gemm_operand_of(const node_ptr& x0, const dims& batch, std::int64_t rows, std::int64_t cols, bool narrow) {
  const node& n0 = input(x0);
  if (n0.shape.size() < 2) fail(error_kind::invalid_argument, "matmul operand must have 2 or more axes");
  dims want = batch;
  want.push_back(rows);
  want.push_back(cols);
  if (!array::broadcasts_to(n0.shape, want))
    fail(error_kind::invalid_argument, "matmul operand of shape ", array::shape_text(n0.shape), " does not broadcast to ",
         array::shape_text(want));
  node_ptr x = n0.shape == want ? x0 : array::make_leaf(n0.data, array::broadcast_to(n0.lay, want), n0.t);
  const node& n = *x;
  const int item = static_cast<int>(ir::size_bytes(n.t));
  const std::size_t nb = batch.size();
  const std::int64_t s_r = n.lay.strides[nb], s_c = n.lay.strides[nb + 1];
  gemm_operand op;
  bool ok = true;
  if (s_c == 1 && (rows == 1 || s_r >= cols)) {
    op.trans = false, op.ld = rows > 1 ? s_r : cols;
  } else if (s_r == 1 && (cols == 1 || s_c >= rows)) {
    op.trans = true, op.ld = cols > 1 ? s_c : rows;
  } else if (rows == 1 && s_c > 0) {
    op.trans = true, op.ld = s_c;  // a strided row: column-major (1, cols) with leading dimension s_c
  } else if (cols == 1 && s_r > 0) {
    op.trans = false, op.ld = s_r;  // a strided column
  } else {
    ok = false;
  }
  if (ok && nb) {  // the batch axes must fold into one stride (cuBLASLt takes one strided batch)
    std::vector<std::pair<std::int64_t, std::int64_t>> live;
    for (std::size_t i = 0; i < nb; ++i)
      if (batch[i] > 1) live.emplace_back(n.lay.strides[i], batch[i]);
    for (std::size_t i = 0; i + 1 < live.size(); ++i)
      if (live[i].first != live[i + 1].first * live[i + 1].second) ok = false;
    for (const auto& [s, e] : live)
      if (s < 0) ok = false;
    op.batch_stride = live.empty() ? 0 : live.back().first;
  }
  const bool vector = rows == 1 || cols == 1;
  if (ok && !(vector || narrow) && ((op.ld * item) % 16 || element_address(n) % 16)) ok = false;
  if (ok) {
    op.x = x;
    return op;
  }
  // C order, rows padded to 16 bytes: y[..., :cols] = x
  const std::int64_t pad = padded_row(cols, item);
  dims full = batch;
  full.push_back(rows);
  full.push_back(pad);
  node_ptr y = empty_like_device(n, full, n.t);
  array::layout sub = y->lay;
  sub.shape = want;
  array::assign(y->data, sub, n.t, x);
  op.x = y, op.trans = false, op.ld = pad, op.batch_stride = rows * pad, op.copied = true;
  return op;
}

node_ptr gemm(const node_ptr& a, const node_ptr& b, const dims& batch, std::int64_t m, std::int64_t n, std::int64_t k,
              ir::dtype t) {
  const node& na = input(a);
  const node& nbb = input(b);
  expect_dtype(na, t, "matmul", "a");
  expect_dtype(nbb, t, "matmul", "b");
  if (na.device != nbb.device || na.gpu != nbb.gpu)
    fail(error_kind::invalid_argument, "matmul operands live on different devices");
  if (m < 0 || n < 0 || k < 0) fail(error_kind::invalid_argument, "matmul: negative extent");
  std::int64_t count = 1;
  for (auto e : batch) count *= e;
  dims out = batch;
  out.push_back(m);
  out.push_back(n);
  if (m == 0 || n == 0 || count == 0) return empty_like_device(na, out, t);
  if (k == 0) {
    node_ptr z = empty_like_device(na, out, t);
    node_ptr zero = ir::is_complex(t) ? array::make_scalar_complex(0, 0, t, z) : array::make_scalar(0.0, t, z);
    array::assign(z->data, z->lay, t, zero);
    return z;
  }
  // A narrow product (one side at most 16) is memory-bound: its operands are read where they lie, aligned or not.
  const bool narrow = std::min(m, n) <= 16;
  gemm_operand oa = gemm_operand_of(a, batch, m, k, narrow);
  gemm_operand ob = gemm_operand_of(b, batch, k, n, narrow);
  const int item = static_cast<int>(ir::size_bytes(t));
  const std::int64_t ldd = padded_row(n, item);
  dims full = batch;
  full.push_back(m);
  full.push_back(ldd);
  node_ptr d = empty_like_device(na, full, t);
  matmul_problem p;
  p.in = p.out = t;
  p.m = m, p.n = n, p.k = k, p.batch = count;
  p.trans_a = oa.trans, p.trans_b = ob.trans;
  p.a = element_address(*oa.x), p.lda = oa.ld, p.stride_a = oa.batch_stride;
  p.b = element_address(*ob.x), p.ldb = ob.ld, p.stride_b = ob.batch_stride;
  p.d = element_address(output(d)), p.ldd = ldd, p.stride_d = m * ldd;
  p.ldc = ldd, p.stride_c = m * ldd;
  if (na.device == array::device_kind::cuda) {
    matmul(*na.gpu, array::array_stream(*na.gpu), p);
  } else {
    host_matmul(p);
  }
  if (ldd == n) return d;
  array::layout view = d->lay;
  view.shape = out;
  return array::make_leaf(d->data, view, t);
}

}  // namespace tegula::libs
