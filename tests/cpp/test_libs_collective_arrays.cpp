// Tests of the NCCL collectives over engine arrays (libs/collective_arrays) without a GPU: the checks that come
// before anything is issued (ranks, arrays per rank, reductions, roots) answer bad input with an error. The
// collectives themselves run in tests/gpu/test_gpu_collectives.py.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tegula/array/ndarray.hpp"
#include "tegula/libs/collective_arrays.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using array::ndarray;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

TEST(CollectiveArrays, NoRanksIsAnErrorNotACrash) {
  ndarray x = ndarray::from_vector(std::vector<double>{1, 2, 3}, {3}, array::where_to::cpu());
  EXPECT_NE(message_of([&] { all_reduce({}, {x.handle()}, "sum"); }).find("no ranks"), std::string::npos);
  EXPECT_NE(message_of([&] { all_gather({}, {}); }).find("no ranks"), std::string::npos);
  EXPECT_NE(message_of([&] { reduce_scatter({}, {}, "sum"); }).find("no ranks"), std::string::npos);
}

TEST(CollectiveArrays, ANullCommunicatorIsAnError) {
  ndarray x = ndarray::from_vector(std::vector<double>{1, 2, 3}, {3}, array::where_to::cpu());
  EXPECT_NE(message_of([&] { all_reduce({nullptr}, {x.handle()}, "sum"); }).find("null communicator"),
            std::string::npos);
}

TEST(CollectiveArrays, AnUnknownReductionOrRootIsNamedBeforeAnythingRuns) {
  EXPECT_NE(message_of([] { all_reduce({}, {}, "mean"); }).find("'mean'"), std::string::npos);
  EXPECT_NE(message_of([] { reduce_scatter({}, {}, "median"); }).find("'median'"), std::string::npos);
  EXPECT_NE(message_of([] { broadcast({}, {}, 0); }).find("root 0 is not a rank of 0..-1"), std::string::npos);
  EXPECT_NE(message_of([] { broadcast({}, {}, -1); }).find("root -1"), std::string::npos);
}

}  // namespace
}  // namespace tegula::libs
