#include "core/slab/slab_invariants.hpp"

#include <bit>
#include <unordered_set>

#include "core/common/format.hpp"

namespace hs::slab {

namespace {

struct checker {
  invariant_report r;
  void fail(std::string what) {
    ++r.violations;
    if (r.problems.size() < 8) r.problems.push_back(std::move(what));
  }
};

/// One bucket's counts as its list is walked.
struct bucket_tally {
  std::uint64_t slabs = 0, live = 0, deleted = 0;
  bool seen_empty = false;  // unique mode keeps its pairs in front of the empty ones
};

using reached_bits = std::vector<std::vector<std::uint32_t>>;  // per super block, slabs reached

// A slab reached twice means two lists share it (or one loops into another): walking on would
// count its pairs again, so the caller stops there.
bool mark_reached(checker& c, const slab_image& img, reached_bits& reached, std::uint32_t address,
                  std::uint32_t b) {
  const std::uint32_t super = super_of(address), index = index_in_super(address);
  std::uint32_t& bit = reached[super][index / 32];
  if (bit >> (index % 32) & 1u) {
    c.fail(strprintf("slab %08x is reached twice (bucket %u)", address, b));
    return false;
  }
  bit |= 1u << (index % 32);
  if (!img.allocated(address))
    c.fail(strprintf("slab %08x in bucket %u's list is free in SlabAlloc's bitmap", address, b));
  return true;
}

void check_pairs(checker& c, const slab_image& img, const std::uint32_t* w, std::uint32_t b,
                 bool unique, bucket_tally& t, std::unordered_set<key_type>& keys) {
  for (int p = 0; p < k_slab_pairs; ++p) {
    const std::uint32_t k = w[2 * p], v = w[2 * p + 1];
    if (k == k_empty) {
      if (v != k_empty) c.fail(strprintf("bucket %u: an empty pair holds value %u", b, v));
      t.seen_empty = true;
      continue;
    }
    if (unique && t.seen_empty)
      c.fail(strprintf("bucket %u: a pair (key %u) follows an empty pair in unique mode", b, k));
    if (k == k_tombstone) {
      ++t.deleted;
      if (!unique)
        c.fail(strprintf("bucket %u: a tombstone in multi mode (deleted pairs must be empty)", b));
      if (v != k_empty) c.fail(strprintf("bucket %u: a tombstone keeps value %u", b, v));
      continue;
    }
    ++t.live;
    if (v == k_empty) c.fail(strprintf("bucket %u: key %u holds the empty value", b, k));
    if (img.bucket_of(k) != b)
      c.fail(strprintf("key %u lies in bucket %u, not its own %u", k, b, img.bucket_of(k)));
    if (unique && !keys.insert(k).second)
      c.fail(strprintf("key %u appears twice in bucket %u (unique mode)", k, b));
  }
}

void check_bucket(checker& c, const slab_image& img, const invariant_options& opt, std::uint32_t b,
                  reached_bits& reached, std::unordered_set<key_type>& keys) {
  const bool unique = img.mode == slab_mode::unique;
  bucket_tally t;
  keys.clear();
  const walk_end end =
      walk_chain(img, b, [&](const std::uint32_t* w, std::uint32_t address, std::uint64_t pos) {
        ++t.slabs;
        if (pos > 0 && !mark_reached(c, img, reached, address, b)) return false;
        check_pairs(c, img, w, b, unique, t, keys);
        return true;
      });
  if (end == walk_end::bad_pointer)
    c.fail(strprintf("bucket %u: a next pointer names no slab of the pool", b));
  if (end == walk_end::cycle) c.fail(strprintf("bucket %u: its list does not end (a cycle)", b));
  if (opt.flushed) {
    const std::uint64_t minimal = t.live == 0 ? 1 : (t.live + k_slab_pairs - 1) / k_slab_pairs;
    if (t.slabs != minimal)
      c.fail(strprintf("bucket %u: %llu slabs after FLUSH for %llu live pairs (minimal %llu)", b,
                       (unsigned long long)t.slabs, (unsigned long long)t.live,
                       (unsigned long long)minimal));
    if (t.deleted) c.fail(strprintf("bucket %u: deleted pairs remain after FLUSH", b));
  }
  c.r.live += t.live;
  c.r.deleted += t.deleted;
  c.r.chained += t.slabs - 1;
}

// Returns the slabs SlabAlloc's bitmaps mark allocated, for the stats to be checked against.
std::uint64_t check_leaks(checker& c, const slab_image& img, const reached_bits& reached) {
  std::uint64_t leaked = 0, allocated = 0;
  for (std::size_t s = 0; s < img.bitmaps.size(); ++s)
    for (std::size_t i = 0; i < img.bitmaps[s].size(); ++i) {
      leaked += static_cast<std::uint64_t>(std::popcount(img.bitmaps[s][i] & ~reached[s][i]));
      allocated += static_cast<std::uint64_t>(std::popcount(img.bitmaps[s][i]));
    }
  if (leaked)
    c.fail(strprintf("%llu slabs are allocated in SlabAlloc but in no list (leaked)",
                     (unsigned long long)leaked));
  return allocated;
}

void check_stats(checker& c, const table_stats& st, std::uint64_t allocated) {
  if (st.live != c.r.live)
    c.fail(strprintf("stats say %llu live pairs, the lists hold %llu", (unsigned long long)st.live,
                     (unsigned long long)c.r.live));
  if (st.tombstones != c.r.deleted)
    c.fail(strprintf("stats say %llu tombstones, the lists hold %llu",
                     (unsigned long long)st.tombstones, (unsigned long long)c.r.deleted));
  if (st.slab.allocated_slabs != allocated)
    c.fail(strprintf("stats say %llu slabs allocated, the bitmaps mark %llu",
                     (unsigned long long)st.slab.allocated_slabs, (unsigned long long)allocated));
  if (st.slab.chained_slabs != c.r.chained)
    c.fail(strprintf("stats say %llu chained slabs, the lists hold %llu",
                     (unsigned long long)st.slab.chained_slabs, (unsigned long long)c.r.chained));
}

}  // namespace

std::string invariant_report::describe() const {
  std::string s = strprintf("%llu violations", static_cast<unsigned long long>(violations));
  for (const auto& p : problems) s += "\n  " + p;
  return s;
}

invariant_report check_invariants(const slab_image& img, const invariant_options& opt) {
  checker c;
  reached_bits reached;
  for (const auto& words : img.bitmaps) reached.emplace_back(words.size(), 0u);
  std::unordered_set<key_type> keys;  // one bucket's at a time, kept to reuse its storage
  for (std::uint32_t b = 0; b < img.buckets; ++b) check_bucket(c, img, opt, b, reached, keys);
  const std::uint64_t allocated = check_leaks(c, img, reached);
  if (opt.stats) check_stats(c, *opt.stats, allocated);
  return c.r;
}

}  // namespace hs::slab
