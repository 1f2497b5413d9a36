// The parts of an inspection every family shares: occupancy images, slot dumps, the bucket strip.
// What a sample asks for and gets back, with each family's own parts, is core/table/inspection.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/host_device.hpp"
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

/// @brief One slot as shown in tooltips and at slot-level zoom. Keys and values are held at 64 bits
/// for tables of either width (a 32-bit table's empty key is k_empty here too).
struct slot_record {
  std::uint64_t slot = 0;
  std::uint64_t key = k_empty;
  std::uint64_t value = k_empty;
  std::uint64_t home = 0;
  std::uint64_t displacement = 0;
  slot_state state = slot_state::empty;
};

/// @brief For tables of buckets: buckets [first_bucket, first_bucket + bucket_count) over `width`
/// pixels, pixel p covering [first + p*count/width, first + (p+1)*count/width) (at least one
/// bucket).
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

/// @brief A measure of the buckets one strip pixel covers (a list's length, a bucket's fill): their
/// mean and largest.
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

}  // namespace hs
