// What the views ask of a hive table, answered from a host image (the CPU model's state): slot
// occupancy with the candidate index as displacement, the candidate-index and bucket-fill
// histograms, the bucket strip, slot dumps and the stash's live words. The GPU table answers the
// same requests with kernels (hive_inspect.cu); both follow the definitions here.
#pragma once
#include "core/hive/hive_image.hpp"
#include "core/table/inspection.hpp"

namespace hs::hive {

void inspect_image(const hive_image& img, const inspect_request& req, inspect_result& out);

/// @brief A slot as the views show it (home: the first slot of the key's first candidate bucket;
/// displacement: the candidate index of the bucket it sits in).
slot_record describe_slot(const hive_image& img, std::uint64_t slot, word_type w);

}  // namespace hs::hive
