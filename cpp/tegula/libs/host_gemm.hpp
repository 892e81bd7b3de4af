// The CPU reference of a cuBLASLt problem (cublaslt.hpp's matmul_problem over host memory): the same operand
// layouts, scales, C, bias, epilogue and aux output, so tests on the CPU check what the library is handed.
#pragma once
#include "tegula/libs/cublaslt.hpp"

namespace tegula::libs {

// D = act(alpha * op(A) @ op(B) + beta * C + bias) and aux = the value before act, as cuBLASLt computes them
// (gelu: its tanh form), summed in double (complex: complex<double>) and rounded once to `out`. Reads C only when
// p.c is set (and beta != 0). Complex products take no epilogue; float8 inputs are read as their values.
void host_matmul(const matmul_problem& p);

// cuBLASLt's gelu: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
double gelu_tanh(double x);

}  // namespace tegula::libs
