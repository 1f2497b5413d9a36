// The lines a lookup reads, from the layout's constants.
#include "core/linear/linear_reads.hpp"

#include "core/linear/linear_layout.hpp"

namespace hs::linear {

std::uint32_t slots_per_line(const linear_options& o, key_width w) {
  if (o.probe == probe_policy::double_hash) return double_hashing::width;
  return 64 / slot_bytes(w);
}

bool homes_at_line_start(key_width w) { return home_line(w) > 1; }

double lines_per_hit(const probe_histogram& h, const linear_options& o, key_width w) {
  return mean_lines(h, slots_per_line(o, w), homes_at_line_start(w));
}

}  // namespace hs::linear
