// The sharded table of each key width: its batch path, its whole-table calls and its state live
// in the _impl headers this file alone includes, so that both widths are made here.
#include "core/shard/sharded_state_impl.hpp"

namespace hs {

template class sharded_table<key_type, value_type>;
template class sharded_table<wide_key, wide_value>;

table_stats add_up(const std::vector<table_stats>& shards) {
  table_stats all;
  for (const table_stats& one : shards) {
    all.capacity += one.capacity;
    all.live += one.live;
    all.erased += one.erased;
    all.tombstones += one.tombstones;
    all.occupied += one.occupied;
    all.bytes += one.bytes;
    all.max_displacement = std::max(all.max_displacement, one.max_displacement);
    for (int k = 0; k < k_op_kind_count; ++k) all.rejected[k] += one.rejected[k];
    all.failed_full += one.failed_full;
    add_shard_counters(all, one);
  }
  return all;
}

sharded_view* as_sharded(table& t) { return dynamic_cast<sharded_view*>(&t); }

}  // namespace hs
