// The slab hash's decisions, line by line.
#include "app/ui/family_views/slab_code.hpp"

#include "core/common/format.hpp"

namespace hs::app {

namespace {
constexpr const char* k_run = "slab-run-op";
constexpr const char* k_cas = "slab-cas-pair";
}  // namespace

code_walkthrough slab_walkthrough(const stepped_op& op, const slab::op_trace& path,
                                  key_radix radix) {
  code_walkthrough w;
  const std::string key = key_text(op.key, radix);
  w.title = strprintf("%s(%s) -> %s", std::string(to_string(op.kind)).c_str(), key.c_str(),
                      std::string(to_string(op.status)).c_str());
  w.regions = {k_run, k_cas};
  if (path.slabs_read == 0 && !path.linked_new_slab) return w;  // rejected: nothing read
  const unsigned long long bucket = op.list_before ? op.list_before->bucket : 0;
  w.events.push_back({k_run, "bucket",
                      strprintf("bucket %llu: hash(%s) modulo the buckets", bucket, key.c_str())});
  const auto claim = [&](std::size_t slab, int pair) {
    w.events.push_back(
        {k_run, "pair_free",
         strprintf("pair %d of slab %zu is the first empty one (or the key)", pair, slab)});
    w.events.push_back({k_run, "claim", strprintf("compare-and-swap on pair %d", pair)});
    w.events.push_back({k_cas, "cas", "lane 0 swaps the pair's key and value in one 64-bit CAS"});
    w.events.push_back({k_run, "claimed", "the CAS won: the pair holds the key"});
  };
  for (std::size_t s = 0; s < path.slabs_read; ++s) {
    w.events.push_back(
        {k_run, "read", strprintf("the tile reads slab %zu of the list, every pair at once", s)});
    if (path.slab && *path.slab == s && !path.linked_new_slab) {
      if (op.kind == op_kind::find) {
        w.events.push_back(
            {k_run, "match", strprintf("a ballot finds the key in pair %d", path.pair)});
        w.events.push_back({k_run, "found", "its value is returned"});
      } else if (op.kind == op_kind::erase) {
        w.events.push_back(
            {k_run, "erase", strprintf("pair %d holds the key: a CAS marks it erased", path.pair)});
        w.events.push_back({k_cas, "cas", "lane 0 swaps the pair in one 64-bit CAS"});
        w.events.push_back({k_run, "erased", "the CAS won: erased"});
      } else {
        claim(s, path.pair);
      }
      return w;
    }
    if (s + 1 < path.slabs_read || path.linked_new_slab)
      w.events.push_back({k_run, "next", "no pair decides here: the next pointer leads on"});
  }
  if (path.linked_new_slab) {
    w.events.push_back({k_run, "allocate", "the list is full: SlabAlloc gives the tile a slab"});
    w.events.push_back({k_run, "link", "a CAS on the tail's next pointer links it"});
    w.events.push_back({k_run, "read", "the tile reads the new, empty slab"});
    claim(path.slabs_read, path.pair);
    return w;
  }
  if (op.kind != op_kind::insert)
    w.events.push_back({k_run, "missing", "no next slab: the key is not in the list"});
  return w;
}

std::string slab_english(const std::string& region, const std::string& tag) {
  static constexpr english_line k_lines[] = {
      {k_run, "bucket", "Hash the key: its bucket's base slab."},
      {k_run, "read", "The tile reads a whole slab: each lane a few of its words."},
      {k_run, "match", "Which lanes hold the key? A warp ballot answers at once."},
      {k_run, "found", "Found: return the value."},
      {k_run, "pair_free", "The first pair that is empty (or the key, in unique mode)."},
      {k_run, "claim", "Try to write the pair with one atomic CAS."},
      {k_run, "claimed", "The CAS won: inserted (or replaced)."},
      {k_run, "erase", "Mark the key's pair erased with one atomic CAS."},
      {k_run, "erased", "The CAS won: erased."},
      {k_run, "next", "Follow the slab's next pointer down the list."},
      {k_run, "missing", "The list ends: the key is not here."},
      {k_run, "allocate", "The list is full: take a fresh slab from SlabAlloc."},
      {k_run, "link", "Link it after the last slab with one atomic CAS."},
      {k_cas, "cas", "One lane swaps the whole pair, key and value, in 64 bits."},
  };
  return english_of(k_lines, region, tag);
}

}  // namespace hs::app
