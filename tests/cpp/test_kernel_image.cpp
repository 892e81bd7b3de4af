// Tests of kernel/image: a translation's cubin, PTX and ptxas resource report through the jit caches, for an arch
// given explicitly, with no GPU and no module load.
#include "tegula/kernel/image.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "nvrtc_available.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

namespace tegula::kernel {
namespace {

translation scale(int arch) {
  const tt::kernel k("scale", {"x", "out", "T"}, [](tt::array x, tt::array out, std::int64_t T) {
    auto b = tt::let("b", tt::bid(0));
    tt::store(out, {b}, tt::load(x, {b}, {T}) * 2.0);
  });
  float x[8], out[8];
  const ir::function f = k.build({tt::view(x, tt::float32, {8}), tt::view(out, tt::float32, {8}), 4});
  target t;
  t.arrays = aligned_layouts(f);
  return translate(f, t, arch);
}

// Every field jit::cache_key hashes (which needs NVRTC loaded, for its version).
void expect_same_request(const jit::compile_request& a, const jit::compile_request& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.options, b.options);
  EXPECT_EQ(a.headers, b.headers);
  EXPECT_EQ(a.name_expressions, b.name_expressions);
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.arch_specific, b.arch_specific);
  EXPECT_EQ(a.kind, b.kind);
}

TEST(KernelImage, RequestsDifferFromTheLaunchOnlyInWhatWasAsked) {
  const translation tr = scale(90);
  expect_same_request(image_request(tr, image_kind::cubin), tr.request);  // what compile() loads
  const jit::compile_request ptx = image_request(tr, image_kind::ptx);
  EXPECT_EQ(ptx.kind, jit::target::ptx);
  EXPECT_EQ(ptx.source, tr.request.source);
  EXPECT_EQ(ptx.options, tr.request.options);
  const jit::compile_request verbose = image_request(tr, image_kind::cubin_with_resources);
  EXPECT_EQ(verbose.kind, jit::target::cubin);
  ASSERT_EQ(verbose.options.size(), tr.request.options.size() + 1);
  EXPECT_EQ(verbose.options.back(), "--ptxas-options=-v");
}

TEST(KernelImage, PtxCubinAndResourcesWithNoGpu) {
  TEGULA_REQUIRE_NVRTC();
  const translation tr = scale(80);
  auto ptx = compile_image(tr, image_kind::ptx);
  EXPECT_EQ(ptx->result->kind, jit::target::ptx);
  EXPECT_NE(ptx->result->code.find(".entry " + tr.source.name), std::string::npos);
  EXPECT_NE(ptx->result->code.find(".target sm_80"), std::string::npos);
  auto cubin = compile_image(tr, image_kind::cubin);
  EXPECT_EQ(cubin->result->code.compare(0, 4, "\x7f" "ELF"), 0);
  EXPECT_EQ(cubin->key, jit::cache_key(tr.request));
  auto verbose = compile_image(tr, image_kind::cubin_with_resources);
  EXPECT_NE(verbose->result->log.find("Compiling entry function '" + tr.source.name + "' for 'sm_80'"),
            std::string::npos) << verbose->result->log;
  EXPECT_NE(verbose->result->log.find("registers"), std::string::npos);
  EXPECT_NE(verbose->key, cubin->key);
  // Through the caches: the same image again is a hit.
  EXPECT_NE(compile_image(tr, image_kind::ptx)->outcome, jit::cache_outcome::compiled);
}

TEST(KernelImage, TheHookIsWhatCompiles) {
  const translation tr = scale(90);
  int calls = 0;
  jit::compile_request seen;
  auto fake = [&](const jit::compile_request& r) {
    ++calls;
    seen = r;
    auto c = std::make_shared<jit::compiled>();
    c->result = std::make_shared<const jit::compile_result>();
    return std::shared_ptr<const jit::compiled>(c);
  };
  compile_image(tr, image_kind::ptx, fake);
  EXPECT_EQ(calls, 1);
  expect_same_request(seen, image_request(tr, image_kind::ptx));
}

TEST(KernelImage, AnInterpreterTranslationHasNone) {
  testing::expect_error([] { compile_image(scale(0), image_kind::cubin); }, error_kind::invalid_argument,
                        "kernel 'scale' was translated for the CPU interpreter: it has no GPU image (translate it "
                        "for an arch)");
}

}  // namespace
}  // namespace tegula::kernel
