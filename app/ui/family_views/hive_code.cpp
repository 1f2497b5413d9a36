// The hive's decisions, line by line.
#include "app/ui/family_views/hive_code.hpp"

#include <bit>

#include "core/common/format.hpp"

namespace hs::app {

namespace {
constexpr const char* k_cand = "hive-candidates";
constexpr const char* k_find = "hive-find-op";
constexpr const char* k_erase = "hive-erase-op";
constexpr const char* k_first = "hive-first-pass";
constexpr const char* k_common = "hive-insert-common";
constexpr const char* k_insert = "hive-insert-op";
constexpr const char* k_claim = "hive-claim-slot";
constexpr const char* k_intent = "hive-insert-intent";
constexpr const char* k_insert_claim = "hive-insert-claim";
constexpr const char* k_evict = "hive-insert-evict";
constexpr const char* k_stash = "hive-insert-stash";

std::string bucket_name(const hive::bucket_read& r) {
  return strprintf("bucket %llu (candidate %d)", static_cast<unsigned long long>(r.bucket),
                   r.candidate);
}
int free_of(const hive::bucket_read& r) { return std::popcount(r.free_mask); }

/// One walkthrough being written: the operation, its trace, and how far the passes told so far
/// got through the trace's bucket reads.
struct hive_walk {
  const stepped_op& op;
  const hive::op_trace& t;
  code_walkthrough& w;
  int slots = 0;                     ///< a bucket's
  std::size_t i = 0;                 ///< the next read to tell
  key_radix radix = key_radix::hex;  ///< how keys are written

  void candidates();
  void claimed(const char* region, const hive::bucket_read& r, const char* who);
  bool first_pass();
  void first_pass_decided(const hive::bucket_read& r, int floor);
  void first_pass_match(const hive::bucket_read& r);
  void first_pass_passed_on(const hive::bucket_read& r, int floor);
  void lookup();
  void lookup_match(const char* region, const hive::bucket_read& r);
  bool insert_regions();
  bool common_pass();
  void general_insert();
  void insert_claim(const std::string& frees);
  void eviction(const eviction_path& p);
  void stash_or_refused();
};

void hive_walk::candidates() {
  const auto& c = op.hive_before->candidates;
  std::string cands;
  for (std::size_t k = 0; k < c.size(); ++k)
    cands += strprintf("%s%llu", k ? ", " : "", static_cast<unsigned long long>(c[k].bucket));
  slots = static_cast<int>(c.front().words.size());
  w.events.push_back(
      {k_cand, "candidates",
       strprintf("%zu hash functions give its candidate buckets: %s", c.size(), cands.c_str())});
}

void hive_walk::claimed(const char* region, const hive::bucket_read& r, const char* who) {
  w.events.push_back({region, "lowest_free",
                      strprintf("the lowest free slot of bucket %llu: %d",
                                static_cast<unsigned long long>(r.bucket), t.slot)});
  w.events.push_back({region, "atomic_and",
                      strprintf("%s clears bit %d of its free mask (atomicAnd): the slot is "
                                "this insert's (WABC)",
                                who, t.slot)});
}

// The first pass, every kind: the first candidate, read with those of the tile's other
// operations; the operation's own thread decides (decide_first). True when it decided there.
bool hive_walk::first_pass() {
  const int floor = hive::first_choice_floor(slots);
  w.regions = {k_cand, k_first};
  const hive::bucket_read& r = t.reads[i++];
  w.events.push_back({k_first, "read",
                      strprintf("the first pass: the tile reads %s, beside the first candidates "
                                "of its other operations",
                                bucket_name(r).c_str())});
  w.events.push_back({k_first, "ballot",
                      r.match >= 0 ? strprintf("a ballot: slot %d holds the key", r.match)
                                   : std::string("a ballot: no lane holds the key")});
  if (t.pass == hive::kernel_pass::first) {
    first_pass_decided(r, floor);
    return true;
  }
  first_pass_passed_on(r, floor);
  return false;
}

void hive_walk::first_pass_decided(const hive::bucket_read& r, int floor) {
  if (r.match >= 0) {
    first_pass_match(r);
  } else if (op.kind == op_kind::insert) {
    w.events.push_back({k_first, "room",
                        strprintf("%d free slots, at least %d (a quarter), and none of its "
                                  "keys lives elsewhere",
                                  free_of(r), floor)});
    claimed(k_first, r, "its own lane");
    w.events.push_back({k_first, "store", strprintf("and stores the word in slot %d", t.slot)});
  } else {
    w.events.push_back({k_first, "away",
                        "its lock word, read again: no key whose first candidate this is "
                        "went elsewhere (away bit clear, no stash hint)"});
    w.events.push_back({k_first, "missing", "so the key is nowhere: missing"});
  }
}

void hive_walk::first_pass_match(const hive::bucket_read& r) {
  w.events.push_back({k_first, "match", "the key's slot and word go to the operation's own lane"});
  if (op.kind == op_kind::find) {
    w.events.push_back(
        {k_first, "found",
         strprintf("found: value %u", hive::value_of(r.words[static_cast<std::size_t>(r.match)]))});
  } else if (op.kind == op_kind::erase) {
    w.events.push_back({k_first, "cas", strprintf("its lane CASes slot %d to empty", r.match)});
    w.events.push_back(
        {k_first, "free_bit", strprintf("and sets bit %d of the free mask again", r.match)});
    w.events.push_back({k_first, "erased", "erased"});
  } else {
    w.events.push_back(
        {k_first, "cas", strprintf("its lane CASes the new value into slot %d", r.match)});
    w.events.push_back({k_first, "replaced", "replaced"});
  }
}

// Why the first pass left the operation to the next.
void hive_walk::first_pass_passed_on(const hive::bucket_read& r, int floor) {
  if (op.kind == op_kind::insert)
    w.events.push_back(
        {k_first, "room",
         t.reads.size() > 1 && t.reads[1].pass == hive::kernel_pass::common
             ? (free_of(r) < floor ? strprintf("only %d free slots, under %d: on to the next "
                                               "pass",
                                               free_of(r), floor)
                                   : std::string("a key of this bucket lives elsewhere (its "
                                                 "away bit): on to the next pass"))
             : std::string("no claim in this pass (the stash in use, or a "
                           "single candidate): on to the general insert")});
  else
    w.events.push_back({k_first, "away",
                        "a key of this bucket went elsewhere (its away bit) or to the stash: "
                        "the general path looks further"});
}

// A find or an erase after the first pass: the other candidates one at a time, then the stash.
void hive_walk::lookup() {
  const char* region = op.kind == op_kind::find ? k_find : k_erase;
  w.regions.push_back(region);
  for (; i < t.reads.size(); ++i) {
    const hive::bucket_read& r = t.reads[i];
    w.events.push_back({region, "read",
                        strprintf("the tile reads %s: each lane holds a few of its %d slots",
                                  bucket_name(r).c_str(), slots)});
    if (r.match < 0) {
      w.events.push_back({region, "next", "no lane holds the key: the ballot is empty, next"});
      continue;
    }
    lookup_match(region, r);
    return;
  }
  if (t.stash_read) {
    w.events.push_back({region, "stash", "a stashed key's first candidate is here: the stash"});
    if (t.stash_position) {
      w.events.push_back({region, op.kind == op_kind::find ? "stash_found" : "stash_erased",
                          strprintf("stash slot %llu holds it",
                                    static_cast<unsigned long long>(*t.stash_position))});
      return;
    }
  }
  w.events.push_back({region, "missing", "in none of its buckets: missing"});
}

void hive_walk::lookup_match(const char* region, const hive::bucket_read& r) {
  w.events.push_back(
      {region, "match", strprintf("one ballot: the lane holding slot %d has the key", r.match)});
  if (op.kind == op_kind::find) {
    w.events.push_back(
        {region, "found",
         strprintf("found: value %u", hive::value_of(r.words[static_cast<std::size_t>(r.match)]))});
  } else {
    w.events.push_back({region, "cas", strprintf("lane 0 CASes slot %d to empty", r.match)});
    w.events.push_back(
        {region, "free_bit", strprintf("and sets bit %d of the free mask again", r.match)});
    w.events.push_back({region, "erased", "erased"});
  }
}

// The code an insert ran after the first pass; true when the second pass read its buckets.
bool hive_walk::insert_regions() {
  bool common = false;
  for (const auto& r : t.reads) common |= r.pass == hive::kernel_pass::common;
  if (common) w.regions.push_back(k_common);
  if (t.pass != hive::kernel_pass::general) return common;
  w.regions.push_back(k_insert);
  if (t.step == hive::insert_step::claim) {
    w.regions.push_back(k_insert_claim);
    w.regions.push_back(k_claim);
  } else if (t.step != hive::insert_step::replace) {  // every candidate full: steps 3 and 4
    w.regions.push_back(k_intent);
    w.regions.push_back(k_evict);
    if (t.step == hive::insert_step::stash) w.regions.push_back(k_stash);  // stored or refused
  }
  return common;
}

// The second pass: the first two candidates at once. True when it stored the key.
bool hive_walk::common_pass() {
  const hive::bucket_read &a = t.reads[i], &b = t.reads[i + 1];
  i += 2;
  w.events.push_back({k_common, "read", "the second pass reads " + bucket_name(a)});
  w.events.push_back({k_common, "read_second", "and " + bucket_name(b) + " at once"});
  w.events.push_back({k_common, "ballot",
                      a.match >= 0 || b.match >= 0 ? std::string("a ballot: the key is there")
                                                   : std::string("a ballot: no lane holds it")});
  if (t.pass == hive::kernel_pass::common) {
    w.events.push_back({k_common, "placement",
                        strprintf("free slots %d and %d: placement chooses candidate %d",
                                  free_of(a), free_of(b), t.placement)});
    claimed(k_common, t.placement == 0 ? a : b, "lane 0");
    w.events.push_back({k_common, "store", strprintf("lane 0 stores the word in slot %d", t.slot)});
    return true;
  }
  w.events.push_back({k_common, "passed_on",
                      a.match >= 0 || b.match >= 0 ? "the key is here: left to the general insert"
                                                   : "both full: left to the general insert"});
  return false;
}

// insert_op: step 1 scans the candidates left for the key; then a replace, a claim, an eviction
// path, or the stash.
void hive_walk::general_insert() {
  std::string scanned;
  for (std::size_t r = i; r < t.reads.size(); ++r)
    scanned += (r > i ? ", " : "") + std::to_string(t.reads[r].bucket);
  w.events.push_back({k_insert, "scan",
                      "step 1: scan_for_insert reads bucket" +
                          std::string(t.reads.size() - i > 1 ? "s " : " ") + scanned +
                          (t.stash_read ? ", and the stash" : "") + " for the key"});
  if (t.step == hive::insert_step::replace) {
    w.events.push_back(
        {k_insert, "replaced",
         t.stash_position
             ? strprintf("stash slot %llu holds it: its word is swapped for the new value",
                         static_cast<unsigned long long>(*t.stash_position))
             : strprintf("slot %d of bucket %llu holds it: a CAS swaps in the new value", t.slot,
                         static_cast<unsigned long long>(
                             t.reads[static_cast<std::size_t>(t.decided)].bucket))});
    return;
  }
  std::string frees;
  for (std::size_t r = i; r < t.reads.size(); ++r)
    frees += (r > i ? ", " : "") + std::to_string(free_of(t.reads[r]));
  if (t.step == hive::insert_step::claim) return insert_claim(frees);
  w.events.push_back(
      {k_insert, "placement", "step 2: free slots " + frees + ": every candidate is full"});
  if (t.path) return eviction(*t.path);
  w.events.push_back({k_evict, "find_path", "step 3: no eviction path within the depth"});
  stash_or_refused();
}

void hive_walk::insert_claim(const std::string& frees) {
  const hive::bucket_read& r = t.reads[static_cast<std::size_t>(t.decided)];
  w.events.push_back({k_insert, "placement",
                      strprintf("step 2: free slots %s: placement chooses candidate %d",
                                frees.c_str(), t.placement)});
  w.events.push_back({k_insert_claim, "claim", "claim_slot_watched on " + bucket_name(r)});
  claimed(k_claim, r, "lane 0");
  w.events.push_back({k_claim, "won", "the bit was still set: won (no key moved meanwhile)"});
  w.events.push_back(
      {k_insert_claim, "store", strprintf("lane 0 stores the word in slot %d", t.slot)});
}

void hive_walk::eviction(const eviction_path& p) {
  std::string hops;
  for (std::uint32_t d = 0; d < p.length; ++d)
    hops += strprintf("%sbucket %llu: %s moves on", d ? "; " : "",
                      static_cast<unsigned long long>(p.bucket[d]),
                      key_text(p.moved[d], radix).c_str());
  w.events.push_back({k_evict, "find_path",
                      strprintf("step 3: find_path walks %u hop%s (%s) to bucket %llu, which has "
                                "a free slot",
                                p.length, p.length == 1 ? "" : "s", hops.c_str(),
                                static_cast<unsigned long long>(p.dest))});
  w.events.push_back({k_evict, "run_path",
                      "run_path moves the keys backwards from the free end, each under its "
                      "bucket's lock, leaving a move marker until the next hop overwrites it"});
  w.events.push_back({k_evict, "evicted",
                      strprintf("the newcomer takes %s's old slot in bucket %llu",
                                key_text(p.moved[0], radix).c_str(),
                                static_cast<unsigned long long>(p.bucket[0]))});
}

void hive_walk::stash_or_refused() {
  if (t.step == hive::insert_step::stash) {
    w.events.push_back({k_stash, "stash", "step 4: a slot at the stash ring's tail"});
    w.events.push_back({k_stash, "stashed", "the word is stored in the stash"});
  } else {
    w.events.push_back({k_stash, "stash", "step 4: the stash ring's tail"});
    w.events.push_back({k_stash, "full", "the stash is full too: refused (failed_full)"});
  }
}

}  // namespace

code_walkthrough hive_walkthrough(const stepped_op& op, const hive::op_trace& t, key_radix radix) {
  code_walkthrough w;
  w.title = strprintf("%s(%s) -> %s", std::string(to_string(op.kind)).c_str(),
                      key_text(op.key, radix).c_str(), std::string(to_string(op.status)).c_str());
  if (!t.agrees)
    w.title +=
        " (the table reported this; replayed on the buckets as they were before the step, "
        "another operation of the step got there first)";
  if (!op.hive_before || t.reads.empty()) {
    w.regions = {k_cand};
    return w;  // rejected: nothing read
  }
  hive_walk h{op, t, w};
  h.radix = radix;
  h.candidates();
  if (h.first_pass()) return w;
  if (op.kind != op_kind::insert) {
    h.lookup();
    return w;
  }
  if (h.insert_regions() && h.common_pass()) return w;
  h.general_insert();
  return w;
}

std::string hive_english(const std::string& region, const std::string& tag) {
  static constexpr english_line k_lines[] = {
      {k_cand, "candidates", "Hash the key with each hash function: its candidate buckets."},
      {k_find, "read", "The tile reads a whole bucket: each lane a few slots."},
      {k_find, "match", "Which lane holds the key? One warp ballot answers (WCME)."},
      {k_find, "next", "Not here: try the next candidate."},
      {k_find, "found", "Found: return its value."},
      {k_find, "stash", "A stashed key's first candidate is here: search the stash."},
      {k_find, "stash_found", "Found in the stash."},
      {k_find, "missing", "In no candidate and not in the stash: missing."},
      {k_erase, "read", "The tile reads a whole bucket: each lane a few slots."},
      {k_erase, "match", "Which lane holds the key? One warp ballot answers (WCME)."},
      {k_erase, "next", "Not here: try the next candidate."},
      {k_erase, "cas", "One lane swaps the key's word for empty with a CAS."},
      {k_erase, "free_bit", "Mark the slot free again in the bucket's free mask."},
      {k_erase, "erased", "Erased."},
      {k_erase, "stash", "A stashed key's first candidate is here: search the stash."},
      {k_erase, "stash_erased", "Erased from the stash."},
      {k_erase, "missing", "In no candidate and not in the stash: missing."},
      {k_first, "read", "First pass: the tile reads the first candidate bucket."},
      {k_first, "ballot", "One ballot: does any lane hold the key?"},
      {k_first, "match", "It does: its slot and word go to the operation's own lane."},
      {k_first, "moving", "A move marker: the key is in transit, the general path looks again."},
      {k_first, "found", "Found: return its value."},
      {k_first, "cas", "Its lane swaps the word with a CAS: empty, or the new value."},
      {k_first, "replaced", "Replaced: the key keeps its slot, with the new value."},
      {k_first, "free_bit", "Mark the slot free again in the bucket's free mask."},
      {k_first, "erased", "Erased."},
      {k_first, "in_flight", "A slot taken but still empty: a claim in flight, wait for it."},
      {k_first, "room", "A quarter of it free, and none of its keys moved away?"},
      {k_first, "lowest_free", "Pick its lowest free slot."},
      {k_first, "atomic_and", "Claim it: one atomicAnd clears its bit in the free mask."},
      {k_first, "store", "Store the key and value in the claimed slot."},
      {k_first, "away", "Did any key of this bucket go elsewhere (away bit, stash)?"},
      {k_first, "missing", "None did, and the key is not here: it is nowhere. Missing."},
      {k_common, "read", "Second pass: read the first candidate..."},
      {k_common, "read_second", "...and the second, at once."},
      {k_common, "ballot", "One ballot: is the key (or a claim in flight) in either?"},
      {k_common, "placement", "The first while a quarter is free, else the emptier one."},
      {k_common, "lowest_free", "Pick its lowest free slot."},
      {k_common, "atomic_and", "Claim it: one atomicAnd clears its bit in the free mask."},
      {k_common, "store", "Store the key and value in the claimed slot."},
      {k_common, "passed_on", "Not stored here: the general insert takes over."},
      {k_insert, "scan", "Step 1: look for the key in every candidate (and the stash)."},
      {k_insert, "replaced", "Found: replace its value. Done."},
      {k_insert, "placement", "Step 2: which candidate has room?"},
      {k_insert_claim, "claim", "Claim a free slot there (WABC)."},
      {k_insert_claim, "store", "Store the key and value in the claimed slot."},
      {k_evict, "find_path", "Step 3: find a short cuckoo path to a bucket with room."},
      {k_evict, "run_path", "Move the keys along it, last hop first."},
      {k_evict, "evicted", "The new key takes the slot the first move freed."},
      {k_stash, "stash", "Step 4: take a slot in the overflow stash."},
      {k_stash, "stashed", "Stored in the stash."},
      {k_stash, "full", "The stash is full too: the insert is refused."},
      {k_claim, "lowest_free", "Pick the lowest free slot."},
      {k_claim, "atomic_and", "One atomicAnd clears its bit in the free mask."},
      {k_claim, "won", "Was the bit still set? Then the slot is ours."},
  };
  return english_of(k_lines, region, tag);
}

}  // namespace hs::app
