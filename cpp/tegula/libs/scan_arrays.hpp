// One-pass scans of engine arrays: which engine runs (tegula's chained scan, libs/chained_scan.hpp, or CUB's,
// libs/cub_scan.hpp) and its tuned tile are chosen here, not by callers.
#pragma once
#include <string>

#include "tegula/array/expr.hpp"
#include "tegula/libs/chained_scan.hpp"

namespace tegula::libs {

// The engine a long float32 row takes: chained (the default) or cub (every other dtype takes CUB's), and the
// chained scan's tile. The default tile was measured best on the H200 over 2^28 float32 (session 9, run 4:
// 3801-3819 GB/s kernel alone against CUB's 3295 in the same run; the whole tnp.cumsum 3726): 128 threads x 64
// items per block, one tile per block taken by block index, streaming stores, one warp looking back after a 500 ns
// pause per poll, each tile's status word on its own 128-byte line (packed words: polls of blocks looking back at
// once met in the same L2 lines, 3389 GB/s). bench/workloads/scan.py sweeps tiles through set_scan_engine.
enum class scan_engine { chained, cub };
struct scan_settings {
  scan_engine engine = scan_engine::chained;
  chained_scan_problem tile = default_chained_tile();  // in/out/n/multiply unused
  static chained_scan_problem default_chained_tile();
};
const scan_settings& current_scan_settings();
void set_scan_settings(const scan_settings& s);
std::string scan_engine_name(scan_engine e);
scan_engine scan_engine_from_name(const std::string& name);  // ValueError naming the engines

// The dtype a scan of t accumulates in and returns (NumPy's cumsum/cumprod: bool and signed ints int64, unsigned
// uint64, floats their own).
ir::dtype scan_accumulator(ir::dtype t);

// The inclusive sum (or product) of x's elements in C order, in NumPy's cumsum dtype (bool and signed ints: int64,
// unsigned: uint64, floats keep), on x's CUDA device (the CPU: a sequential reference, for tests): a new C-contiguous array of x's shape. x's dtype: bool, an
// integer, float32 or float64.
array::node_ptr inclusive_scan(const array::node_ptr& x, bool multiply);

}  // namespace tegula::libs
