// The CPU model's state (table_state.hpp), laid out as the GPU table's: the slots as stored, the
// longest probe, and the counters since clear.
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_state.hpp"
#include "core/table/table_state.hpp"

namespace hs::linear {

void check_state_capacity(std::uint64_t capacity) {
  if (!is_pow2(capacity) || capacity < 16 || capacity > max_capacity())
    throw user_error("a linear table's state of " + std::to_string(capacity) +
                     " slots: not a power of two between 16 and 2^32");
}

table_state linear_model::save_state(stream_view s) {
  std::lock_guard lock(mutex_);
  table_state st;
  st.config = cfg_;
  st.add_part(std::string(k_slots_part), memory_space::host, slots_.data(), memory_space::host,
              slots_.size(), s);
  st.set_number(std::string(k_longest_probe), max_displacement_);
  rejected_.save(st, failed_full_);
  return st;
}

void linear_model::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const std::uint64_t capacity = st.config.capacity;
  check_state_capacity(capacity);
  std::vector<slot_word> slots = st.host_part<slot_word>(k_slots_part, capacity, s);
  const std::uint64_t longest = st.number(k_longest_probe);
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  std::lock_guard lock(mutex_);
  slots_ = std::move(slots);
  cfg_.capacity = capacity;
  mask_ = static_cast<std::uint32_t>(capacity - 1);
  occupied_ = 0;
  for (const slot_word w : slots_) occupied_ += occupies(w);
  max_displacement_ = static_cast<std::uint32_t>(longest);
  rejected_.copy_from(rejected);
  failed_full_ = failed_full;
}

}  // namespace hs::linear
