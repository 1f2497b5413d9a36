// A table's exact state, as its family writes it down: named arrays of bytes (the slots, the slab
// pool, the hive's buckets) and named numbers (counters, the hive's round and split pointer). Both
// backends of a family write the same parts with the same layout, so a state taken from the GPU
// table restores into the CPU model and back; a session's history keeps states in the table's own
// memory (device memory for GPU tables: a copy at memory speed), a table file keeps them on disk
// (table_file.hpp). The family's parts are described in its folder's README.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/table/table.hpp"

namespace hs {

struct state_part {
  std::string name;
  buffer<std::byte> bytes;
};

struct table_state {
  table_config config;  ///< the table's config when the state was taken (its capacity then)
  std::vector<state_part> parts;
  std::vector<std::pair<std::string, std::uint64_t>> numbers;

  /// @brief Bytes the parts hold.
  std::uint64_t bytes() const;
  /// @brief The part `name`, or null.
  const state_part* find(std::string_view name) const;
  /// @brief The part `name`; throws hs::user_error naming what is missing.
  const state_part& part(std::string_view name) const;
  /// @brief The number `name`; throws hs::user_error naming what is missing.
  std::uint64_t number(std::string_view name) const;
  void set_number(std::string name, std::uint64_t value) {
    numbers.emplace_back(std::move(name), value);
  }

  /// @brief Appends a copy of `count` elements at `src` (in `from`) as a part in `space`.
  template <class T>
  void add_part(std::string name, memory_space space, const T* src, memory_space from,
                std::size_t count, stream_view s) {
    state_part p{std::move(name), buffer<std::byte>(space, count * sizeof(T))};
    copy_bytes(p.bytes.data(), space, src, from, count * sizeof(T), s);
    parts.push_back(std::move(p));
  }
  /// @brief A part as a host vector of T (synchronizes); throws hs::user_error when it is missing
  /// or its size is not `count` elements.
  template <class T>
  std::vector<T> host_part(std::string_view name, std::size_t count, stream_view s) const {
    const state_part& p = sized_part(name, count * sizeof(T));
    std::vector<T> out(count);
    copy_bytes(out.data(), memory_space::host, p.bytes.data(), p.bytes.space(), p.bytes.size(), s);
    synchronize(s);
    return out;
  }
  /// @brief Copies a part of exactly `count` elements into `dst` (in `space`), ordered on s.
  template <class T>
  void copy_part(std::string_view name, T* dst, memory_space space, std::size_t count,
                 stream_view s) const {
    const state_part& p = sized_part(name, count * sizeof(T));
    copy_bytes(dst, space, p.bytes.data(), p.bytes.space(), p.bytes.size(), s);
  }
  /// @brief The part `name`, checked to hold `bytes` bytes.
  const state_part& sized_part(std::string_view name, std::size_t bytes) const;
};

/// @brief The counters every family keeps since clear (table_stats' `rejected` and `failed_full`),
/// as numbers of a state, and back.
void set_common_counters(table_state& st, const std::uint64_t* rejected, std::uint64_t failed_full);
void read_common_counters(const table_state& st, std::uint64_t* rejected,
                          std::uint64_t& failed_full);

/// @brief Throws hs::user_error unless a state of `saved` may restore into a table of `table`: the
/// same family and hash, and the same options (the capacity may differ: it comes with the state).
void check_restorable(const table_config& saved, const table_config& table);

/// @brief "linear, 2^20 slots, probe=linear delete=value": a config in one line, for messages.
std::string describe_config(const table_config& cfg);

}  // namespace hs
