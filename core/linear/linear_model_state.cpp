// The CPU model's state (table_state.hpp), laid out as the GPU table's: the slots as stored, the
// longest probe, and the counters since clear.
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_state.hpp"
#include "core/table/table_state.hpp"

namespace hs::linear {

void check_capacity(std::string_view what, std::uint64_t capacity, unsigned key_bits) {
  if (!is_pow2(capacity) || capacity < 16 || capacity > max_capacity(key_bits))
    throw user_error(std::string(what) + ": capacity " + format_count(capacity) +
                     " is not a power of two between 16 and " + (key_bits == 64 ? "2^40" : "2^32"));
}

void check_state_capacity(std::uint64_t capacity, unsigned key_bits) {
  check_capacity("a linear table's state", capacity, key_bits);
}

template <class W>
table_state basic_linear_model<W>::save_state(stream_view s) {
  std::lock_guard lock(mutex_);
  table_state st;
  st.config = cfg_;
  st.add_part(std::string(k_slots_part), memory_space::host, slots_.data(), memory_space::host,
              slots_.size(), s);
  st.set_number(std::string(k_longest_probe), max_displacement_);
  rejected_.save(st, failed_full_);
  return st;
}

template <class W>
void basic_linear_model<W>::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const std::uint64_t capacity = st.config.capacity;
  check_state_capacity(capacity, slot_traits<W>::key_bits);
  std::vector<W> slots = st.host_part<W>(k_slots_part, capacity, s);
  const std::uint64_t longest = st.number(k_longest_probe);
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
