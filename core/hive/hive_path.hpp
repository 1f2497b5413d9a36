// The ring of recent eviction paths as kernels write it and views read it (path_record,
// k_path_ring): apart from hive_launch.hpp so that the views need not include the kernels' entry
// points to show the paths.
#pragma once
#include <cstdint>

#include "core/hive/hive_inspection.hpp"
#include "core/hive/hive_layout.hpp"

namespace hs::hive {

/// @brief Recent eviction paths, a ring of k_path_ring records (the record is the inspection's).
using path_record = eviction_path;
static_assert(k_max_eviction_path == k_max_eviction_depth,
              "a path record holds the deepest eviction");
inline constexpr std::uint32_t k_path_ring = 256;

}  // namespace hs::hive
