// Names of the hash policies.
#include "core/common/hash.hpp"

#include <array>

namespace hs {

namespace {
constexpr std::array k_hashes{hash_kind::murmur3, hash_kind::knuth, hash_kind::identity,
                              hash_kind::universal};
}

std::string_view to_string(hash_kind h) {
  switch (h) {
    case hash_kind::murmur3: return "murmur3";
    case hash_kind::knuth: return "knuth";
    case hash_kind::identity: return "identity";
    case hash_kind::universal: return "universal";
  }
  return "?";
}

std::optional<hash_kind> parse_hash_kind(std::string_view name) {
  for (hash_kind h : k_hashes)
    if (to_string(h) == name) return h;
  return std::nullopt;
}

std::span<const hash_kind> all_hash_kinds() { return k_hashes; }

}  // namespace hs
