// The linear family's state (table_state.hpp), the same on both backends: part "slots" (capacity
// slot words as stored), number "longest_probe" (the longest probe of any insert since clear,
// which bounds every lookup) and the common counters. The GPU table adds part "reach" (a word per
// region, linear_layout.hpp) to the states it takes; a state without one (the CPU model's) gives
// every region the longest probe, as a rehash does.
//
// Number "home_line" says how many slots a home was aligned to when the state was taken
// (k_home_line, linear_layout.hpp). 64-bit tables' homes moved to their 64-byte line's first slot
// on 2026-11-27; a 64-bit state without the number (a table file saved before) has its keys placed
// again when it is restored (relaid_wide_slots), since a lookup from the new home could stop at an
// empty slot short of a key placed from the old one.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/linear/linear_layout.hpp"
#include "core/table/table.hpp"

namespace hs {
struct table_state;
}

namespace hs::linear {

inline constexpr std::string_view k_slots_part = "slots";
inline constexpr std::string_view k_reach_part = "reach";
inline constexpr std::string_view k_longest_probe = "longest_probe";
inline constexpr std::string_view k_home_line_number = "home_line";

/// @brief Whether a 64-bit state's keys were placed from homes as this build takes them (its
/// "home_line" number; states written before 64-bit homes moved to line starts have none).
bool wide_homes_current(const table_state& st);
/// @brief A 64-bit state's slots placed from line-start homes: every key that held a slot (live, or
/// erased by value) inserted again in slot order into a CPU model of `cfg`, an erased one erased
/// again; tombstones (free slots) are dropped. `longest` becomes the new slots' longest probe.
std::vector<wide_slot> relaid_wide_slots(const table_config& cfg, const std::vector<wide_slot>& old,
                                         std::uint32_t& longest);

/// @brief Throws hs::user_error, naming `what`, unless `capacity` is one a linear table of
/// width `w` can have: a power of two from 16 to max_capacity(w).
void check_capacity(std::string_view what, std::uint64_t capacity, key_width w);
/// @brief Throws hs::user_error unless a state's capacity is one a linear table can have.
void check_state_capacity(std::uint64_t capacity, key_width w);

}  // namespace hs::linear
