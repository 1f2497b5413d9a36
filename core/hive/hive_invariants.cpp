#include "core/hive/hive_invariants.hpp"

#include <unordered_map>

#include "core/common/duplicate_keys.hpp"
#include "core/common/format.hpp"

namespace hs::hive {

std::string invariant_report::describe() const {
  std::string s = std::to_string(violations) + " violation(s)";
  for (const auto& p : problems) s += "\n  " + p;
  return s;
}

invariant_report check_invariants(const hive_image& img, const table_stats* stats) {
  invariant_report r;
  const auto fail = [&](std::string msg) {
    if (r.problems.size() < 8) r.problems.push_back(std::move(msg));
    ++r.violations;
  };
  const std::uint64_t buckets = img.geo.buckets();
  if (img.masks.size() < buckets || img.words.size() < buckets * img.slots) {
    fail("the image holds fewer buckets than its geometry addresses");
    return r;
  }
  std::vector<key_type>
      keys;  // every stored key, for the duplicate check (a radix sort at the end)
  keys.reserve(buckets * img.slots + img.stash_used);
  for (std::uint64_t b = 0; b < buckets; ++b) {
    const word_type* w = img.bucket(b);
    const std::uint32_t m = img.masks[b];
    if (m & ~all_free(img.slots))
      fail(
          strprintf("bucket %llu: mask bits above its %d slots", (unsigned long long)b, img.slots));
    if (img.locks[b] & k_lock_bit)
      fail(strprintf("bucket %llu: its eviction lock is held", (unsigned long long)b));
    if (img.locks[b] & k_intent_bit)
      fail(strprintf("bucket %llu: an insert's intent is still held", (unsigned long long)b));
    for (int s = 0; s < img.slots; ++s) {
      const bool empty = w[s] == k_empty_word;
      if (((m >> s) & 1u) != (empty ? 1u : 0u))
        fail(strprintf("bucket %llu slot %d: the mask says %s but the slot is %s",
                       (unsigned long long)b, s, (m >> s) & 1u ? "free" : "taken",
                       empty ? "empty" : "occupied"));
      if (empty) continue;
      ++r.live;
      const key_type k = key_of(w[s]);
      if (is_marker(w[s]))
        fail(strprintf("bucket %llu slot %d: a move marker of key %u outlived its eviction",
                       (unsigned long long)b, s, k));
      if (is_reserved_key(k))
        fail(strprintf("bucket %llu slot %d: reserved key %u stored", (unsigned long long)b, s, k));
      const candidates c = img.candidates_of(k);
      bool home = false;
      for (int i = 0; i < c.count; ++i) home |= c.b[i] == b;
      if (!home)
        fail(strprintf("key %u sits in bucket %llu, none of its candidates", k,
                       (unsigned long long)b));
      if (home && c.b[0] != b && !(img.locks[c.b[0]] & k_away_bit))
        fail(strprintf("key %u sits in bucket %llu, but its first candidate %llu has no away bit",
                       k, (unsigned long long)b, (unsigned long long)c.b[0]));
      keys.push_back(k);
    }
  }
  std::unordered_map<std::uint64_t, std::uint32_t> hints;
  for (std::uint64_t i = 0; i < img.stash.size(); ++i) {
    if (img.stash[i] == k_empty_word) continue;
    if (i >= img.stash_used) {
      fail(strprintf("stash slot %llu holds a key past the used part", (unsigned long long)i));
      continue;
    }
    ++r.stashed;
    const key_type k = key_of(img.stash[i]);
    ++hints[img.candidates_of(k).b[0]];
    keys.push_back(k);
  }
  for (key_type k : duplicated_keys(keys)) fail(strprintf("key %u is stored twice", k));
  for (std::uint64_t b = 0; b < buckets; ++b) {
    const std::uint32_t hint = stash_hint(img.locks[b]);
    const auto it = hints.find(b);
    const std::uint32_t want = it == hints.end() ? 0 : it->second;
    if (hint != want)
      fail(strprintf("bucket %llu: stash hint %u, but %u stashed keys have it first",
                     (unsigned long long)b, hint, want));
  }
  if (stats) {
    if (stats->live != r.live + r.stashed)
      fail(strprintf("stats count %llu live keys, the image holds %llu",
                     (unsigned long long)stats->live, (unsigned long long)(r.live + r.stashed)));
    if (stats->hive.stash_live != r.stashed) fail("stats and image disagree on stashed keys");
    if (stats->capacity != buckets * img.slots) fail("stats and image disagree on the capacity");
  }
  return r;
}

}  // namespace hs::hive
