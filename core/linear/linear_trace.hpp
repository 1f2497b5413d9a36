// Where one linear-probing operation went, replayed on the slots its probe crossed as the step
// found them (step mode draws it). The rules are the kernels' and the model's: find and erase walk
// from the home slot to the key or the first empty slot; an insert in value mode stops at the key
// (overwrites) or the first empty slot (claims it); in tombstone mode it remembers the first free
// slot it passes (a tombstone or an empty slot) and walks on to the key or an empty slot, and only
// then claims the remembered one: so it never stores a key twice.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/sample_parts.hpp"
#include "core/linear/linear_options.hpp"

namespace hs::linear {

/// @brief What an operation did at one slot of its walk.
enum class walk_role : std::uint8_t {
  passed,      ///< another key (or a tombstone it did not keep): walked on
  first_free,  ///< tombstone mode: the first free slot passed, remembered for the insert
  found,       ///< the key: found, overwritten, or erased here
  claimed,     ///< an insert took this slot
  stop_empty,  ///< the empty slot that ended the walk (a miss, or an insert that claimed earlier)
};
const char* to_string(walk_role r);

struct walk_cell {
  std::uint64_t slot = 0;
  walk_role role = walk_role::passed;
};

struct probe_walk {
  std::vector<walk_cell> cells;          ///< from the home slot on, in probe order
  std::optional<std::uint64_t> decided;  ///< the slot it found, claimed or erased
  bool truncated = false;                ///< the captured slots ended before the walk did
};

/// @brief Replays the operation on `slots` (the slots from its home slot on, as the step found
/// them). A rejected operation walks nothing; a failed_full insert passes every slot.
probe_walk replay_walk(const std::vector<slot_record>& slots, op_kind kind, std::uint64_t k,
                       op_status status, linear_delete_mode mode, bool truncated = false);

/// @brief Whether a capture of the slots from the home slot on may stop after `s`: the walk of
/// this operation cannot go past it (the key, or an empty slot).
bool walk_ends_at(const slot_record& s, std::uint64_t k);

}  // namespace hs::linear
