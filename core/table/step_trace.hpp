// What one traced step did: its operations, their outcomes, and what each operation found just
// before the step ran (open addressing: the slots from its home slot on; the slab family: its
// bucket list; the hive: its candidate buckets), so a view can replay where each one went. A
// family's own records are declared in its family.cmake (hs_family_parts) and arrive through the
// generated family_parts.hpp.
// The session records one for a step of at most k_traced_step_ops operations.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/sample_parts.hpp"
#include "core/common/types.hpp"
#include "core/table/family_parts.hpp"  // generated: every family's own records

namespace hs {

inline constexpr std::uint64_t k_traced_step_ops = 64;
inline constexpr std::uint32_t k_traced_walk_slots = 512;

struct stepped_op : family_step_records {
  op_kind kind = op_kind::find;
  // Keys and values as wide as the widest table's (a 32-bit table's fit); the table's key bits say
  // which are reserved.
  std::uint64_t key = 0;
  std::uint64_t value = 0;  ///< the value an insert stores
  op_status status = op_status::none;
  std::uint64_t result = 0;               ///< what a find returned
  std::vector<slot_record> probe_before;  ///< open addressing: the slots from the home slot on, to
                                          ///< where the walk must end (at most k_traced_walk_slots)
  bool probe_truncated = false;           ///< the walk goes on past the captured slots
  /// Open addressing: the slot holding the key once the step ran (where an insert landed).
  std::optional<std::uint64_t> slot_after;
  /// Whether it ended otherwise than the last time the same operations ran from the same point
  /// (Back, then Step again): another status, result or slot; and the slot it had then.
  bool changed = false;
  std::optional<std::uint64_t> slot_last_run;
};

struct step_trace {
  std::uint64_t serial = 0;  ///< counts traced steps: a view notices a new one
  std::vector<stepped_op> ops;
  /// Which run of these operations from this point it is (1: the first; Back and Step again
  /// runs them again, and concurrent operations may race otherwise on the GPU).
  std::uint64_t run = 1;
  std::uint64_t changed = 0;  ///< operations that ended otherwise than in the run before
};

}  // namespace hs
