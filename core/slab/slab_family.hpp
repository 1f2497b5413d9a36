// What a slab table offers beyond the Table seam (SlabHash): DELETEALL, COUNT, SEARCHALL, FLUSH,
// and a full copy of its slabs for checkers. Both backends implement it; in the seam's terms,
// insert is INSERT (multi mode) or REPLACE (unique mode), find is SEARCH and erase is DELETE,
// each acting on the least recent match (the first one in list order).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/slab/slab_image.hpp"
#include "core/table/table_of.hpp"

namespace hs::slab {

/// @brief Threads sharing a slab when the config leaves it to the table: 2 measured fastest on the
/// H200 for build, search and mixed batches (bench slab-tile): the rate is set by how many slab
/// reads are in flight, and a warp of 2-thread tiles has 16 of them where the paper's has one.
inline constexpr int k_default_tile = 2;

class slab_family : public table_of<key_type, value_type> {
 public:
  /// @brief DELETEALL: removes every pair of each key; `removed` (may be empty) gets how many.
  virtual void erase_all(std::span<const key_type> keys, std::span<std::uint32_t> removed,
                         stream_view s) = 0;
  /// @brief COUNT: how many pairs each key has.
  virtual void count(std::span<const key_type> keys, std::span<std::uint32_t> counts,
                     stream_view s) = 0;
  /// @brief SEARCHALL: writes the values of keys[i], in list order, to values_out[offsets[i] ..
  /// offsets[i+1]) (offsets: an exclusive scan of count(), n + 1 entries). A key that gained
  /// pairs since the count gets only as many as its range holds.
  virtual void search_all(std::span<const key_type> keys, std::span<const std::uint64_t> offsets,
                          std::span<value_type> values_out, stream_view s) = 0;
  /// @brief FLUSH: compacts every bucket's list to the fewest slabs that hold its live pairs, in
  /// their order, and returns emptied slabs to SlabAlloc (a separate pass: nothing else runs on
  /// the table meanwhile).
  virtual void flush(stream_view s) = 0;
  /// @brief A copy of every slab and bitmap (synchronizes; for checkers and tests).
  virtual slab_image snapshot(stream_view s) = 0;
};

/// @brief SEARCHALL as the paper returns it: per key a count and an offset into one value array.
struct search_all_result {
  std::vector<std::uint32_t> counts;
  std::vector<std::uint64_t> offsets;  ///< n + 1 entries
  std::vector<value_type> values;
};

/// @brief Runs COUNT, the scan and SEARCHALL for host keys on either backend (synchronizes).
search_all_result search_all_host(slab_family& t, std::span<const key_type> keys, stream_view s);

/// @brief The slab family's interface of a table, or null for another family.
slab_family* as_slab(table& t);

}  // namespace hs::slab
