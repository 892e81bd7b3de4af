// One on-disk cache entry: who made it (component, readable name, arch) and its checksummed file format.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tegula::jit {

// The part of tegula an entry was compiled for. `unknown`: an entry written before entries recorded it (format 1).
enum class component : std::uint8_t {
  unknown,
  program,  // tegula.core.Program
  tile,     // tile kernels (tegula.tile and the C++ tile front end)
  array,    // the fused kernels of the array engine (tegula.numpy)
  cub,      // CUB and the other library kernels JIT'd in libs/
  other,    // any other caller of jit::compile
};

// "unknown", "program", "tile", "array", "cub", "other".
const char* component_name(component c);
// The component of a name component_name gives, else nullopt.
std::optional<component> parse_component(std::string_view name);
// "program, tile, array, cub, other, unknown" (for messages).
const char* component_names();

// What an entry says about itself. Not part of the key: two requests differing only here share an entry, which
// keeps the first writer's description.
struct entry_meta {
  component made_by = component::unknown;
  std::string name;  // the kernel's name (cut to max_meta_name bytes)
  std::string arch;  // "sm_90", "sm_90a" (arch-specific) or "compute_90" (PTX)
};

inline constexpr std::size_t max_meta_name = 200;
// An entry's head (everything before the payload) is never longer than this.
inline constexpr std::size_t max_head_size = 52 + 1024;

// Format 2: "TGLC", u32 2, u32 meta size, u64 payload size, sha256(u32 meta size, meta, payload), meta, payload
// (integers little-endian; meta = the component's name, name, arch, each a u64 length and bytes). Format 1, which
// entries written before had: "TGLC", u32 1, u64 payload size, sha256(payload), payload; it still decodes, with
// made_by unknown. Writers write format 2.
std::string encode_head(const entry_meta& meta, std::string_view payload);

struct decoded_entry {
  entry_meta meta;
  std::string payload;
};
// The entry in `bytes` if they are one whole, undamaged entry (either format), else nullopt.
std::optional<decoded_entry> decode_entry(std::string_view bytes);

// The metadata in the first bytes of an entry file (up to max_head_size of them), without checking the checksum
// (for listing, which reads no payload); nullopt when they do not start an entry.
std::optional<entry_meta> peek_meta(std::string_view prefix);

}  // namespace tegula::jit
