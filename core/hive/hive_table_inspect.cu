// The GPU table's inspection for the views (hive_inspection.hpp): occupancy, the probe and bucket
// fill histograms, a strip of buckets, one key's place, the stash and the recent eviction paths.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>

#include "core/common/device.hpp"
#include "core/hive/hive_image_inspect.hpp"
#include "core/hive/hive_table.hpp"

namespace hs::hive {

void hive_table::inspect(const inspect_request& req, inspect_result& out, stream_view s) {
  inspect_locked(req, out, s);
  if (req.hive.paths) out.hive.paths = recent_paths(s);  // takes the table lock itself
}

void hive_table::inspect_locked(const inspect_request& req, inspect_result& out, stream_view s) {
  std::shared_lock lock(table_mutex_);
  std::lock_guard scratch(scratch_mutex_);
  out = {};
  const hive_ref r = ref();
  if (req.occupancy) launch_occupancy(r, *req.occupancy, s);
  if (req.probe_histogram || req.hive.bucket_fill) {
    if (!histograms_.size()) histograms_ = buffer<device_histogram>(memory_space::device, 2);
    fill_bytes(histograms_.data(), memory_space::device, 0, 2 * sizeof(device_histogram), s);
    launch_histograms(r, req.probe_histogram ? histograms_.data() : nullptr,
                      req.hive.bucket_fill ? histograms_.data() + 1 : nullptr, s);
    const auto h = histograms_.download(2, s);
    if (req.probe_histogram) out.histogram = to_probe_histogram(h[0]);
    if (req.hive.bucket_fill) out.hive.bucket_fill = to_probe_histogram(h[1]);
  }
  if (req.strip && req.strip->width) {
    if (strip_.size() < 2 * req.strip->width)
      strip_ = buffer<float>(memory_space::device, 2 * req.strip->width);
    fill_bytes(strip_.data(), memory_space::device, 0, 2 * req.strip->width * sizeof(float), s);
    launch_strip(r, *req.strip, strip_.data(), s);
    const auto px = strip_.download(2 * req.strip->width, s);
    for (std::uint32_t p = 0; p < req.strip->width; ++p)
      out.strip.push_back({px[2 * p], px[2 * p + 1]});
  }
  hive_image shape;  // what describe_slot needs: the layout, not the contents
  shape.slots = shape_.slots;
  shape.hashes = shape_.hashes;
  shape.geo = geo_;
  const std::uint64_t slots = geo_.buckets() * shape_.slots;
  if (req.dump_first && req.dump_count && *req.dump_first < slots) {
    const std::uint64_t n = std::min<std::uint64_t>(req.dump_count, slots - *req.dump_first);
    std::vector<word_type> w(n);
    copy_bytes(w.data(), memory_space::host, words_.data() + *req.dump_first, memory_space::device,
               n * sizeof(word_type), s);
    synchronize(s);
    for (std::uint64_t i = 0; i < n; ++i)
      out.slots.push_back(describe_slot(shape, *req.dump_first + i, w[i]));
  }
  if (req.hive.key && !is_reserved_key(*req.hive.key)) {
    out.hive.key = key_before(shape, *req.hive.key, [&](hive_bucket_before& b) {
      b.words.resize(shape_.slots);
      copy_bytes(b.words.data(), memory_space::host, words_.data() + b.bucket * shape_.slots,
                 memory_space::device, shape_.slots * sizeof(word_type), s);
      meta_word m = 0;
      copy_bytes(&m, memory_space::host, bucket_meta_.data() + b.bucket, memory_space::device,
                 sizeof m, s);
      synchronize(s);
      b.free_mask = mask_of(m) & all_free(shape_.slots);
      b.lock = lock_of(m);
    });
    const auto tail_live = meta_.download(2, s);  // [0] stash tail, [1] live stashed words
    const std::uint64_t used = std::min<std::uint64_t>(tail_live[0], shape_.stash_capacity);
    out.hive.key->stash_used = tail_live[1] != 0;
    if (tail_live[1]) {
      const auto w = stash_.download(used, s);
      for (std::uint64_t i = 0; i < used; ++i)
        if (w[i] != k_empty_word && key_of(w[i]) == *req.hive.key) out.hive.key->stash_position = i;
    }
  }
  if (req.hive.stash) {
    // The ring's used prefix, bounded: a stash past a few thousand words is shown by its count.
    const std::uint64_t used =
        std::min<std::uint64_t>({meta_.download(1, s)[0], shape_.stash_capacity, 1u << 16});
    const auto w = stash_.download(used, s);
    for (std::uint64_t i = 0; i < used && out.hive.stash.size() < req.hive.stash_limit; ++i)
      if (w[i] != k_empty_word) out.hive.stash.push_back({i, key_of(w[i]), value_of(w[i])});
  }
  synchronize(s);
}

}  // namespace hs::hive
