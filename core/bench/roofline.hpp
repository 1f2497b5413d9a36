// The random-access roofline: what the GPU itself can do for the accesses a hash table makes
// (random 8-byte reads, random 64-bit CAS on a table far larger than L2) and sequential copy
// bandwidth, so that every table result can be read as a fraction of the hardware.
#pragma once
#include <cstdint>

#include "core/common/stream.hpp"

namespace hs::bench {

struct roofline {
  double random_reads_per_s = 0;    ///< independent random 8-byte loads per second
  double random_cas_per_s = 0;      ///< independent random 64-bit atomicCAS per second
  double copy_bytes_per_s = 0;      ///< device-to-device copy, bytes read + written per second
  double l2_reads_per_s = 0;        ///< the same random reads into a table that fits in L2
  double l2_cas_per_s = 0;          ///< the same random CAS into a table that fits in L2
  double random_reads16_per_s = 0;  ///< independent random aligned 16-byte loads per second
  double random_lines_per_s = 0;    ///< random whole 128-byte lines per second (8 threads a line)
  double random_cas16_per_s = 0;    ///< random 16-byte atomicCAS per second (0: not on this GPU)
  std::uint64_t table_bytes = 0;
  std::uint64_t l2_table_bytes = 0;
};

/// @brief Measures the ceilings over a table of `table_bytes` (median of reps after warm-up).
roofline measure_roofline(std::uint64_t table_bytes, int reps, stream_view s);

/// @brief The table size every suite measures its roofline on: 2 GiB, far larger than the L2.
inline constexpr std::uint64_t k_roofline_bytes = std::uint64_t{2} << 30;

}  // namespace hs::bench
