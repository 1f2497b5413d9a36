// What a linear table's lookups read from memory, from its probe-length histogram: slots walked
// count the table's own unit, lines read what memory serves. The two part between the key widths
// (linear_layout.hpp): four 16-byte slots fill a 64-byte line and 64-bit walks start at a line's
// first slot; eight 8-byte slots fill one and 32-bit walks start anywhere in it.
#pragma once
#include <cstdint>

#include "core/common/key_width.hpp"
#include "core/common/probe_histogram.hpp"
#include "core/linear/linear_options.hpp"

namespace hs::linear {

/// @brief Slots a lookup reads from one memory line: a 64-byte line's (8 of 32 bits, 4 of 64), or
/// with double hashing a sector's 4 (each probe step reads a sector in a line of its own).
std::uint32_t slots_per_line(const linear_options& o, key_width w);
/// @brief Whether every walk starts at its line's first slot (64-bit keys).
bool homes_at_line_start(key_width w);
/// @brief The mean lines a walk to a stored key touches (mean_lines over the histogram).
double lines_per_hit(const probe_histogram& h, const linear_options& o, key_width w);

}  // namespace hs::linear
