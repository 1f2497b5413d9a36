// The GPU linear table's inspection and host copies (inspect, retrieve_pairs, download_reach,
// download_slots): reads of the slots for views, checks and tests. Apart from linear_table.cu,
// whose batches and bookkeeping they do not touch.
#include "core/linear/linear_table.hpp"

#include <algorithm>

#include "core/common/cuda_check.hpp"
#include "core/common/error.hpp"
#include "core/linear/linear_inspect.hpp"
#include "core/table/device_checks.hpp"

namespace hs::linear {

namespace {

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

}  // namespace

template <class W>
void basic_linear_table<W>::inspect(const inspect_request& req, inspect_result& out,
                                    stream_view s) {
  std::shared_lock slots_lock(slots_mutex_);
  if (req.occupancy) {
    const occupancy_query& q = *req.occupancy;
    if (q.width == 0 || q.height == 0 || q.slot_count == 0 || q.slot_count > cfg_.capacity)
      throw user_error("occupancy: empty image or slot range larger than the table");
    detail::launch_occupancy(cfg_.hash, cfg_.linear.probe, slots_.data(), mask_, q, s);
  }
  if (req.probe_histogram) {
    std::lock_guard lock(scratch_mutex_);
    if (histogram_.size() == 0)
      histogram_ = buffer<unsigned char>(memory_space::device, sizeof(detail::device_histogram));
    auto* h = reinterpret_cast<detail::device_histogram*>(histogram_.data());
    detail::launch_probe_histogram(cfg_.hash, cfg_.linear.probe, slots_.data(), cfg_.capacity, h,
                                   s);
    detail::device_histogram host;
    copy_bytes(&host, memory_space::host, h, memory_space::device, sizeof(host), s);
    synchronize(s);
    out.histogram = to_probe_histogram(host);
  }
  out.slots.clear();
  if (req.dump_first && req.dump_count) {
    const std::uint32_t count =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(req.dump_count, cfg_.capacity));
    std::vector<W> words(count);
    const std::uint64_t first = *req.dump_first & mask_;
    const std::uint64_t head = std::min<std::uint64_t>(count, cfg_.capacity - first);
    copy_bytes(words.data(), memory_space::host, slots_.data() + first, memory_space::device,
               head * sizeof(W), s);
    copy_bytes(words.data() + head, memory_space::host, slots_.data(), memory_space::device,
               (count - head) * sizeof(W), s);
    synchronize(s);
    dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto hash) {
      for (std::uint32_t i = 0; i < count; ++i) {
        const auto slot = static_cast<index>((first + i) & mask_);
        out.slots.push_back(make_slot_record<decltype(hash)>(slot, words[i], mask_));
      }
    });
  }
  synchronize(s);
}

template <class W>
std::uint64_t basic_linear_table<W>::retrieve_pairs(std::span<key> keys, std::span<value> values,
                                                    stream_view s) {
  hs::detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  require_device("retrieve_all", keys);
  require_device("retrieve_all", values);
  std::shared_lock slots_lock(slots_mutex_);
  std::lock_guard lock(scratch_mutex_);
  detail::launch_retrieve_all(slots_.data(), cfg_.capacity, keys.data(), values.data(), keys.size(),
                              scratch_.data(), s);
  unsigned long long n = 0;
  HS_CUDA_CHECK(cudaMemcpyAsync(&n, scratch_.data(), sizeof(n), cudaMemcpyDeviceToHost, cuda(s)));
  synchronize(s);
  return n;
}

template <class W>
std::vector<std::uint32_t> basic_linear_table<W>::download_reach(stream_view s) const {
  std::shared_lock slots_lock(slots_mutex_);
  return reach_.download(reach_.size(), s);
}

template <class W>
std::vector<W> basic_linear_table<W>::download_slots(stream_view s) const {
  std::shared_lock slots_lock(slots_mutex_);
  return slots_.download(cfg_.capacity, s);
}

template void basic_linear_table<slot_word>::inspect(const inspect_request&, inspect_result&,
                                                     stream_view);
template void basic_linear_table<wide_slot>::inspect(const inspect_request&, inspect_result&,
                                                     stream_view);
template std::uint64_t basic_linear_table<slot_word>::retrieve_pairs(std::span<key>,
                                                                     std::span<value>, stream_view);
template std::uint64_t basic_linear_table<wide_slot>::retrieve_pairs(std::span<key>,
                                                                     std::span<value>, stream_view);
template std::vector<std::uint32_t> basic_linear_table<slot_word>::download_reach(
    stream_view) const;
template std::vector<std::uint32_t> basic_linear_table<wide_slot>::download_reach(
    stream_view) const;
template std::vector<slot_word> basic_linear_table<slot_word>::download_slots(stream_view) const;
template std::vector<wide_slot> basic_linear_table<wide_slot>::download_slots(stream_view) const;

}  // namespace hs::linear
