// The small device-side prelude of every generated kernel: only the helpers the kernel uses.
#pragma once
#include <string>

namespace tegula::codegen {

// Which helper groups a kernel needs (set while emitting its body).
struct preamble_needs {
  bool f16 = false;         // tg_h2f, tg_f2h, tg_rh (float16 bits <-> float, round)
  bool bf16 = false;        // tg_bf2f, tg_f2bf, tg_rbf
  bool f8 = false;          // float8_e4m3fn / float8_e5m2 bits <-> float, tg_r8e4, tg_r8e5
  bool narrow_from_double = false;  // tg_rh_d / tg_rbf_d: double -> narrow with a single rounding
  bool int_arith = false;   // tg_floordiv_i, tg_mod_i, tg_ipow_*, tg_shl, tg_shr_*
  bool float_arith = false; // tg_floordiv_f/d, tg_mod_f/d
  bool arg_best = false;    // tg_better_max / tg_better_min (argmax / argmin)
  bool atomics = false;     // tg_bits, tg_atomic_update (compare-and-swap loops)
};

// The prelude text; `arch` selects hardware bfloat16 conversion (sm_80 and newer). No includes:
// it compiles with NVRTC given no include paths (DESIGN.md: first-call latency).
std::string preamble(const preamble_needs& needs, int arch);

}  // namespace tegula::codegen
