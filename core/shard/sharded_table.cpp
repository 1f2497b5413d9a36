// The sharded table of each key width: its batch path, its whole-table calls and its state live
// in the _impl headers this file alone includes, so that both widths are made here.
#include "core/shard/sharded_state_impl.hpp"

namespace hs {

template class sharded_table<key_type, value_type>;
template class sharded_table<wide_key, wide_value>;

sharded_view* as_sharded(table& t) { return dynamic_cast<sharded_view*>(&t); }

}  // namespace hs
