#include "core/slab/slab_image.hpp"

#include <algorithm>
#include <bit>

namespace hs::slab {

std::uint32_t slab_image::bucket_of(key_type k) const {
  return dispatch_hash(hash, [&](auto h) { return slab::bucket_of(h, k, buckets); });
}

std::uint32_t* slab_image::pool_slab(std::uint32_t address) {
  return const_cast<std::uint32_t*>(static_cast<const slab_image&>(*this).pool_slab(address));
}

const std::uint32_t* slab_image::pool_slab(std::uint32_t address) const {
  const std::uint32_t super = super_of(address), index = index_in_super(address);
  if (super >= slabs.size() || index >= blocks_per_super * k_slabs_per_block) return nullptr;
  return slabs[super].data() + std::size_t{index} * k_slab_words;
}

bool slab_image::allocated(std::uint32_t address) const {
  const std::uint32_t super = super_of(address), index = index_in_super(address);
  if (super >= bitmaps.size() || index >= blocks_per_super * k_slabs_per_block) return false;
  return (bitmaps[super][index / 32] >> (index % 32)) & 1u;
}

void slab_image::add_super_block() {
  slabs.emplace_back(std::size_t{blocks_per_super} * k_slabs_per_block * k_slab_words, k_empty);
  bitmaps.emplace_back(std::size_t{blocks_per_super} * k_bitmap_words, 0u);
}

image_census census(const slab_image& img) {
  image_census c;
  for (std::uint32_t b = 0; b < img.buckets; ++b) {
    std::uint64_t slabs = 0;
    walk_chain(img, b, [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
      ++slabs;
      for (int p = 0; p < k_slab_pairs; ++p) {
        c.live += is_live_key(w[2 * p]);
        c.deleted += w[2 * p] == k_tombstone;
      }
      return true;
    });
    c.chained += slabs - 1;
    c.longest = std::max(c.longest, slabs);
  }
  for (const auto& words : img.bitmaps)
    for (std::uint32_t w : words) c.allocated += static_cast<std::uint64_t>(std::popcount(w));
  return c;
}

table_stats stats_from_census(const image_census& c, std::uint64_t buckets,
                              std::uint64_t pool_slabs, std::uint64_t super_blocks,
                              std::uint64_t bytes) {
  table_stats s;
  s.capacity = buckets * k_slab_pairs;
  s.live = c.live;
  s.tombstones = c.deleted;
  s.occupied = c.live + c.deleted;
  s.bytes = bytes;
  s.max_displacement = static_cast<std::uint32_t>(c.longest ? c.longest - 1 : 0);
  s.slab.buckets = buckets;
  s.slab.chained_slabs = c.chained;
  s.slab.allocated_slabs = c.allocated;
  s.slab.pool_slabs = pool_slabs;
  s.slab.super_blocks = super_blocks;
  s.slab.longest_chain = c.longest;
  const double used = static_cast<double>(buckets + c.chained) * k_slab_bytes;
  s.slab.utilization = used > 0 ? 8.0 * static_cast<double>(c.live) / used : 0.0;
  return s;
}

namespace {

slot_record base_pair_record(const slab_image& img, std::uint64_t slot) {
  const auto bucket = static_cast<std::uint32_t>(slot / k_slab_pairs);
  const int pair = static_cast<int>(slot % k_slab_pairs);
  const std::uint32_t* w = img.base_slab(bucket);
  slot_record r;
  r.slot = slot;
  r.key = w[2 * pair];
  r.value = w[2 * pair + 1];
  r.home = bucket;
  r.state = is_live_key(r.key)     ? slot_state::live
            : r.key == k_tombstone ? slot_state::tombstone
                                   : slot_state::empty;
  return r;
}

}  // namespace

void inspect_image(const slab_image& img, const inspect_request& req, inspect_result& out) {
  const std::uint64_t slots = std::uint64_t{img.buckets} * k_slab_pairs;
  std::vector<std::uint32_t> lengths;
  const bool need_lengths =
      req.slab.chain_lengths || req.strip || req.probe_histogram || req.occupancy;
  if (need_lengths) {
    lengths.assign(img.buckets, 0);
    out.histogram = {};
    for (std::uint32_t b = 0; b < img.buckets; ++b)
      walk_chain(img, b, [&](const std::uint32_t* w, std::uint32_t, std::uint64_t pos) {
        ++lengths[b];
        if (req.probe_histogram)
          for (int p = 0; p < k_slab_pairs; ++p)
            if (is_live_key(w[2 * p])) out.histogram.add(static_cast<std::uint32_t>(pos));
        return true;
      });
  }
  if (req.slab.chain_lengths) {
    out.slab.chains = {};
    for (std::uint32_t len : lengths) out.slab.chains.add(len);
  }
  if (req.occupancy)
    fill_occupancy(*req.occupancy, slots, [&](std::uint64_t lo, std::uint64_t hi) {
      double live = 0, tomb = 0, chain = 0;
      for (std::uint64_t s = lo; s < hi; ++s) {
        const std::uint32_t k =
            img.base_slab(static_cast<std::uint32_t>(s / k_slab_pairs))[2 * (s % k_slab_pairs)];
        live += is_live_key(k);
        tomb += k == k_tombstone;
        chain += lengths[s / k_slab_pairs] - 1;
      }
      const double n = static_cast<double>(hi - lo);
      occupancy_pixel px;
      px.live = static_cast<float>(live / n);
      px.tombstone = static_cast<float>(tomb / n);
      px.mean_displacement = static_cast<float>(chain / n);
      return px;
    });
  if (req.strip && req.strip->width) {
    out.strip = fill_strip(*req.strip, img.buckets, [&](std::uint64_t b) { return lengths[b]; });
  }
  out.slots.clear();
  if (req.dump_first)
    for (std::uint64_t s = *req.dump_first; s < std::min(slots, *req.dump_first + req.dump_count);
         ++s)
      out.slots.push_back(base_pair_record(img, s));
  out.slab.chain = {};
  if (req.slab.chain_bucket && *req.slab.chain_bucket < img.buckets) {
    out.slab.chain.bucket = *req.slab.chain_bucket;
    walk_chain(img, static_cast<std::uint32_t>(*req.slab.chain_bucket),
               [&](const std::uint32_t* w, std::uint32_t address, std::uint64_t) {
                 ++out.slab.chain.total;
                 if (out.slab.chain.slabs.size() < req.slab.chain_limit) {
                   slab_record r;
                   r.address = address;
                   std::copy(w, w + k_slab_words, r.words);
                   out.slab.chain.slabs.push_back(r);
                 }
                 return true;
               });
  }
  out.slab.allocator = {};
  if (req.slab.allocator) {
    out.slab.allocator.blocks_per_super = img.blocks_per_super;
    out.slab.allocator.super_blocks = static_cast<std::uint32_t>(img.bitmaps.size());
    for (const auto& words : img.bitmaps)
      for (std::size_t b = 0; b < img.blocks_per_super; ++b) {
        std::uint32_t n = 0;
        for (std::uint32_t i = 0; i < k_bitmap_words; ++i)
          n += std::popcount(words[b * k_bitmap_words + i]);
        out.slab.allocator.block_fill.push_back(static_cast<std::uint16_t>(n));
      }
  }
}

}  // namespace hs::slab
