// FFTs of engine arrays (fft_arrays.hpp); on the CPU a direct transform stands in for cuFFT.
#include "tegula/libs/fft_arrays.hpp"

#include <cmath>
#include <complex>
#include <vector>

#include "tegula/array/materialize.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

namespace {

// The CPU reference of the problem cuFFT gets (a direct O(n^2) transform in double precision, for tests): packed
// rows of `in` to packed rows of `out`, unnormalised as cuFFT.
template <class R>
void host_dft(const fft_problem& p) {
  using C = std::complex<R>;
  const std::int64_t n = p.shape[0], in_len = p.kind == fft_kind::c2r ? n / 2 + 1 : n;
  const std::int64_t out_len = p.kind == fft_kind::r2c ? n / 2 + 1 : n;
  const double sign = p.inverse || p.kind == fft_kind::c2r ? 1.0 : -1.0;
  std::vector<std::complex<double>> row(static_cast<std::size_t>(n));
  for (std::int64_t b = 0; b < p.batch; ++b) {
    for (std::int64_t j = 0; j < n; ++j) {  // the full input row (c2r: Hermitian symmetry fills the rest)
      if (p.kind == fft_kind::r2c) {
        row[j] = reinterpret_cast<const R*>(p.in)[b * in_len + j];
      } else {
        const C* x = reinterpret_cast<const C*>(p.in) + b * in_len;
        row[j] = p.kind == fft_kind::c2c || j < in_len ? std::complex<double>(x[j]) : std::conj(std::complex<double>(x[n - j]));
      }
    }
    if (p.kind == fft_kind::c2r) {  // as irfft: the imaginary parts of the DC (and Nyquist) terms are ignored
      row[0] = row[0].real();
      if (n % 2 == 0) row[n / 2] = row[n / 2].real();
    }
    for (std::int64_t k = 0; k < out_len; ++k) {
      std::complex<double> acc = 0;
      for (std::int64_t j = 0; j < n; ++j) acc += row[j] * std::polar(1.0, sign * 2 * M_PI * double((j * k) % n) / double(n));
      if (p.kind == fft_kind::c2r) reinterpret_cast<R*>(p.out)[b * out_len + k] = static_cast<R>(acc.real());
      else reinterpret_cast<C*>(p.out)[b * out_len + k] = C(acc);
    }
  }
}

}  // namespace

node_ptr fft_last_axis(const node_ptr& x0, fft_kind kind, std::int64_t n, bool inverse, bool overwrite_input) {
  const node& n0 = input(x0);
  if (n0.shape.empty()) fail(error_kind::invalid_argument, "fft needs at least one axis");
  if (n < 1) fail(error_kind::invalid_argument, "Invalid number of FFT data points (", n, ") specified.");
  const bool complex_in = ir::is_complex(n0.t);
  if (kind == fft_kind::r2c ? (n0.t != ir::dtype::f32 && n0.t != ir::dtype::f64) : !complex_in)
    fail(error_kind::type_error, "cuFFT ", kind == fft_kind::r2c ? "r2c takes float32 or float64" : "takes complex64 or complex128",
         " input, not ", ir::name(n0.t));
  const bool dbl = n0.t == ir::dtype::f64 || n0.t == ir::dtype::c128;
  const std::int64_t in_len = kind == fft_kind::c2r ? n / 2 + 1 : n;
  const std::int64_t out_len = kind == fft_kind::r2c ? n / 2 + 1 : n;
  if (n0.shape.back() != in_len)
    fail(error_kind::invalid_argument, "cuFFT input's last axis has ", n0.shape.back(), " elements, the transform takes ",
         in_len);
  if (inverse && kind == fft_kind::r2c) fail(error_kind::invalid_argument, "an r2c transform is forward only");
  // cuFFT overwrites a c2r input: a private copy unless it is the caller's own
  node_ptr x = contiguous_leaf(x0, kind == fft_kind::c2r && !overwrite_input);
  array::dims shape = n0.shape;
  shape.back() = out_len;
  const ir::dtype out_t = kind == fft_kind::c2c ? n0.t
                        : kind == fft_kind::r2c ? (dbl ? ir::dtype::c128 : ir::dtype::c64)
                                                : (dbl ? ir::dtype::f64 : ir::dtype::f32);
  node_ptr out = empty_like_device(n0, shape, out_t);
  fft_problem p;
  p.kind = kind, p.double_precision = dbl, p.inverse = inverse, p.shape = {n};
  p.batch = n0.size() / in_len;
  p.in = element_address(kind == fft_kind::c2r ? output(x) : input(x));
  p.out = element_address(output(out));
  if (p.batch == 0) return out;
  if (n0.device == array::device_kind::cuda) fft(*n0.gpu, array::array_stream(*n0.gpu), p);
  else if (dbl) host_dft<double>(p);
  else host_dft<float>(p);
  return out;
}

}  // namespace tegula::libs
