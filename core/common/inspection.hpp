// What views ask a table for, and what comes back: occupancy images, probe histograms, slot dumps.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/hd.hpp"
#include "core/common/probe_histogram.hpp"
#include "core/common/types.hpp"

namespace hs {

/// @brief The state of one slot as the views colour it.
enum class slot_state : std::uint8_t { empty = 0, live = 1, erased = 2, tombstone = 3 };

/// @brief Fractions of a pixel's slots in each state, and their mean displacement.
struct occupancy_pixel {
  float live = 0, erased = 0, tombstone = 0, mean_displacement = 0;
};

/// @brief The slots [first_slot, first_slot + slot_count) laid row-major over width x height
/// pixels. With more slots than pixels, pixel p covers [first + p*count/(w*h), first +
/// (p+1)*count/(w*h)); with fewer, pixel p is slot first + p and pixels past the count show none.
struct occupancy_query {
  std::uint64_t first_slot = 0;
  std::uint64_t slot_count = 0;
  std::uint32_t width = 0, height = 0;
  occupancy_pixel* out = nullptr;  ///< width*height pixels, in the table's memory space
};

/// @brief Slot range of pixel p (half-open), shared by kernels, CPU models and views.
HS_HD void pixel_slot_range(const occupancy_query& q, std::uint64_t p, std::uint64_t& lo,
                            std::uint64_t& hi) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  if (q.slot_count <= pixels) {  // one slot per pixel (cells when zoomed in), none past the end
    lo = q.first_slot + p;
    hi = p < q.slot_count ? lo + 1 : lo;
    return;
  }
  // slot_count <= 2^32 and p < 2^32, so the products fit in 64 bits.
  lo = q.first_slot + p * q.slot_count / pixels;
  hi = q.first_slot + (p + 1) * q.slot_count / pixels;
}

/// @brief A pixel that shows no slot (past the end of the range): drawn as background.
inline constexpr float k_no_slot = -1.f;

/// @brief Fills every pixel of q on the host (the CPU models and images): pixel_of(lo, hi) gives
/// the pixel of slots [lo, hi), a non-empty range with hi at most `slots`; a pixel with no slot
/// there shows none.
template <class PixelOf>
void fill_occupancy(const occupancy_query& q, std::uint64_t slots, PixelOf pixel_of) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  for (std::uint64_t p = 0; p < pixels; ++p) {
    std::uint64_t lo, hi;
    pixel_slot_range(q, p, lo, hi);
    hi = hi < slots ? hi : slots;
    occupancy_pixel px;
    if (lo >= hi)
      px.mean_displacement = k_no_slot;
    else
      px = pixel_of(lo, hi);
    q.out[p] = px;
  }
}

/// @brief One slot as shown in tooltips and at slot-level zoom.
struct slot_record {
  std::uint64_t slot = 0;
  key_type key = k_empty;
  value_type value = k_empty;
  std::uint64_t home = 0;
  std::uint64_t displacement = 0;
  slot_state state = slot_state::empty;
};

/// @brief Slab family: buckets [first_bucket, first_bucket + bucket_count) over `width` pixels,
/// pixel p covering [first + p*count/width, first + (p+1)*count/width) (at least one bucket).
struct bucket_strip_query {
  std::uint64_t first_bucket = 0, bucket_count = 0;
  std::uint32_t width = 0;
};

/// @brief The buckets [lo, hi) strip pixel p covers in a table of `buckets` (the query clamped to
/// them; at least one bucket, none when the clamped query covers none).
struct bucket_range {
  std::uint64_t lo = 0, hi = 0;
};
HS_HD bucket_range strip_pixel_buckets(const bucket_strip_query& q, std::uint64_t buckets,
                                       std::uint64_t p) {
  const std::uint64_t first = q.first_bucket < buckets ? q.first_bucket : buckets;
  const std::uint64_t count = q.bucket_count < buckets - first ? q.bucket_count : buckets - first;
  if (count == 0 || q.width == 0) return {first, first};
  const std::uint64_t lo = first + p * count / q.width;
  std::uint64_t hi = first + (p + 1) * count / q.width;
  hi = hi > lo + 1 ? hi : lo + 1;
  return {lo, hi < first + count ? hi : first + count};
}

/// @brief Chain lengths (slabs, base included) of the buckets one strip pixel covers.
struct strip_pixel {
  float mean_chain = 0, max_chain = 0;
};

/// @brief The strip on the host (the CPU models and images): measure(b) of each bucket, as the
/// mean and largest per pixel.
template <class MeasureOf>
std::vector<strip_pixel> fill_strip(const bucket_strip_query& q, std::uint64_t buckets,
                                    MeasureOf measure) {
  std::vector<strip_pixel> out(q.width);
  for (std::uint32_t p = 0; p < q.width; ++p) {
    const bucket_range r = strip_pixel_buckets(q, buckets, p);
    if (r.lo == r.hi) break;
    double sum = 0;
    float mx = 0;
    for (std::uint64_t b = r.lo; b < r.hi; ++b) {
      const auto m = static_cast<float>(measure(b));
      sum += m;
      mx = m > mx ? m : mx;
    }
    out[p] = {static_cast<float>(sum / static_cast<double>(r.hi - r.lo)), mx};
  }
  return out;
}

/// @brief One slab as stored: its 32 words (15 key-value pairs, the auxiliary word, the next
/// pointer) and its 32-bit SlabAlloc address (k_base_address for a bucket's base slab).
struct slab_record {
  static constexpr std::uint32_t k_base_address = 0xfffffffeu;
  std::uint32_t address = k_base_address;
  std::uint32_t words[32] = {};
};

/// @brief A bucket's slab list, base slab first; `total` counts all its slabs (more than the
/// records when the chain was cut at the request's limit).
struct slab_chain {
  std::uint64_t bucket = 0;
  std::vector<slab_record> slabs;
  std::uint64_t total = 0;
};

/// @brief SlabAlloc's state: allocated slabs per memory block (0..1024), blocks in super-block
/// order.
struct allocator_image {
  std::uint32_t blocks_per_super = 0, super_blocks = 0;
  std::vector<std::uint16_t> block_fill;
};

/// @brief Hive family: one live word of the overflow stash, at its ring position.
struct stash_entry {
  std::uint64_t position = 0;
  key_type key = k_empty;
  value_type value = k_empty;
};

/// @brief Hive family: the most moves an eviction path may make (one hop per lane of a warp).
inline constexpr int k_max_eviction_path = 32;

/// @brief Hive family: one recent eviction path. The newcomer's key, then per hop the bucket a
/// key moved out of and that key; `dest` is the bucket with a free slot the last moved key went to.
struct eviction_path {
  std::uint32_t length = 0;  ///< hops (buckets a key moved out of)
  key_type newcomer = 0;
  std::uint64_t bucket[k_max_eviction_path] = {};
  key_type moved[k_max_eviction_path] = {};  ///< moved[d]: the key moved out of bucket[d] (moved[0]
                                             ///< made room for the newcomer)
  std::uint64_t dest = 0;
};

/// @brief What one sample of a table should produce; absent parts are skipped (the slab parts are
/// ignored by the other families, the hive parts likewise). For hive tables the occupancy
/// pixels' mean displacement, the probe histogram and a dumped slot's displacement are the
/// candidate index (0: the key sits in its first candidate bucket); a dumped slot's home is the
/// first slot of its first candidate bucket; the strip gives the mean and largest bucket fill.
struct inspect_request {
  std::optional<occupancy_query> occupancy;
  bool probe_histogram = false;             ///< slab family: the slab index holding each live key
  std::optional<std::uint64_t> dump_first;  ///< first slot of a dump of `dump_count` slots
  std::uint32_t dump_count = 0;
  bool chain_lengths = false;                 ///< slab: histogram of slabs per bucket
  std::optional<bucket_strip_query> strip;    ///< slab: chain lengths along the buckets
  std::optional<std::uint64_t> chain_bucket;  ///< slab: the slab list of one bucket
  std::uint32_t chain_limit = 64;             ///< slab: most slabs of that list to copy
  bool allocator = false;                     ///< slab: SlabAlloc's memory blocks
  bool bucket_fill = false;                   ///< hive: histogram of live slots per bucket
  bool stash = false;                         ///< hive: the stash's live words
  std::uint32_t stash_limit = 512;            ///< hive: most stash words to copy
  bool paths = false;                         ///< hive: the recent eviction paths (instrumented)
};

struct inspect_result {
  hs::probe_histogram histogram;
  std::vector<slot_record> slots;
  hs::probe_histogram chains;  ///< slabs per bucket (slab family)
  std::vector<strip_pixel> strip;
  slab_chain chain;
  allocator_image allocator;
  hs::probe_histogram bucket_fill;   ///< live slots per bucket, 0..slots (hive family)
  std::vector<stash_entry> stash;    ///< hive: live stash words, oldest first (at most stash_limit)
  std::vector<eviction_path> paths;  ///< hive: the recent eviction paths, oldest first
};

}  // namespace hs
