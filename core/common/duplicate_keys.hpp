// Finding keys stored more than once, for the invariant checkers: a radix sort (passes of 16
// bits) instead of a comparison sort or a hash set, so a check of 2^24 slots takes a fraction of
// a second and can run after every batch of a test.
#pragma once
#include <cstddef>
#include <vector>

#include "core/common/types.hpp"

namespace hs {

/// @brief The keys that occur more than once in `keys` (each named once, ascending, at most
/// `limit` of them); `keys` is reordered.
std::vector<key_type> duplicated_keys(std::vector<key_type>& keys, std::size_t limit = 16);
std::vector<wide_key> duplicated_keys(std::vector<wide_key>& keys, std::size_t limit = 16);

}  // namespace hs
