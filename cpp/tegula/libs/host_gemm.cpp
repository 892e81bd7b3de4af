// The CPU reference of a cuBLASLt problem (host_gemm.hpp): operands gathered into double matrices, one sum per
// element, the epilogue, one rounding.
#include "tegula/libs/host_gemm.hpp"

#include <cmath>
#include <complex>
#include <vector>

#include "tegula/interp/dtype_traits.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using cplx = std::complex<double>;

// Element i of the array of dtype t at host address base, as V (double, or complex<double> for complex products).
template <class V>
V read(ir::dtype t, std::uintptr_t base, std::int64_t i) {
  if constexpr (std::is_same_v<V, cplx>) {
    if (t == ir::dtype::c64) return cplx(reinterpret_cast<const std::complex<float>*>(base)[i]);
    if (t == ir::dtype::c128) return reinterpret_cast<const cplx*>(base)[i];
  }
  if (ir::is_complex(t)) fail(error_kind::type_error, "a real product cannot read ", ir::name(t), " values");
  return interp::dispatch_dtype(t, [&](auto tag) -> V {
    using tr = interp::dtype_traits<decltype(tag)::value>;
    if constexpr (interp::is_real_v<decltype(tag)::value>)
      return V(tr::read(reinterpret_cast<const typename tr::mem*>(base)[i]));
    else
      fail(error_kind::type_error, "matmul through the library takes float or complex operands, not ", ir::name(t));
  });
}

template <class V>
void write(ir::dtype t, std::uintptr_t base, std::int64_t i, V v) {
  if constexpr (std::is_same_v<V, cplx>) {
    if (t == ir::dtype::c64) return void(reinterpret_cast<std::complex<float>*>(base)[i] = std::complex<float>(v));
    if (t == ir::dtype::c128) return void(reinterpret_cast<cplx*>(base)[i] = v);
    fail(error_kind::type_error, "a complex product writes complex values, not ", ir::name(t));
  } else {
    interp::dispatch_dtype(t, [&](auto tag) {
      using tr = interp::dtype_traits<decltype(tag)::value>;
      if constexpr (interp::is_real_v<decltype(tag)::value>)
        reinterpret_cast<typename tr::mem*>(base)[i] = tr::write(v);
      else
        fail(error_kind::type_error, "matmul through the library writes float results, not ", ir::name(t));
    });
  }
}

// The (batch, rows, cols) operand at `base` (row stride ld, batch stride bs; `trans`: the memory holds the
// (cols, rows) matrix) gathered row-major.
template <class V>
std::vector<V> gather(ir::dtype t, std::uintptr_t base, bool trans, std::int64_t ld, std::int64_t bs,
                      std::int64_t batch, std::int64_t rows, std::int64_t cols) {
  std::vector<V> out(std::size_t(batch * rows * cols));
  std::size_t o = 0;
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) out[o++] = read<V>(t, base, b * bs + (trans ? j * ld + i : i * ld + j));
  return out;
}

template <class V>
void run(const matmul_problem& p) {
  const std::vector<V> A = gather<V>(p.in, p.a, p.trans_a, p.lda, p.stride_a, p.batch, p.m, p.k);
  const std::vector<V> B = gather<V>(p.in, p.b, p.trans_b, p.ldb, p.stride_b, p.batch, p.k, p.n);
  const activation act = epilogue_activation(p.ep);
  const bool bias = epilogue_has_bias(p.ep) && p.bias, aux = epilogue_has_aux(p.ep) && p.aux, c = p.c && p.beta != 0;
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t i = 0; i < p.m; ++i)
      for (std::int64_t j = 0; j < p.n; ++j) {
        V acc = V();
        const V* arow = A.data() + (b * p.m + i) * p.k;
        const V* bcol = B.data() + b * p.k * p.n + j;
        for (std::int64_t l = 0; l < p.k; ++l) acc += arow[l] * bcol[l * p.n];
        V r = p.alpha * acc;
        if (c) r += p.beta * read<V>(p.out, p.c, b * p.stride_c + i * p.ldc + j);
        if (bias) r += read<V>(p.out, p.bias, j);
        const std::int64_t at = b * p.stride_d + i * p.ldd + j;
        if constexpr (std::is_same_v<V, double>) {
          if (aux) write<V>(p.out, p.aux, at, r);
          if (act == activation::relu) r = r < 0 ? 0.0 : r;  // NumPy's maximum(x, 0): NaN stays NaN
          if (act == activation::gelu) r = gelu_tanh(r);
        }
        write<V>(p.out, p.d, at, r);
      }
}

}  // namespace

double gelu_tanh(double x) { return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

void host_matmul(const matmul_problem& p) {
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  if (ir::is_complex(p.in)) {
    if (p.ep != epilogue::none) fail(error_kind::invalid_argument, "complex products take no epilogue");
    return run<cplx>(p);
  }
  run<double>(p);
}

}  // namespace tegula::libs
