// The CPU model's state (table_state.hpp), laid out as the GPU table's: the slots as stored, the
// longest probe, and the counters since clear.
#include <string>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_state.hpp"
#include "core/table/table_state.hpp"

namespace hs::linear {

void check_capacity(std::string_view what, std::uint64_t capacity, key_width w) {
  if (!is_pow2(capacity) || capacity < 16 || capacity > max_capacity(w))
    throw user_error(std::string(what) + ": capacity " + format_count(capacity) +
                     " is not a power of two between 16 and 2^" +
                     std::to_string(max_capacity_log2(w)));
}

void check_state_capacity(std::uint64_t capacity, key_width w) {
  check_capacity("a linear table's state", capacity, w);
}

bool wide_homes_current(const table_state& st) {
  for (const auto& [name, value] : st.numbers)
    if (name == k_home_line_number) return value == k_home_line<wide_key>;
  return false;
}

std::vector<wide_slot> relaid_wide_slots(const table_config& cfg, const std::vector<wide_slot>& old,
                                         std::uint32_t& longest) {
  table_config model_cfg = cfg;
  model_cfg.backend = backend::cpu;
  wide_linear_model m(model_cfg);
  for (const wide_slot& w : old) {
    const slot_state st = classify(w);
    if (st != slot_state::live && st != slot_state::erased) continue;
    // A key erased by value keeps its slot: insert it with a stand-in value, then erase it again.
    const wide_value v = st == slot_state::live ? slot_value(w) : 0;
    if (m.insert_one(slot_key(w), v) != op_status::inserted)
      throw user_error("a 64-bit linear table's state: key " + std::to_string(slot_key(w)) +
                       " could not be placed again (a duplicate, or no free slot)");
    if (st == slot_state::erased) m.erase_one(slot_key(w));
  }
  longest = m.stats({}).max_displacement;
  return {m.slots().begin(), m.slots().end()};
}

template <class W>
table_state basic_linear_model<W>::save_state(stream_view s) {
  std::lock_guard lock(mutex_);
  table_state st;
  st.config = cfg_;
  st.add_part(std::string(k_slots_part), memory_space::host, slots_.data(), memory_space::host,
              slots_.size(), s);
  st.set_number(std::string(k_longest_probe), max_displacement_);
  st.set_number(std::string(k_home_line_number), k_home_line<key>);
  rejected_.save(st, failed_full_);
  return st;
}

template <class W>
void basic_linear_model<W>::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const std::uint64_t capacity = st.config.capacity;
  check_state_capacity(capacity, slot_traits<W>::width);
  std::vector<W> slots = st.host_part<W>(k_slots_part, capacity, s);
  std::uint64_t longest = st.number(k_longest_probe);
  if constexpr (sizeof(W) == 16) {
    if (!wide_homes_current(st)) {
      std::uint32_t relaid_longest = 0;
      slots = relaid_wide_slots(st.config, slots, relaid_longest);
      longest = relaid_longest;
    }
  }
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  std::lock_guard lock(mutex_);
  slots_ = std::move(slots);
  cfg_.capacity = capacity;
  mask_ = static_cast<index>(capacity - 1);
  occupied_ = 0;
  for (const W& w : slots_) occupied_ += occupies(w);
  max_displacement_ = static_cast<std::uint32_t>(longest);
  rejected_.copy_from(rejected);
  failed_full_ = failed_full;
}

template table_state basic_linear_model<slot_word>::save_state(stream_view);
template table_state basic_linear_model<wide_slot>::save_state(stream_view);
template void basic_linear_model<slot_word>::restore_state(const table_state&, stream_view);
template void basic_linear_model<wide_slot>::restore_state(const table_state&, stream_view);

}  // namespace hs::linear
