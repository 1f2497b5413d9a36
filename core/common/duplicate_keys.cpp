// Duplicate keys by an LSD radix sort of 32-bit keys in two 16-bit passes.
#include "core/common/duplicate_keys.hpp"

namespace hs {

std::vector<key_type> duplicated_keys(std::vector<key_type>& keys, std::size_t limit) {
  std::vector<key_type> other(keys.size());
  std::vector<std::size_t> start(1u << 16);
  for (int shift : {0, 16}) {
    std::fill(start.begin(), start.end(), 0);
    for (key_type k : keys) ++start[(k >> shift) & 0xffffu];
    std::size_t at = 0;
    for (auto& s : start) {
      const std::size_t n = s;
      s = at;
      at += n;
    }
    for (key_type k : keys) other[start[(k >> shift) & 0xffffu]++] = k;
    keys.swap(other);
  }
  std::vector<key_type> dup;
  for (std::size_t i = 1; i < keys.size() && dup.size() < limit; ++i)
    if (keys[i] == keys[i - 1] && (dup.empty() || dup.back() != keys[i])) dup.push_back(keys[i]);
  return dup;
}

}  // namespace hs
