// The GPU table's state (linear_state.hpp): its slots and reach words copied at device speed for a
// session's history, or from any memory space when a state is restored.
#include <cuda_runtime.h>

#include <vector>

#include "core/common/cuda_check.hpp"
#include "core/linear/linear_ref.cuh"
#include "core/linear/linear_state.hpp"
#include "core/linear/linear_table.hpp"
#include "core/table/table_state.hpp"

namespace hs::linear {

template <class W>
table_state basic_linear_table<W>::save_state(stream_view s) {
  std::shared_lock slots_lock(slots_mutex_);
  // Every batch launched before, on any stream, is part of the state.
  HS_CUDA_CHECK(cudaDeviceSynchronize());
  table_state st;
  st.config = cfg_;
  st.add_part(std::string(k_slots_part), memory_space::device, slots_.data(), memory_space::device,
              cfg_.capacity, s);
  st.add_part(std::string(k_reach_part), memory_space::device, reach_.data(), memory_space::device,
              reach_.size(), s);
  const device_counters c = counters_.download(1, s)[0];
  st.set_number(std::string(k_longest_probe), c.max_displacement);
  st.set_number(std::string(k_home_line_number), k_home_line<key>);
  std::uint64_t rejected[k_op_kind_count];
  for (int i = 0; i < k_op_kind_count; ++i) rejected[i] = c.rejected[i];
  set_common_counters(st, rejected, c.failed_full);
  return st;
}

template <class W>
void basic_linear_table<W>::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const std::uint64_t capacity = st.config.capacity;
  check_state_capacity(capacity, slot_traits<W>::width);
  std::unique_lock slots_lock(slots_mutex_);
  std::lock_guard scratch_lock(scratch_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());
  st.sized_part(k_slots_part, capacity * sizeof(W));
  const state_part* reach_part = st.find(k_reach_part);
  const std::uint64_t regions = reach_regions(capacity);
  if (reach_part) st.sized_part(k_reach_part, regions * sizeof(std::uint32_t));
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  auto longest = static_cast<std::uint32_t>(st.number(k_longest_probe));
  // A 64-bit state from before homes moved to line starts: its keys placed again on the host.
  std::vector<W> relaid;
  if constexpr (sizeof(W) == 16) {
    if (!wide_homes_current(st))
      relaid = relaid_wide_slots(st.config, st.host_part<W>(k_slots_part, capacity, s), longest);
  }
  if (!relaid.empty()) reach_part = nullptr;  // the old reach words bound the old walks
  // Memory for another capacity first: a table that cannot have it stays as it was.
  buffer<W> slots;
  buffer<std::uint32_t> reach;
  if (capacity != cfg_.capacity) {
    slots = buffer<W>(memory_space::device, capacity);
    reach = buffer<std::uint32_t>(memory_space::device, regions);
  }
  if (slots.size()) {
    slots_ = std::move(slots);
    reach_ = std::move(reach);
    cfg_.capacity = capacity;
    mask_ = static_cast<index>(capacity - 1);
  }
  if (relaid.empty())
    st.copy_part(k_slots_part, slots_.data(), memory_space::device, capacity, s);
  else
    slots_.upload(std::span<const W>(relaid), s);
  if (reach_part) {
    st.copy_part(k_reach_part, reach_.data(), memory_space::device, regions, s);
  } else {  // the longest probe bounds every region's walk (as after a rehash)
    const std::vector<std::uint32_t> spread(regions, longest);
    reach_.upload(spread, s);
  }
  device_counters c{};
  for (int i = 0; i < k_op_kind_count; ++i) c.rejected[i] = rejected[i];
  c.failed_full = failed_full;
  c.max_displacement = longest;
  counters_.upload(std::span<const device_counters>(&c, 1), s);
  const table_stats census = count(s);  // synchronizes
  std::lock_guard bound_lock(bound_mutex_);
  bound_ = census.occupied - (tombstones() ? census.tombstones : 0);
  counting_ = false;
}

template table_state basic_linear_table<slot_word>::save_state(stream_view);
template table_state basic_linear_table<wide_slot>::save_state(stream_view);
template void basic_linear_table<slot_word>::restore_state(const table_state&, stream_view);
template void basic_linear_table<wide_slot>::restore_state(const table_state&, stream_view);

}  // namespace hs::linear
