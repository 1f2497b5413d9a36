#include "core/slab/slab_trace.hpp"

#include "core/slab/slab_layout.hpp"

namespace hs::slab {

op_trace replay_op(slab_chain& list, op_kind kind, key_type k, value_type v, op_status status,
                   slab_mode mode) {
  op_trace t;
  if (status == op_status::rejected_key || status == op_status::rejected_value ||
      status == op_status::none)
    return t;
  const bool inserting = kind == op_kind::insert;
  const bool unique = mode == slab_mode::unique;
  const auto decides = [&](std::uint32_t key) {
    return inserting ? key == k_empty || (unique && key == k) : key == k;
  };
  for (std::size_t s = 0; s < list.slabs.size(); ++s) {
    t.slabs_read = s + 1;
    std::uint32_t* w = list.slabs[s].words;
    for (int p = 0; p < k_slab_pairs; ++p) {
      if (!decides(w[2 * p])) continue;
      t.slab = s;
      t.pair = p;
      if (inserting) {
        w[2 * p] = k;
        w[2 * p + 1] = v;
        t.changed = true;
      } else if (kind == op_kind::erase) {
        w[2 * p] = deleted_key(mode);
        w[2 * p + 1] = k_empty;
        t.changed = true;
      }
      return t;
    }
  }
  // Not decided in the list: a find or erase missed; an insert links a new slab (unless the pool
  // had none, or the image was cut short of the whole list).
  if (inserting && status != op_status::failed_full && list.total <= list.slabs.size()) {
    slab_record fresh;
    fresh.address = 0;
    for (std::uint32_t& w : fresh.words) w = k_empty;
    fresh.words[k_next_word] = k_null_address;
    fresh.words[0] = k;
    fresh.words[1] = v;
    list.slabs.push_back(fresh);
    ++list.total;
    t.slab = list.slabs.size() - 1;
    t.pair = 0;
    t.changed = true;
    t.linked_new_slab = true;
  }
  return t;
}

}  // namespace hs::slab
