// Where one slab-hash operation went, replayed on an image of its bucket's list (step mode draws
// it). The tile reads whole slabs from the base slab on, so the lanes read are every pair of each
// slab up to the deciding one. The rules are the device's (slab_ops.cuh): REPLACE stops at the key
// or the first empty pair, INSERT (multi mode) at the first empty pair, SEARCH and DELETE at the
// first copy of the key (a miss reads the whole list); a full list makes an insert link a new slab.
#pragma once
#include <cstddef>
#include <optional>

#include "core/common/types.hpp"
#include "core/table/inspection.hpp"
#include "core/table/table.hpp"

namespace hs::slab {

struct op_trace {
  std::size_t slabs_read = 0;       ///< slabs of the list the operation read, base included
  std::optional<std::size_t> slab;  ///< the slab of the deciding pair (slabs_read for a new slab)
  int pair = -1;                    ///< the deciding pair in it
  bool changed = false;             ///< the operation wrote that pair
  bool linked_new_slab = false;     ///< the list was full: an insert linked a slab after it
};

/// @brief Replays the operation on `list` (its effect applied, so the next operation on the same
/// bucket sees it) and says what it read and where it decided. A rejected operation reads nothing;
/// a failed_full insert reads the whole list and changes nothing.
op_trace replay_op(slab_chain& list, op_kind kind, key_type k, value_type v, op_status status,
                   slab_mode mode);

}  // namespace hs::slab
