// One on-disk cache entry: who made it (component, readable name, arch) and its checksummed file format.
#include "tegula/jit/cache_entry.hpp"

#include <cstring>

#include "tegula/jit/byte_io.hpp"
#include "tegula/support/sha256.hpp"

namespace tegula::jit {
namespace {

constexpr char magic[4] = {'T', 'G', 'L', 'C'};
constexpr std::size_t head1_size = 4 + 4 + 8 + 32;
constexpr std::size_t head2_size = 4 + 4 + 4 + 8 + 32;
constexpr std::size_t max_meta_size = max_head_size - head2_size;
static_assert(max_meta_size >= 3 * 8 + 16 + max_meta_name + 64, "room for every field of entry_meta");

constexpr const char* names[] = {"unknown", "program", "tile", "array", "cub", "other"};

std::string encode_meta(const entry_meta& meta) {
  std::string out;
  put_field(out, component_name(meta.made_by));
  put_field(out, std::string_view(meta.name).substr(0, max_meta_name));
  put_field(out, std::string_view(meta.arch).substr(0, 64));
  return out;
}

std::optional<entry_meta> decode_meta(std::string_view bytes) {
  byte_reader in(bytes);
  std::string made_by = in.field();
  entry_meta m;
  m.name = in.field();
  m.arch = in.field();
  if (!in.ok() || !in.at_end()) return std::nullopt;
  // A component a later tegula added reads as unknown here, not as damage.
  m.made_by = parse_component(made_by).value_or(component::unknown);
  return m;
}

sha256::digest_t checksum2(std::string_view meta, std::string_view payload) {
  std::string size;
  put_u32(size, std::uint32_t(meta.size()));
  return sha256().update(size).update(meta).update(payload).digest();
}

bool same(const sha256::digest_t& d, std::string_view stored) {
  return stored.size() == d.size() && std::memcmp(d.data(), stored.data(), d.size()) == 0;
}

// The fields of a head: format, meta size, payload size, checksum.
struct head {
  std::uint32_t version = 0;
  std::uint32_t meta_size = 0;
  std::uint64_t payload_size = 0;
  std::string_view checksum;
  std::size_t size = 0;  // bytes before the meta (format 2) or the payload (format 1)
};

std::optional<head> read_head(std::string_view bytes) {
  if (bytes.size() < head1_size || std::memcmp(bytes.data(), magic, 4) != 0) return std::nullopt;
  byte_reader in(bytes.substr(4));
  head h;
  h.version = in.u32();
  if (h.version == 1) {
    h.payload_size = in.u64();
    h.size = head1_size;
  } else if (h.version == 2) {
    h.meta_size = in.u32();
    h.payload_size = in.u64();
    h.size = head2_size;
    if (h.meta_size > max_meta_size) return std::nullopt;
  } else {
    return std::nullopt;
  }
  h.checksum = in.bytes(32);
  if (!in.ok()) return std::nullopt;
  return h;
}

}  // namespace

const char* component_name(component c) {
  const auto i = std::size_t(c);
  return i < std::size(names) ? names[i] : "unknown";
}

std::optional<component> parse_component(std::string_view name) {
  for (std::size_t i = 0; i < std::size(names); ++i)
    if (name == names[i]) return component(i);
  return std::nullopt;
}

const char* component_names() { return "program, tile, array, cub, other, unknown"; }

std::string encode_head(const entry_meta& meta, std::string_view payload) {
  const std::string m = encode_meta(meta);
  std::string h(magic, 4);
  put_u32(h, 2);
  put_u32(h, std::uint32_t(m.size()));
  put_u64(h, payload.size());
  const sha256::digest_t d = checksum2(m, payload);
  h.append(reinterpret_cast<const char*>(d.data()), d.size());
  h += m;
  return h;
}

std::optional<decoded_entry> decode_entry(std::string_view bytes) {
  const std::optional<head> h = read_head(bytes);
  if (!h) return std::nullopt;
  std::string_view rest = bytes.substr(h->size);
  if (rest.size() < h->meta_size || rest.size() - h->meta_size != h->payload_size) return std::nullopt;
  const std::string_view meta = rest.substr(0, h->meta_size);
  const std::string_view payload = rest.substr(h->meta_size);
  decoded_entry e;
  if (h->version == 1) {
    if (!same(sha256().update(payload).digest(), h->checksum)) return std::nullopt;
  } else {
    if (!same(checksum2(meta, payload), h->checksum)) return std::nullopt;
    std::optional<entry_meta> m = decode_meta(meta);
    if (!m) return std::nullopt;
    e.meta = std::move(*m);
  }
  e.payload = std::string(payload);
  return e;
}

std::optional<entry_meta> peek_meta(std::string_view prefix) {
  const std::optional<head> h = read_head(prefix);
  if (!h) return std::nullopt;
  if (h->version == 1) return entry_meta{};
  if (prefix.size() < h->size + h->meta_size) return std::nullopt;
  return decode_meta(prefix.substr(h->size, h->meta_size));
}

}  // namespace tegula::jit
