// The linear family's state (table_state.hpp), the same on both backends: part "slots" (capacity
// slot words as stored), number "longest_probe" (the longest probe of any insert since clear,
// which bounds every lookup) and the common counters. The GPU table adds part "reach" (a word per
// region, linear_layout.hpp) to the states it takes; a state without one (the CPU model's) gives
// every region the longest probe, as a rehash does.
#pragma once
#include <cstdint>
#include <string_view>

namespace hs::linear {

inline constexpr std::string_view k_slots_part = "slots";
inline constexpr std::string_view k_reach_part = "reach";
inline constexpr std::string_view k_longest_probe = "longest_probe";

/// @brief Throws hs::user_error, naming `what`, unless `capacity` is one a linear table of
/// `key_bits` keys can have: a power of two from 16 to max_capacity(key_bits).
void check_capacity(std::string_view what, std::uint64_t capacity, unsigned key_bits);
/// @brief Throws hs::user_error unless a state's capacity is one a linear table can have.
void check_state_capacity(std::uint64_t capacity, unsigned key_bits);

}  // namespace hs::linear
