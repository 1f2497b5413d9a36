// What the heatmap asks to be sampled, apart from the view that draws it: the sampler carries it
// through its thread without depending on ImGui or GL.
#pragma once
#include <cstdint>
#include <optional>

#include "core/common/sample_parts.hpp"

namespace hs::vis {

/// @brief What the heatmap needs sampled this frame.
struct heatmap_request {
  occupancy_query occupancy;                ///< out is filled in by whoever samples
  std::optional<std::uint64_t> dump_first;  ///< slots to dump (hovered slot, or visible cells)
  std::uint32_t dump_count = 0;
};

}  // namespace hs::vis
