// What the session asks of a table's family, for a table over several devices: the family's own
// description with the hooks that read a table's insides run shard by shard (its invariants, its
// compaction), and those a sharded table does not offer yet left out (per-batch family counters,
// traces of what a stepped operation finds).
#pragma once
#include "core/table/family_registry.hpp"

namespace hs {

/// @brief describe(cfg.family) for a table on one device; for cfg.devices > 1, the family's
/// description as a sharded table of it answers it.
const family_descriptor& describe_table(const table_config& cfg);

}  // namespace hs
