// The library kernels tegula.numpy's default paths compile at run time (CUB sorts and scans, the chained scan,
// histogram counts, LU substitution, the matrix pass), as the NVRTC requests those paths make: tools/tegula-prebuild compiles them into
// the package, where jit::lookup finds them before it would run NVRTC (issue #26: np.unique's first call waited 1.2 s
// for CUB's compile).
#pragma once
#include <vector>

#include "tegula/jit/nvrtc.hpp"

namespace tegula::libs {

// Every request for compute capability `arch`: radix sorts of the six key types with no, 4- and 8-byte values; CUB
// scans (cumsum, cumprod) of every input dtype into NumPy's accumulator; the chained float32 scan of the default tile
// (with and without its look-back delay); histogram counts; LU substitution in float32 and float64. Requests whose
// headers are missing on this machine (no CCCL) are left out.
std::vector<jit::compile_request> prebuilt_library_requests(int arch);

}  // namespace tegula::libs
