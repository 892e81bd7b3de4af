// compile_result <-> bytes: the payload the disk cache stores for one compiled program.
#include "tegula/jit/result_codec.hpp"

#include "tegula/jit/byte_io.hpp"

namespace tegula::jit {
namespace {

// Bump when the layout below changes; old payloads then decode as misses and are recompiled.
constexpr std::uint32_t payload_version = 1;

}  // namespace

// Layout: u32 version, u32 kind, field code, field log, u64 count, count x (field, field).
std::string encode_result(const compile_result& result) {
  std::string out;
  out.reserve(result.code.size() + result.log.size() + 64);
  put_u32(out, payload_version);
  put_u32(out, result.kind == target::cubin ? 0 : 1);
  put_field(out, result.code);
  put_field(out, result.log);
  put_u64(out, result.lowered_names.size());
  for (const auto& [expr, lowered] : result.lowered_names) {
    put_field(out, expr);
    put_field(out, lowered);
  }
  return out;
}

std::optional<compile_result> decode_result(std::string_view payload) {
  byte_reader in(payload);
  if (in.u32() != payload_version || !in.ok()) return std::nullopt;
  std::uint32_t kind = in.u32();
  if (kind > 1) return std::nullopt;
  compile_result r;
  r.kind = kind == 0 ? target::cubin : target::ptx;
  r.code = in.field();
  r.log = in.field();
  std::uint64_t count = in.u64();
  // Each pair takes at least 16 bytes, which bounds count before anything is allocated.
  if (!in.ok() || count > in.remaining() / 16) return std::nullopt;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string expr = in.field();
    std::string lowered = in.field();
    r.lowered_names.emplace_back(std::move(expr), std::move(lowered));
  }
  if (!in.ok() || !in.at_end()) return std::nullopt;
  return r;
}

}  // namespace tegula::jit
