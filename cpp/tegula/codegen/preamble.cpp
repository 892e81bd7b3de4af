// The small device-side prelude of every generated kernel: only the helpers the kernel uses.
#include "tegula/codegen/preamble.hpp"

namespace tegula::codegen {
namespace {

// float16 as unsigned short bits; conversions are single PTX instructions (round to nearest even).
const char* f16_text = R"(__device__ __forceinline__ float tg_h2f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short tg_f2h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ float tg_rh(float f) { return tg_h2f(tg_f2h(f)); }
)";

const char* bf16_hw_text = R"(__device__ __forceinline__ float tg_bf2f(unsigned short b) { return __uint_as_float((unsigned)b << 16); }
__device__ __forceinline__ unsigned short tg_f2bf(float f) { unsigned short b; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f)); return b; }
__device__ __forceinline__ float tg_rbf(float f) { return tg_bf2f(tg_f2bf(f)); }
)";

const char* bf16_sw_text = R"(__device__ __forceinline__ float tg_bf2f(unsigned short b) { return __uint_as_float((unsigned)b << 16); }
__device__ __forceinline__ unsigned short tg_f2bf(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);  // quiet NaN
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);                 // nearest even
}
__device__ __forceinline__ float tg_rbf(float f) { return tg_bf2f(tg_f2bf(f)); }
)";

// float8_e4m3fn (bias 7, no infinities, S.1111.111 is NaN, largest 448) and float8_e5m2 (IEEE-like,
// bias 15) as unsigned char bits; float -> 8 bits rounds to nearest even in software (any arch), past the
// largest finite value giving NaN (e4m3fn) or infinity (e5m2), as torch and ml_dtypes convert.
const char* f8_text = R"(__device__ __forceinline__ float tg_e4m3_to_f(unsigned char b) {
  const unsigned e = (b >> 3) & 15u, m = b & 7u;
  float v = e == 0 ? (float)m * 0.001953125f : __uint_as_float(((e + 120u) << 23) | (m << 20));
  if ((b & 0x7fu) == 0x7fu) v = __uint_as_float(0x7fc00000u);
  return (b & 0x80u) ? -v : v;
}
__device__ __forceinline__ unsigned char tg_f_to_e4m3(float f) {
  const unsigned s = (__float_as_uint(f) >> 24) & 0x80u;
  const float a = fabsf(f);
  if (!(a <= 464.0f)) return (unsigned char)(s | 0x7fu);
  if (a < 0.015625f) return (unsigned char)(s | (unsigned)rintf(a * 512.0f));
  const unsigned u = __float_as_uint(a);
  return (unsigned char)(s | (((u + 0x7ffffu + ((u >> 20) & 1u)) >> 20) - (120u << 3)));
}
__device__ __forceinline__ float tg_e5m2_to_f(unsigned char b) {
  const unsigned e = (b >> 2) & 31u, m = b & 3u;
  float v = e == 0 ? (float)m * 1.52587890625e-05f : __uint_as_float(((e + 112u) << 23) | (m << 21));
  if (e == 31u) v = m ? __uint_as_float(0x7fc00000u) : __uint_as_float(0x7f800000u);
  return (b & 0x80u) ? -v : v;
}
__device__ __forceinline__ unsigned char tg_f_to_e5m2(float f) {
  const unsigned s = (__float_as_uint(f) >> 24) & 0x80u;
  const float a = fabsf(f);
  if (a != a) return (unsigned char)(s | 0x7fu);
  if (a >= 61440.0f) return (unsigned char)(s | 0x7cu);
  if (a < 6.103515625e-05f) return (unsigned char)(s | (unsigned)rintf(a * 65536.0f));
  const unsigned u = __float_as_uint(a);
  return (unsigned char)(s | (((u + 0xfffffu + ((u >> 21) & 1u)) >> 21) - (112u << 2)));
}
__device__ __forceinline__ float tg_r8e4(float f) { return tg_e4m3_to_f(tg_f_to_e4m3(f)); }
__device__ __forceinline__ float tg_r8e5(float f) { return tg_e5m2_to_f(tg_f_to_e5m2(f)); }
)";

// double -> float rounding to odd, then float -> narrow to nearest even: equals one rounding of the
// double (float has more than twice the narrow types' precision plus two bits).
const char* narrow_from_double_text = R"(__device__ __forceinline__ float tg_d2f_odd(double d) {
  float r = __double2float_rz(d);
  if ((double)r != d && d == d) r = __uint_as_float(__float_as_uint(r) | 1u);
  return r;
}
)";

// Python/NumPy integer floor division and modulo (sign of the divisor), powers by squaring,
// shifts that give 0 (or -1) for counts past the width as NumPy does.
const char* int_arith_text = R"(template <class T> __device__ __forceinline__ T tg_floordiv_i(T a, T b) { T q = (T)(a / b); if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q = (T)(q - 1); return q; }
template <class T> __device__ __forceinline__ T tg_mod_i(T a, T b) { T r = (T)(a % b); if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b); return r; }
template <class T, class U> __device__ __forceinline__ T tg_ipow_u(T a, T b) {
  U r = 1, x = (U)a; unsigned long long e = (unsigned long long)b;
  while (e) { if (e & 1ull) r = (U)(r * x); x = (U)(x * x); e >>= 1; }
  return (T)r;
}
template <class T, class U> __device__ __forceinline__ T tg_ipow_s(T a, T b) {
  if (b < 0) return (T)(a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0));
  return tg_ipow_u<T, U>(a, b);
}
template <class T> __device__ __forceinline__ T tg_shl(T a, T b) { return (unsigned long long)(long long)b < sizeof(T) * 8 ? (T)((unsigned long long)(long long)a << (int)b) : (T)0; }
template <class T> __device__ __forceinline__ T tg_shr_s(T a, T b) { return (unsigned long long)(long long)b < sizeof(T) * 8 ? (T)(a >> (int)b) : (T)(a < 0 ? -1 : 0); }
template <class T> __device__ __forceinline__ T tg_shr_u(T a, T b) { return (unsigned long long)b < sizeof(T) * 8 ? (T)(a >> (int)b) : (T)0; }
)";

// NumPy's floor_divide / remainder for floats (npy_divmod).
const char* float_arith_text = R"(__device__ __forceinline__ float tg_mod_f(float a, float b) {
  float m = fmodf(a, b);
  if (b == 0.0f) return m;
  if (m != 0.0f) { if ((b < 0.0f) != (m < 0.0f)) m += b; } else m = copysignf(0.0f, b);
  return m;
}
__device__ __forceinline__ float tg_floordiv_f(float a, float b) {
  if (b == 0.0f) return a / b;
  float m = fmodf(a, b), d = (a - m) / b;
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) d -= 1.0f;
  if (d == 0.0f) return copysignf(0.0f, a / b);
  float q = floorf(d);
  if (d - q > 0.5f) q += 1.0f;
  return q;
}
__device__ __forceinline__ double tg_mod_d(double a, double b) {
  double m = fmod(a, b);
  if (b == 0.0) return m;
  if (m != 0.0) { if ((b < 0.0) != (m < 0.0)) m += b; } else m = copysign(0.0, b);
  return m;
}
__device__ __forceinline__ double tg_floordiv_d(double a, double b) {
  if (b == 0.0) return a / b;
  double m = fmod(a, b), d = (a - m) / b;
  if (m != 0.0 && ((b < 0.0) != (m < 0.0))) d -= 1.0;
  if (d == 0.0) return copysign(0.0, a / b);
  double q = floor(d);
  if (d - q > 0.5) q += 1.0;
  return q;
}
)";

// argmax/argmin: is candidate (b, ib) better than (a, ia)? NaN wins (NumPy), ties take the lower index.
const char* arg_best_text = R"(template <class T> __device__ __forceinline__ bool tg_better_max(T a, int ia, T b, int ib) {
  bool an = a != a, bn = b != b;
  if (an || bn) return bn && (!an || ib < ia);
  return b > a || (b == a && ib < ia);
}
template <class T> __device__ __forceinline__ bool tg_better_min(T a, int ia, T b, int ib) {
  bool an = a != a, bn = b != b;
  if (an || bn) return bn && (!an || ib < ia);
  return b < a || (b == a && ib < ia);
}
)";

// Atomic read-modify-write of any element type by compare-and-swap; 1- and 2-byte elements swap
// the aligned 32-bit word that contains them.
const char* atomics_text = R"(template <int N> struct tg_uint;
template <> struct tg_uint<1> { typedef unsigned char type; };
template <> struct tg_uint<2> { typedef unsigned short type; };
template <> struct tg_uint<4> { typedef unsigned type; };
template <> struct tg_uint<8> { typedef unsigned long long type; };
template <class To, class From> __device__ __forceinline__ To tg_bits(From x) { union { From f; To t; } u; u.f = x; return u.t; }
template <class S, class F> __device__ S tg_atomic_update(S* p, F f) {
  typedef typename tg_uint<sizeof(S)>::type W;
  if constexpr (sizeof(S) >= 4) {
    W* q = reinterpret_cast<W*>(p);
    W old = *reinterpret_cast<volatile W*>(q), assumed;
    do { assumed = old; old = atomicCAS(q, assumed, tg_bits<W>(f(tg_bits<S>(assumed)))); } while (old != assumed);
    return tg_bits<S>(old);
  } else {
    unsigned* q = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned long long>(p) & ~3ull);
    const unsigned shift = (unsigned)(reinterpret_cast<unsigned long long>(p) & 3ull) * 8u;
    const unsigned mask = (unsigned)(W)~(W)0 << shift;
    unsigned old = *reinterpret_cast<volatile unsigned*>(q), assumed;
    do {
      assumed = old;
      const W next = tg_bits<W>(f(tg_bits<S>((W)((assumed & mask) >> shift))));
      old = atomicCAS(q, assumed, (assumed & ~mask) | ((unsigned)next << shift));
    } while (old != assumed);
    return tg_bits<S>((W)((old & mask) >> shift));
  }
}
)";

}  // namespace

std::string preamble(const preamble_needs& n, int arch) {
  std::string s = "// tegula generated kernel: no includes (NVRTC's built-ins only).\n";
  if (n.f16 || n.narrow_from_double) s += f16_text;
  if (n.bf16 || n.narrow_from_double) s += arch >= 80 ? bf16_hw_text : bf16_sw_text;
  if (n.f8) s += f8_text;
  if (n.narrow_from_double) {
    s += narrow_from_double_text;
    s += "__device__ __forceinline__ float tg_rh_d(double d) { return tg_rh(tg_d2f_odd(d)); }\n";
    s += "__device__ __forceinline__ float tg_rbf_d(double d) { return tg_rbf(tg_d2f_odd(d)); }\n";
    if (n.f8) {
      s += "__device__ __forceinline__ float tg_r8e4_d(double d) { return tg_r8e4(tg_d2f_odd(d)); }\n";
      s += "__device__ __forceinline__ float tg_r8e5_d(double d) { return tg_r8e5(tg_d2f_odd(d)); }\n";
    }
  }
  if (n.int_arith) s += int_arith_text;
  if (n.float_arith) s += float_arith_text;
  if (n.arg_best) s += arg_best_text;
  if (n.atomics) s += atomics_text;
  return s;
}

}  // namespace tegula::codegen
