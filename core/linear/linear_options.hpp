// The linear family's options: how it deletes, how it probes and how its GPU kernels run
// (table_config holds them).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/auto_on_off.hpp"

namespace hs {

/// @brief How the linear family deletes. `value` (A Simple GPU Hash Table): the key keeps its slot
/// and only the value is emptied, so erase runs concurrently with everything. `tombstone` (Reusing
/// Deleted Slots): the key becomes a tombstone that later inserts reuse; inserts and erases then
/// run in separate phases (the table orders them itself, see linear_table.hpp), lookups
/// concurrently with either.
enum class linear_delete_mode : std::uint8_t { value, tombstone };
std::string_view to_string(linear_delete_mode m);
std::optional<linear_delete_mode> parse_delete_mode(std::string_view s);

/// @brief How a key's probe moves on from its home slot: `linear`, one slot at a time (seeds 000,
/// 002), or `double_hash`, a sector of 4 slots at a time, stepping by a second hash of the key
/// forced odd (with a power-of-two capacity every slot is reached). Double hashing breaks up
/// clusters at the price of a new sector per probe.
enum class probe_policy : std::uint8_t { linear, double_hash };
std::string_view to_string(probe_policy p);
std::optional<probe_policy> parse_probe_policy(std::string_view s);

/// @brief Execution choices of the linear GPU table. None changes what the table stores; the
/// defaults are the fastest measured on the H200 (bench linear, seed-linear).
struct linear_tuning {
  int group = 0;  ///< threads per operation: 1, 4 or 8 (0: automatic, 1)
  auto_on_off cas_first =
      auto_on_off::automatic;  ///< claim the home slot blindly first (automatic: below load 0.08)
  auto_on_off partition =
      auto_on_off::automatic;  ///< group large insert batches by table region first (automatic:
                               ///< an eighth of the table or more, tables larger than the L2,
                               ///< no statuses asked)
  /// 64-bit tables: claim a slot with one 16-byte CAS (automatic and on: where the code that runs
  /// has it, code for sm_90 and up; on refuses where it does not) or off: a CAS of the key, then
  /// the value (linear_ref.cuh says what a lookup may see meanwhile).
  auto_on_off pair_cas = auto_on_off::automatic;
};

/// @brief Everything a linear table is made with beyond the common settings: what it stores and
/// how (delete mode, probing) and how its kernels run (tuning).
struct linear_options {
  linear_delete_mode deletes = linear_delete_mode::value;
  probe_policy probe = probe_policy::linear;
  linear_tuning tuning;
};

/// @brief "group auto, cas-first auto, partition auto".
std::string describe(const linear_tuning& t);

}  // namespace hs
