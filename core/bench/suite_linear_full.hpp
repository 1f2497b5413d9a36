// bench linear's "full" table: refusals and misses once a table has no free slot, from one stream
// and from several.
#pragma once
#include "core/bench/suites.hpp"

namespace hs::bench::detail {

/// @brief Needs the GPU backend (several streams); cfg gives hash, probing and tuning.
result_table full_table(const bench_options& opt, table_config cfg, stream_view s);

}  // namespace hs::bench::detail
