// The mma op on the interpreter (see matmul.hpp).
#include "tegula/interp/matmul.hpp"

#include <cstring>
#include <vector>

#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

// float32 -> TF32 by dropping the 13 low mantissa bits (what the tensor cores do with float32 data).
double to_tf32(double x) {
  float f = float(x);
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  u &= 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

tile_value apply_mma(const tile_value& a, const tile_value& b, const tile_value& acc, bool tf32) {
  if (a.rank() != 2 || b.rank() != 2 || acc.rank() != 2) fail_op("mma needs 2-D tiles");
  const std::int64_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
  if (b.shape()[0] != K || acc.shape()[0] != M || acc.shape()[1] != N) fail_op("mma: operand shapes do not match");
  tile_value out(acc.dtype(), acc.shape());
  if (acc.kind() == repr::real) {
    std::vector<double> x(a.data<double>(), a.data<double>() + M * K), y(b.data<double>(), b.data<double>() + K * N);
    if (tf32) {
      for (double& v : x) v = to_tf32(v);
      for (double& v : y) v = to_tf32(v);
    }
    const double* c = acc.data<double>();
    double* o = out.data<double>();
    std::vector<double> row(static_cast<std::size_t>(N), 0.0);
    for (std::int64_t i = 0; i < M; ++i) {
      for (std::int64_t j = 0; j < N; ++j) row[std::size_t(j)] = c[i * N + j];
      for (std::int64_t k = 0; k < K; ++k) {
        const double s = x[std::size_t(i * K + k)];
        const double* yr = y.data() + k * N;
        for (std::int64_t j = 0; j < N; ++j) row[std::size_t(j)] += s * yr[j];
      }
      for (std::int64_t j = 0; j < N; ++j) o[i * N + j] = row[std::size_t(j)];
    }
  } else {
    // Integer products wrap modulo 2^64 before the final wrap to acc's width: the same value as any
    // order of exact int32/int64 accumulation.
    auto element = [](const tile_value& t, std::int64_t i) -> std::uint64_t {
      return t.kind() == repr::uint ? t.data<std::uint64_t>()[i] : std::uint64_t(t.data<std::int64_t>()[i]);
    };
    std::uint64_t* o = out.data<std::uint64_t>();
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        std::uint64_t s = element(acc, i * N + j);
        for (std::int64_t k = 0; k < K; ++k) s += element(a, i * K + k) * element(b, k * N + j);
        o[i * N + j] = s;
      }
  }
  out.normalize();
  return out;
}

}  // namespace tegula::interp
