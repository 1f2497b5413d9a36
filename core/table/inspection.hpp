// The inspection seam: what one sample of a table asks for and what comes back. The parts every
// family has are core/common/sample_parts.hpp's; each family's own (the slab's lists and SlabAlloc,
// the hive's buckets, stash and paths) are declared in its folder (hs_family_parts in its
// family.cmake) and arrive as members through the generated family_parts.hpp. A family reads only
// its own, as with table_config's options.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/probe_histogram.hpp"
#include "core/common/sample_parts.hpp"
#include "core/table/family_parts.hpp"  // generated: every family's own parts

namespace hs {

/// @brief What one sample of a table should produce; absent parts are skipped. The probe
/// histogram is each family's measure: the probe length (linear), the slab index holding each live
/// key (slab), the candidate index (hive; so are the occupancy pixels' mean displacement and a
/// dumped slot's displacement, and a dumped slot's home is the first slot of its first candidate
/// bucket). The strip gives the slab's list lengths or the hive's bucket fill along the buckets.
struct inspect_request : family_inspect_requests {
  std::optional<occupancy_query> occupancy;
  bool probe_histogram = false;
  std::optional<std::uint64_t> dump_first;  ///< first slot of a dump of `dump_count` slots
  std::uint32_t dump_count = 0;
  std::optional<bucket_strip_query> strip;
};

/// @brief Whether two requests read the table the same way: the same slots at the same size, the
/// same strip, the same parts of each family (the slab's picked list). A hovered slot's dump is
/// left out, or the mouse would ask for a whole sample every frame.
inline bool same_reading(const inspect_request& a, const inspect_request& b) {
  const auto same_occupancy = [](const std::optional<occupancy_query>& x,
                                 const std::optional<occupancy_query>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || (x->first_slot == y->first_slot && x->slot_count == y->slot_count &&
                  x->width == y->width && x->height == y->height);
  };
  const auto same_strip = [](const std::optional<bucket_strip_query>& x,
                             const std::optional<bucket_strip_query>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || (x->first_bucket == y->first_bucket && x->bucket_count == y->bucket_count &&
                  x->width == y->width);
  };
  return same_occupancy(a.occupancy, b.occupancy) && same_strip(a.strip, b.strip) &&
         same_family_reading(a, b);
}

struct inspect_result : family_inspect_results {
  hs::probe_histogram histogram;
  /// A table over several devices: each device's histogram (`histogram` is their sum); else empty.
  std::vector<hs::probe_histogram> per_device;
  std::vector<slot_record> slots;
  std::vector<strip_pixel> strip;
};

}  // namespace hs
