#include "core/hive/hive_family.hpp"

#include <algorithm>
#include <cmath>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::hive {

std::string_view to_string(hash_fn f) {
  switch (f) {
    case hash_fn::bithash1: return "bithash1";
    case hash_fn::bithash2: return "bithash2";
    case hash_fn::murmur3: return "murmur3";
    case hash_fn::city: return "city";
    case hash_fn::crc32: return "crc32";
  }
  return "?";
}

std::optional<hash_fn> parse_hash_fn(std::string_view s) {
  for (int i = 0; i < k_hash_fn_count; ++i)
    if (to_string(static_cast<hash_fn>(i)) == s) return static_cast<hash_fn>(i);
  return std::nullopt;
}

std::string to_string(const hash_policy& p) {
  std::string out;
  for (int i = 0; i < p.count; ++i) out += (i ? "+" : "") + std::string(to_string(p.fns[i]));
  return out;
}

std::optional<hash_policy> parse_hash_policy(std::string_view s) {
  hash_policy p;
  p.count = 0;
  while (!s.empty()) {
    const auto plus = s.find('+');
    const auto f = parse_hash_fn(s.substr(0, plus));
    if (!f || p.count == k_max_hashes) return std::nullopt;
    p.fns[p.count++] = *f;
    s = plus == std::string_view::npos ? std::string_view{} : s.substr(plus + 1);
  }
  if (p.count < 2) return std::nullopt;
  for (int i = 0; i < p.count; ++i)
    for (int j = 0; j < i; ++j)
      if (p.fns[i] == p.fns[j]) return std::nullopt;  // the same function twice gives one bucket
  return p;
}

std::uint64_t hive_image::live_in_buckets() const {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < geo.buckets() * slots; ++i) n += words[i] != k_empty_word;
  return n;
}

std::uint64_t hive_image::live_in_stash() const {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < stash_used && i < stash.size(); ++i) n += stash[i] != k_empty_word;
  return n;
}

hive_family* as_hive(table& t) { return dynamic_cast<hive_family*>(&t); }

void rehash_by_resizing(hive_family& t, int slots, std::uint64_t capacity, stream_view s) {
  if (capacity % slots)
    throw user_error("a hive capacity is a whole number of buckets of " + std::to_string(slots) +
                     " slots");
  const std::uint64_t want = capacity / slots, have = t.config().capacity / slots;
  if (want > have)
    t.expand(want - have, s);
  else if (want < have && t.contract(have - want, s) < have - want)
    throw user_error("the hive table cannot shrink to " + format_count(capacity) +
                     " slots: its entries do not fit");
}

std::uint64_t mergeable_buckets(std::uint64_t live, std::uint64_t buckets, int slots,
                                std::uint64_t want) {
  // The fewest buckets that hold `live` keys at k_contract_fill, rounded up.
  const auto needed =
      static_cast<std::uint64_t>(std::ceil(double(live) / (k_contract_fill * double(slots))));
  const std::uint64_t floor = std::max<std::uint64_t>(needed, 1);
  return buckets > floor ? std::min(want, buckets - floor) : 0;
}

std::uint64_t hive_shape::resize_batch(std::uint64_t round) const {
  return batch ? batch : std::max<std::uint64_t>(1, round / 16);
}

std::uint64_t stash_capacity_for(const hive_options& o, std::uint64_t slots) {
  return std::max<std::uint64_t>(64, static_cast<std::uint64_t>(o.stash_fraction * double(slots)));
}

hive_shape resolve_shape(const table_config& cfg) {
  const hive_options& o = cfg.hive;
  hive_shape s;
  s.slots = o.bucket_slots ? o.bucket_slots : k_default_slots;
  if (s.slots != 8 && s.slots != 16 && s.slots != 32)
    throw user_error("hive buckets hold 8, 16 or 32 slots, not " + std::to_string(s.slots));
  s.tile = o.tile ? o.tile : std::min(k_default_tile, s.slots);
  if (s.tile != 2 && s.tile != 4 && s.tile != 8 && s.tile != 16 && s.tile != 32)
    throw user_error("hive tile must be 2, 4, 8, 16 or 32 threads per operation, not " +
                     std::to_string(s.tile));
  if (s.tile > s.slots)
    throw user_error("hive tile of " + std::to_string(s.tile) +
                     " threads is wider than a bucket of " + std::to_string(s.slots) + " slots");
  if (o.hashes.empty()) {
    s.hashes = hash_policy{};
  } else {
    const auto p = parse_hash_policy(o.hashes);
    if (!p)
      throw user_error("hive hashes '" + o.hashes +
                       "': give two or three different functions joined by '+' "
                       "(bithash1, bithash2, murmur3, city, crc32)");
    s.hashes = *p;
  }
  const std::uint64_t cap = cfg.capacity ? cfg.capacity : default_capacity(cfg.backend);
  if (cap % s.slots || !is_pow2(cap / s.slots))
    throw user_error("a hive table of " + format_count(cap) +
                     " slots: the capacity must be a power of two of at least " +
                     std::to_string(s.slots) + " slots (buckets x slots per bucket)");
  if (cap > max_capacity())
    throw user_error("capacity " + format_count(cap) + " exceeds the maximum of 2^32 slots");
  s.buckets = cap / s.slots;
  if (o.eviction_depth < 0 || o.eviction_depth > k_max_eviction_depth)
    throw user_error("hive eviction depth must be 0 to " + std::to_string(k_max_eviction_depth));
  if (!(o.stash_fraction >= 0) || o.stash_fraction > 0.25)
    throw user_error("hive stash fraction must be between 0 and 0.25 of the slots");
  s.stash_capacity = static_cast<std::uint32_t>(stash_capacity_for(o, cap));
  if (o.auto_resize &&
      !(o.shrink_below < o.grow_above / 2 && o.grow_above <= 1.0 && o.shrink_below >= 0))
    throw user_error(
        "hive resize thresholds: need 0 <= shrink < grow / 2 and grow <= 1 (so a grow is not "
        "undone at once)");
  s.batch = o.resize_batch;
  return s;
}

}  // namespace hs::hive
