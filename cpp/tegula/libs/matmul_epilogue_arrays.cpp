// Matrix products with a fused epilogue over engine arrays (matmul_epilogue_arrays.hpp): the checks, the operands
// as cuBLASLt reads them, the call (the CPU: the host reference).
#include "tegula/libs/matmul_epilogue_arrays.hpp"

#include "tegula/array/materialize.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/libs/host_gemm.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::dims;
using array::node;
using array::node_ptr;

namespace {

// Python's tuple text, as tegula.math's messages always read: (30, 20), (10,), ().
std::string tuple_text(const dims& s) {
  std::string t = "(";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

bool same_device(const node& x, const node& y) { return x.device == y.device && x.gpu == y.gpu; }

dims with_matrix(dims batch, std::int64_t rows, std::int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

// A real dtype a c or bias may be cast from (bool, int, float).
void expect_real(const node& x, const char* what) {
  if (ir::is_complex(x.t)) fail(error_kind::type_error, "tegula.math.matmul: ", what, " must be real, not ", ir::name(x.t));
}

}  // namespace

gemm_epilogue epilogue_named(const std::string& name, node_ptr bias) {
  const epilogue ep = epilogue_from_name(name);
  const bool wants = epilogue_has_bias(ep);
  if (wants != (bias != nullptr))
    fail(error_kind::invalid_argument, "epilog '", name, "' ", wants ? "needs" : "takes no", " bias");
  gemm_epilogue e;
  e.bias = std::move(bias);
  e.act = epilogue_activation(ep);
  e.aux = epilogue_has_aux(ep);
  return e;
}

fused_gemm_plan::fused_gemm_plan(node_ptr a, node_ptr b, gemm_epilogue e, gemm_options o)
    : a_(std::move(a)), b_(std::move(b)), e_(std::move(e)), o_(o) {
  if (!a_ || !b_) fail(error_kind::invalid_argument, "tegula.math.matmul needs two operands");
  const node& na = *a_;
  const node& nb = *b_;
  const epilogue ep = epilogue_of(e_.act, e_.bias != nullptr, e_.aux);  // aux without an activation: refused
  for (const node_ptr& x : {e_.c, e_.bias})
    if (x && !same_device(*x, na)) fail(error_kind::invalid_argument, "matmul operands live on different devices");
  if (!same_device(na, nb)) fail(error_kind::invalid_argument, "matmul operands live on different devices");
  if (o_.sm_count < 0) fail(error_kind::invalid_argument, "matmul: sm_count must be >= 0 (0: every multiprocessor)");
  float8_ = ir::is_float8(na.t) || ir::is_float8(nb.t);
  if (na.t != nb.t)
    fail(error_kind::type_error, "matmul: a and b must have one dtype, got ", ir::name(na.t), " and ", ir::name(nb.t));
  in_ = na.t;
  if (float8_) {
    if (e_.c) fail(error_kind::invalid_argument, "float8 products take no c (beta * c); add it to the result");
    if (e_.aux)
      fail(error_kind::invalid_argument, "float8 products take the epilogues none, bias, relu, relu_bias, gelu and "
           "gelu_bias, not '", epilogue_name(ep), "'");
    out_ = o_.out.value_or(ir::dtype::bf16);
    if (out_ != ir::dtype::bf16 && out_ != ir::dtype::f16 && out_ != ir::dtype::f32)
      fail(error_kind::type_error, "float8 products give bfloat16, float16 or float32, not ", ir::name(out_));
    if (na.shape.size() != 2 || nb.shape.size() != 2)
      fail(error_kind::invalid_argument, "float8 products take 2-D operands");
    if (na.pending() || nb.pending()) fail(error_kind::invalid_argument, "float8 operands must be arrays in memory");
    m_ = na.shape[0], k_ = na.shape[1], n_ = nb.shape[1];
    if (nb.shape[0] != k_)
      fail(error_kind::invalid_argument, "matmul: a ", tuple_text(na.shape), " and b ", tuple_text(nb.shape),
           " differ in the contracted dimension (", k_, " vs ", nb.shape[0], ")");
    if (na.lay.strides != dims{k_, 1} || nb.lay.strides != dims{1, k_})
      fail(error_kind::invalid_argument, "cuBLASLt float8 products need a row-major (m, k) `a` and `b` given as the "
           "transpose of a row-major (n, k) array (bt.T); got strides ", tuple_text(na.lay.strides), " and ",
           tuple_text(nb.lay.strides));
    if (na.device == array::device_kind::cuda && in_ == ir::dtype::f8e5m2)
      fail(error_kind::type_error, "cuBLASLt has no float8_e5m2 x float8_e5m2 product (one operand must be "
           "float8_e4m3fn); use float8_e4m3fn operands");
  } else {
    if (na.shape.size() < 2 || nb.shape.size() < 2)
      fail(error_kind::invalid_argument, "tegula.math.matmul takes matrices (or batches of them); use "
           "tegula.numpy.matmul for vectors");
    const std::size_t ra = na.shape.size(), rb = nb.shape.size();
    m_ = na.shape[ra - 2], k_ = na.shape[ra - 1], n_ = nb.shape[rb - 1];
    if (nb.shape[rb - 2] != k_)
      fail(error_kind::invalid_argument, "matmul: a ", tuple_text(na.shape), " and b ", tuple_text(nb.shape),
           " differ in the contracted dimension (", k_, " vs ", nb.shape[rb - 2], ")");
    if (in_ != ir::dtype::f16 && in_ != ir::dtype::bf16 && in_ != ir::dtype::f32 && in_ != ir::dtype::f64)
      fail(error_kind::type_error, "tegula.math.matmul takes float16, bfloat16, float32 or float64, got ", ir::name(in_));
    if (o_.out && *o_.out != in_)
      fail(error_kind::type_error, "out_dtype is for float8 products; other products return their operands' dtype");
    out_ = in_;
    batch_ = array::broadcast_shapes({dims(na.shape.begin(), na.shape.end() - 2), dims(nb.shape.begin(), nb.shape.end() - 2)});
  }
  shape_ = with_matrix(batch_, m_, n_);
  for (auto x : batch_) count_ *= x;
  if (e_.bias) {
    expect_real(*e_.bias, "bias");
    if (e_.bias->shape != dims{n_})
      fail(error_kind::invalid_argument, "bias must have shape (", n_, ",), got ", tuple_text(e_.bias->shape));
  }
  if (e_.c) {
    expect_real(*e_.c, "c");
    if (!array::broadcasts_to(e_.c->shape, shape_))
      fail(error_kind::invalid_argument, "c of shape ", tuple_text(e_.c->shape), " does not broadcast to the result ",
           tuple_text(shape_));
  }
  ldd_ = padded_row(n_, static_cast<int>(ir::size_bytes(out_)));
  base_.in = in_, base_.out = out_, base_.tf32 = o_.tf32;
  base_.m = m_, base_.n = n_, base_.k = k_, base_.batch = count_;
  base_.ldd = ldd_, base_.stride_d = m_ * ldd_;
  base_.ldc = ldd_, base_.stride_c = m_ * ldd_;
  base_.ep = ep;
  base_.alpha = e_.alpha;
  base_.sm_count = o_.sm_count;
}

bool fused_gemm_plan::on_cuda() const { return a_->device == array::device_kind::cuda; }

node_ptr fused_gemm_plan::new_result() const { return empty_like_device(*a_, with_matrix(batch_, m_, ldd_), out_); }

fused_gemm_plan::prepared fused_gemm_plan::prepare() {
  prepared pr;
  matmul_problem& p = pr.p;
  p = base_;
  const node& na = input(a_);
  input(b_);
  if (m_ == 0 || n_ == 0 || count_ == 0) {  // nothing to compute: empty results
    pr.r.d = empty_like_device(na, shape_, out_);
    if (e_.aux) pr.r.aux = empty_like_device(na, shape_, out_);
    return pr;
  }
  // The operands: remembered when passed where they lie (a copy is a snapshot: made again on every run).
  auto operand = [&](std::optional<gemm_operand>& kept, const node_ptr& x, std::int64_t rows, std::int64_t cols,
                     bool trans_float8) {
    if (kept) return *kept;
    gemm_operand op;
    if (float8_) {  // the layouts the constructor checked, as they lie
      op.x = x, op.trans = trans_float8, op.ld = k_;
    } else {
      op = gemm_operand_of(x, batch_, rows, cols, false);
    }
    if (op.copied) pr.keep.push_back(op.x);
    else kept = op;
    return op;
  };
  const gemm_operand oa = operand(a_op_, a_, m_, k_, false), ob = operand(b_op_, b_, k_, n_, true);
  p.trans_a = oa.trans, p.lda = oa.ld, p.stride_a = oa.batch_stride, p.a = element_address(*oa.x);
  p.trans_b = ob.trans, p.ldb = ob.ld, p.stride_b = ob.batch_stride, p.b = element_address(*ob.x);
  if (e_.c && e_.beta != 0) {
    std::optional<gemm_operand> oc = c_op_;
    if (!oc && e_.c->t == out_ && e_.c->shape == shape_) {
      // C as it lies when its layout is D's (row-major, D's row and batch strides), so cuBLASLt's C and D
      // descriptors are one layout; gemm_operand_of's copy has that layout too.
      gemm_operand op = gemm_operand_of(e_.c, batch_, m_, n_, false);
      if (!op.trans && op.ld == ldd_ && (count_ == 1 || op.batch_stride == m_ * ldd_)) {
        if (count_ == 1) op.batch_stride = m_ * ldd_;
        oc = op;
        if (op.copied) pr.keep.push_back(op.x);
        else c_op_ = op;
      }
    }
    if (!oc) {  // broadcast, cast or laid out otherwise: copied into D's layout
      node_ptr y = new_result();
      array::layout sub = y->lay;
      sub.shape = shape_;
      array::assign(y->data, sub, out_, e_.c);
      pr.keep.push_back(y);
      oc = gemm_operand{y, false, ldd_, m_ * ldd_, true};
    }
    p.c = element_address(input(oc->x)), p.ldc = oc->ld, p.stride_c = oc->batch_stride;
    p.beta = e_.beta;
  }
  if (e_.bias) {
    const node& nbias = input(e_.bias);
    if (nbias.t == out_ && (n_ == 1 || nbias.lay.strides[0] == 1)) {
      p.bias = element_address(nbias);
    } else {  // cast or strided: n contiguous values of the result's dtype
      node_ptr y = empty_like_device(na, {n_}, out_);
      array::assign(y->data, y->lay, out_, e_.bias);
      pr.keep.push_back(y);
      p.bias = element_address(*y);
    }
  }
  // The results: new memory (nothing pending reads it), rows padded to 16 bytes, returned as (.., m, n) views.
  auto result = [&](std::uintptr_t& address) {
    node_ptr full = new_result();
    address = element_address(output(full));
    if (ldd_ == n_) return full;
    array::layout view = full->lay;
    view.shape = shape_;
    return array::make_leaf(full->data, view, out_);
  };
  pr.r.d = result(p.d);
  if (e_.aux) pr.r.aux = result(p.aux);
  return pr;
}

gemm_result fused_gemm_plan::run() {
  prepared pr = prepare();
  if (m_ == 0 || n_ == 0 || count_ == 0) return pr.r;
  if (on_cuda()) {
    rt::device& dev = cuda_device(*a_, "tegula.math.matmul");
    matmul(dev, array::array_stream(dev), pr.p);
  } else {
    host_matmul(pr.p);
  }
  return pr.r;
}

std::vector<tuned_algo> fused_gemm_plan::autotune(int candidates, int repeats, tune_search search, int max_configs) {
  if (candidates < 1 || repeats < 1 || max_configs < 1)
    fail(error_kind::invalid_argument, "autotune needs candidates, repeats and max_configs >= 1");
  if (!on_cuda()) return {};  // the host reference has nothing to tune
  prepared pr = prepare();
  if (m_ == 0 || n_ == 0 || count_ == 0) return {};
  rt::device& dev = cuda_device(*a_, "tegula.math.matmul autotune");
  return libs::autotune(dev, array::array_stream(dev), pr.p, candidates, repeats, search, max_configs);
}

gemm_result fused_gemm(const node_ptr& a, const node_ptr& b, const gemm_epilogue& e, const gemm_options& o) {
  return fused_gemm_plan(a, b, e, o).run();
}

}  // namespace tegula::libs
