// Table files: a table's exact state on disk (File > Save table, `save table` in a scenario), so a
// teacher prepares a table once and opens it in class on either backend. The format, version 1:
//   "HSTABLE\n", then a text header of lines ("version 1", "family hive", "capacity N",
//   "hash murmur3", "option slots=32" per family option, "number NAME VALUE", "part NAME BYTES"),
//   ended by an empty line; then each part's bytes in header order (little-endian, as the
//   family's state lays them out); then 8 bytes of checksum: the magic's and header's, folded
//   with each 16 MiB chunk's of the parts in order (chunks are checksummed, written and read by
//   several threads at once).
// Reading checks the magic, the version, the family and its options, every size against the file's
// length, and the checksum, and names the file and what is wrong; it changes no table.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/table/table.hpp"
#include "core/table/table_state.hpp"

namespace hs {

inline constexpr std::uint32_t k_table_file_version = 1;

/// @brief Writes a state (its parts in any memory space) to `path`, replacing the file only once
/// it is complete and on disk (hs::commit_file: a crash leaves the old file or the new one);
/// throws hs::user_error naming the path when it cannot.
void write_table_file(const std::string& path, const table_state& st, stream_view s);
/// @brief Reads a table file into host memory; throws hs::user_error naming the path and the fault
/// (missing, truncated, corrupt, another version, an unknown family or option).
table_state read_table_file(const std::string& path);

/// @brief Saves a table's state to `path` (synchronizes).
void save_table(table& t, const std::string& path, stream_view s);
/// @brief A new table on `b` made from a file's config and restored to its state.
std::unique_ptr<table> open_table(const std::string& path, backend b, stream_view s);

/// @brief A 64-bit checksum of bytes, from `seed` (the format's; about 14 GB/s on one core).
std::uint64_t table_file_checksum(const void* data, std::size_t bytes, std::uint64_t seed);

}  // namespace hs
