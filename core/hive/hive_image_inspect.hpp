// What the views ask of a hive table, answered from a host image (the CPU model's state): slot
// occupancy with the candidate index as displacement, the candidate-index and bucket-fill
// histograms, the bucket strip, slot dumps, the stash's live words and one key's candidates. The
// GPU table answers the same requests with kernels (hive_inspect.cu); both follow the definitions
// here.
#pragma once
#include <utility>

#include "core/hive/hive_image.hpp"
#include "core/table/inspection.hpp"

namespace hs::hive {

void inspect_image(const hive_image& img, const inspect_request& req, inspect_result& out);

/// @brief A slot as the views show it (home: the first slot of the key's first candidate bucket;
/// displacement: the candidate index of the bucket it sits in).
slot_record describe_slot(const hive_image& img, std::uint64_t slot, word_type w);

/// @brief Key k's candidate buckets in order, each filled by read(hive_bucket_before&) from the
/// image or the device (`shape` gives the layout, hashes and geometry); the stash is the
/// caller's.
template <class Read>
hive_key_before key_before(const hive_image& shape, key_type k, Read&& read) {
  hive_key_before kb;
  kb.key = k;
  const candidates c = shape.candidates_of(k);
  for (int i = 0; i < c.count; ++i) {
    hive_bucket_before b;
    b.bucket = c.b[i];
    read(b);
    kb.candidates.push_back(std::move(b));
  }
  return kb;
}

}  // namespace hs::hive
