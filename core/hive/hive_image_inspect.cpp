#include "core/hive/hive_image_inspect.hpp"

#include <algorithm>

namespace hs::hive {

slot_record describe_slot(const hive_image& img, std::uint64_t slot, word_type w) {
  slot_record r;
  r.slot = slot;
  if (w == k_empty_word) return r;
  r.key = key_of(w);
  r.value = value_of(w);
  r.state = slot_state::live;
  const candidates c = img.candidates_of(r.key);
  r.home = c.b[0] * static_cast<std::uint64_t>(img.slots);  // a slot, as for the other families
  r.displacement = static_cast<std::uint64_t>(candidate_index(c, slot / img.slots));
  return r;
}

void inspect_image(const hive_image& img, const inspect_request& req, inspect_result& out) {
  const std::uint64_t buckets = img.geo.buckets(), slots = buckets * img.slots;
  const auto word = [&](std::uint64_t s) { return img.words[s]; };
  const auto index_of = [&](std::uint64_t s) {
    return candidate_index(img.candidates_of(key_of(word(s))), s / img.slots);
  };
  if (req.probe_histogram) {
    out.histogram = {};
    for (std::uint64_t s = 0; s < slots; ++s)
      if (word(s) != k_empty_word) out.histogram.add(static_cast<std::uint32_t>(index_of(s)));
  }
  const auto fill_of = [&](std::uint64_t b) {
    return static_cast<std::uint32_t>(std::count_if(img.bucket(b), img.bucket(b) + img.slots,
                                                    [](word_type w) { return w != k_empty_word; }));
  };
  if (req.hive.bucket_fill) {
    out.hive.bucket_fill = {};
    for (std::uint64_t b = 0; b < buckets; ++b) out.hive.bucket_fill.add(fill_of(b));
  }
  if (req.occupancy)
    fill_occupancy(*req.occupancy, slots, [&](std::uint64_t lo, std::uint64_t hi) {
      double live = 0, index = 0;
      for (std::uint64_t s = lo; s < hi; ++s)
        if (word(s) != k_empty_word) {
          live += 1;
          index += index_of(s);
        }
      occupancy_pixel px;
      px.live = static_cast<float>(live / double(hi - lo));
      px.mean_displacement = live ? static_cast<float>(index / live) : 0.f;
      return px;
    });
  if (req.strip && req.strip->width) {
    out.strip = fill_strip(*req.strip, buckets, fill_of);
  }
  if (req.dump_first && req.dump_count) {
    out.slots.clear();
    for (std::uint64_t s = *req.dump_first; s < std::min(slots, *req.dump_first + req.dump_count);
         ++s)
      out.slots.push_back(describe_slot(img, s, word(s)));
  }
  if (req.hive.stash) {
    out.hive.stash.clear();
    for (std::uint64_t i = 0; i < img.stash_used && out.hive.stash.size() < req.hive.stash_limit;
         ++i)
      if (img.stash[i] != k_empty_word)
        out.hive.stash.push_back({i, key_of(img.stash[i]), value_of(img.stash[i])});
  }
  if (req.hive.key && is_reserved_key(*req.hive.key)) return;
  if (req.hive.key) {
    out.hive.key = key_before(img, *req.hive.key, [&](hive_bucket_before& b) {
      b.words.assign(img.bucket(b.bucket), img.bucket(b.bucket) + img.slots);
      b.free_mask = img.masks[b.bucket] & all_free(img.slots);
      b.lock = img.locks[b.bucket];
    });
    for (std::uint64_t i = 0; i < img.stash_used; ++i)
      if (img.stash[i] != k_empty_word) {
        out.hive.key->stash_used = true;
        if (key_of(img.stash[i]) == *req.hive.key) out.hive.key->stash_position = i;
      }
  }
}

}  // namespace hs::hive
