// The lines a lookup reads, from the layout's constants.
#include "core/linear/linear_reads.hpp"

#include "core/linear/linear_layout.hpp"

namespace hs::linear {

std::uint32_t slots_per_line(const linear_options& o) {
  if (o.probe == probe_policy::double_hash) return double_hashing::width;
  const std::uint32_t slot_bytes = o.key_bits == 64 ? sizeof(wide_slot) : sizeof(slot_word);
  return 64 / slot_bytes;
}

bool homes_at_line_start(const linear_options& o) {
  return (o.key_bits == 64 ? k_home_line<wide_key> : k_home_line<key_type>) > 1;
}

double lines_per_hit(const probe_histogram& h, const linear_options& o) {
  return mean_lines(h, slots_per_line(o), homes_at_line_start(o));
}

}  // namespace hs::linear
