// Shared by the history tests on both backends: what a session's table and records look like now,
// and the Back/Forward round every family goes through.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "app/session/session.hpp"

namespace hs::test {

/// @brief The table and the session's counts and records, to compare before and after.
struct table_snapshot {
  std::vector<std::pair<key_type, value_type>> pairs;
  std::uint64_t live = 0, batches = 0, capacity = 0, rejected = 0;
  std::size_t throughput = 0, events = 0;
  bool operator==(const table_snapshot&) const = default;
};
table_snapshot table_now(app::session& s);

/// @brief Fills, steps typed keys, rehashes and fills again; Back a command at a time, checking the
/// table, counts and records each time; Forward three, checking the pairs are what they were.
void check_back_and_forward(family f, backend b);

}  // namespace hs::test
