// Duplicate keys by an LSD radix sort in 16-bit passes (two for 32-bit keys, four for 64-bit ones).
#include "core/common/duplicate_keys.hpp"

namespace hs {

namespace {
template <class K>
std::vector<K> duplicates_of(std::vector<K>& keys, std::size_t limit) {
  std::vector<K> other(keys.size());
  std::vector<std::size_t> start(1u << 16);
  for (unsigned shift = 0; shift < 8 * sizeof(K); shift += 16) {
    std::fill(start.begin(), start.end(), 0);
    for (K k : keys) ++start[(k >> shift) & 0xffffu];
    std::size_t at = 0;
    for (auto& s : start) {
      const std::size_t n = s;
      s = at;
      at += n;
    }
    for (K k : keys) other[start[(k >> shift) & 0xffffu]++] = k;
    keys.swap(other);
  }
  std::vector<K> dup;
  for (std::size_t i = 1; i < keys.size() && dup.size() < limit; ++i)
    if (keys[i] == keys[i - 1] && (dup.empty() || dup.back() != keys[i])) dup.push_back(keys[i]);
  return dup;
}
}  // namespace

std::vector<key_type> duplicated_keys(std::vector<key_type>& keys, std::size_t limit) {
  return duplicates_of(keys, limit);
}
std::vector<wide_key> duplicated_keys(std::vector<wide_key>& keys, std::size_t limit) {
  return duplicates_of(keys, limit);
}

}  // namespace hs
