// Replaying hive operations for step mode, by the device's rules (hive_trace.hpp).
#include "core/hive/hive_trace.hpp"

#include <bit>

namespace hs::hive {

const char* to_string(kernel_pass p) {
  switch (p) {
    case kernel_pass::none: return "none";
    case kernel_pass::first: return "the first pass";
    case kernel_pass::common: return "insert_common";
    case kernel_pass::general: return "insert_op";
  }
  return "?";
}

std::optional<std::uint64_t> decided_bucket(const op_trace& t) {
  if (t.path) return t.path->bucket[0];
  if (t.decided >= 0) return t.reads[static_cast<std::size_t>(t.decided)].bucket;
  return std::nullopt;
}

namespace {
// A slot whose bit is taken while its word is still empty: a claim in flight (never at rest, but
// the kernel checks for one, so the replay does too).
bool claim_in_flight(const bucket_read& r) {
  for (std::size_t s = 0; s < r.words.size(); ++s)
    if (r.words[s] == k_empty_word && !((r.free_mask >> s) & 1u)) return true;
  return false;
}
int free_count(const bucket_read& r) { return std::popcount(r.free_mask); }

// The status an operation of this kind reports when it finds its key.
op_status hit_status(op_kind kind) {
  return kind == op_kind::find    ? op_status::found
         : kind == op_kind::erase ? op_status::erased
                                  : op_status::replaced;
}

// The kernel's claims in its passes: two distinct candidates and the stash empty.
bool passes_claim(const hive_key_before& kb) {
  const auto& c = kb.candidates;
  return c.size() == 2 && !kb.stash_used && c[0].bucket != c[1].bucket;
}

void decide_at(op_trace& t, std::size_t r) {
  t.decided = static_cast<int>(r);
  t.slot = t.reads[r].match;
}
}  // namespace

step_replay::bucket_state& step_replay::state_of(const hive_bucket_before& b) {
  auto [it, fresh] = seen_.try_emplace(b.bucket);
  if (fresh) it->second = {b.words, b.free_mask, b.lock};
  return it->second;
}

bucket_read step_replay::read(kernel_pass pass, int candidate, const hive_bucket_before& b,
                              key_type k) {
  const bucket_state& s = state_of(b);
  bucket_read r{pass, candidate, b.bucket, s.words, s.free_mask};
  for (std::size_t i = 0; i < s.words.size(); ++i)
    if (s.words[i] != k_empty_word && key_of(s.words[i]) == k) {
      r.match = static_cast<int>(i);
      break;
    }
  return r;
}

// Step 2's WABC: the lowest free slot of candidate i, taken (a key placed outside its first
// candidate sets that bucket's away bit).
void step_replay::claim(op_trace& t, const hive_key_before& kb, int i, key_type k, value_type v) {
  bucket_state& s = state_of(kb.candidates[static_cast<std::size_t>(i)]);
  const int slot = std::countr_zero(s.free_mask);
  s.words[static_cast<std::size_t>(slot)] = pack(k, v);
  s.free_mask &= ~(1u << slot);
  if (i != 0) state_of(kb.candidates[0]).lock |= k_away_bit;
  t.step = insert_step::claim;
  t.slot = slot;
  t.placement = i;
  for (std::size_t r = t.reads.size(); r-- > 0;)
    if (t.reads[r].candidate == i) {
      t.decided = static_cast<int>(r);
      break;
    }
}

bool step_replay::stash_may_hold(const hive_key_before& kb) {
  return kb.stash_used && stash_hint(state_of(kb.candidates[0]).lock) != 0;
}

// The first pass, every kind (decide_first): the first candidate alone.
bool step_replay::replay_first_pass(op_trace& t, const stepped_op& op) {
  const hive_key_before& kb = *op.hive_before;
  const auto& c = kb.candidates;
  const int slots = static_cast<int>(c[0].words.size());
  const key_type k = op.key;
  t.reads.push_back(read(kernel_pass::first, 0, c[0], k));
  const bucket_read& r0 = t.reads.back();
  const std::uint32_t lock0 = state_of(c[0]).lock;
  if (r0.match >= 0) {  // found, emptied by CAS, or replaced by CAS
    t.pass = kernel_pass::first;
    decide_at(t, 0);
    word_type& w = state_of(c[0]).words[static_cast<std::size_t>(t.slot)];
    if (op.kind == op_kind::erase) {
      w = k_empty_word;
      state_of(c[0]).free_mask |= 1u << t.slot;
    } else if (op.kind == op_kind::insert) {
      w = pack(k, op.value);
      t.step = insert_step::replace;
    }
    t.agrees = op.status == hit_status(op.kind);
    return true;
  }
  constexpr std::uint32_t k_elsewhere = k_lock_bit | k_hint_bits | k_intent_bit | k_away_bit;
  if (!claim_in_flight(r0)) {
    if (op.kind == op_kind::insert && passes_claim(kb) &&
        free_count(r0) >= first_choice_floor(slots) && !(lock0 & k_elsewhere)) {
      t.pass = kernel_pass::first;
      claim(t, kb, 0, k, op.value);
      t.agrees = op.status == op_status::inserted;
      return true;
    }
    if (op.kind != op_kind::insert && !(lock0 & (k_away_bit | k_hint_bits))) {
      t.pass = kernel_pass::first;  // nothing of this bucket went elsewhere: a miss
      t.agrees = op.status == op_status::missing;
      return true;
    }
  }
  return false;
}

// find_op, erase_op: the candidates in order, then the stash.
void step_replay::replay_find_or_erase(op_trace& t, const stepped_op& op) {
  const hive_key_before& kb = *op.hive_before;
  const auto& c = kb.candidates;
  const op_status hit = hit_status(op.kind);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i > 0 && c[i].bucket == c[i - 1].bucket) continue;
    t.reads.push_back(read(kernel_pass::none, static_cast<int>(i), c[i], op.key));
    if (t.reads.back().match < 0) continue;
    decide_at(t, t.reads.size() - 1);
    if (op.kind == op_kind::erase) {
      bucket_state& s = state_of(c[i]);
      s.words[static_cast<std::size_t>(t.slot)] = k_empty_word;
      s.free_mask |= 1u << t.slot;
    }
    t.agrees = op.status == hit;
    return;
  }
  if (stash_may_hold(kb)) {
    t.stash_read = true;
    t.stash_position = kb.stash_position;
  }
  t.agrees = op.status == (t.stash_position ? hit : op_status::missing);
}

// insert_common, the second pass for an insert the first left: both candidates at once.
bool step_replay::replay_insert_common(op_trace& t, const stepped_op& op) {
  const hive_key_before& kb = *op.hive_before;
  const auto& c = kb.candidates;
  if (!passes_claim(kb)) return false;
  const int slots = static_cast<int>(c[0].words.size());
  t.reads.push_back(read(kernel_pass::common, 0, c[0], op.key));
  t.reads.push_back(read(kernel_pass::common, 1, c[1], op.key));
  const bucket_read &a = t.reads[t.reads.size() - 2], &b = t.reads.back();
  const bool notable = a.match >= 0 || b.match >= 0 || claim_in_flight(a) || claim_in_flight(b);
  const bool use1 = free_count(a) < first_choice_floor(slots) && free_count(b) > free_count(a);
  if (!notable && (use1 ? b.free_mask : a.free_mask) != 0) {
    t.pass = kernel_pass::common;
    claim(t, kb, use1 ? 1 : 0, op.key, op.value);
    t.agrees = op.status == op_status::inserted;
    return true;
  }
  return false;
}

// insert_op's step 1: the key in a candidate (or the stash) is replaced. Each distinct candidate
// read leaves its free slots in free_slots, for step 2.
bool step_replay::replay_replace(op_trace& t, const stepped_op& op,
                                 int (&free_slots)[k_max_hashes]) {
  const hive_key_before& kb = *op.hive_before;
  const auto& c = kb.candidates;
  const bool second = c.size() > 1 && c[1].bucket != c[0].bucket;
  const bool third = c.size() > 2 && c[2].bucket != c[1].bucket && c[2].bucket != c[0].bucket;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if ((i == 1 && !second) || (i == 2 && !third)) continue;
    t.reads.push_back(read(kernel_pass::general, static_cast<int>(i), c[i], op.key));
    const bucket_read& r = t.reads.back();
    if (r.match >= 0) {
      decide_at(t, t.reads.size() - 1);
      t.step = insert_step::replace;
      word_type& w = state_of(c[i]).words[static_cast<std::size_t>(r.match)];
      w = pack(op.key, op.value);
      t.agrees = op.status == op_status::replaced;
      return true;
    }
    free_slots[i] = free_count(r);
  }
  if (stash_may_hold(kb)) {
    t.stash_read = true;
    if (kb.stash_position) {
      t.stash_position = kb.stash_position;
      t.step = insert_step::replace;
      t.agrees = op.status == op_status::replaced;
      return true;
    }
  }
  return false;
}

// insert_op's step 2: a free slot where placement_of says.
bool step_replay::replay_claim(op_trace& t, const stepped_op& op,
                               const int (&free_slots)[k_max_hashes]) {
  const hive_key_before& kb = *op.hive_before;
  const auto& c = kb.candidates;
  const int slots = static_cast<int>(c[0].words.size());
  const int best = placement_of(free_slots, static_cast<int>(c.size()), slots);
  if (best < 0) return false;
  claim(t, kb, best, op.key, op.value);
  t.agrees = op.status == op_status::inserted;
  return true;
}

// insert_op's step 3: the eviction path the table recorded for this key, newest first; else
// step 4, the stash (or the table full).
void step_replay::replay_evict_or_stash(op_trace& t, const stepped_op& op,
                                        std::span<const eviction_path> paths) {
  const auto& c = op.hive_before->candidates;
  const key_type k = op.key;
  if (op.status == op_status::inserted)
    for (std::size_t p = paths.size(); p-- > 0;)
      if (paths[p].newcomer == k && paths[p].length > 0) {
        t.path = paths[p];
        t.step = insert_step::evict;
        for (std::size_t i = 0; i < c.size(); ++i)
          if (c[i].bucket == t.path->bucket[0]) {
            bucket_state& s = state_of(c[i]);
            for (std::size_t w = 0; w < s.words.size(); ++w)
              if (s.words[w] != k_empty_word && key_of(s.words[w]) == t.path->moved[0]) {
                s.words[w] = pack(k, op.value);  // the newcomer takes the first hop's slot
                t.slot = static_cast<int>(w);
              }
            break;
          }
        return;
      }
  if (op.status == op_status::inserted) t.step = insert_step::stash;
  t.agrees = op.status == op_status::inserted || op.status == op_status::failed_full;
}

op_trace step_replay::replay(const stepped_op& op, std::span<const eviction_path> paths) {
  op_trace t;
  if (!op.hive_before || op.status == op_status::rejected_key ||
      op.status == op_status::rejected_value || op.hive_before->candidates.empty())
    return t;
  if (replay_first_pass(t, op)) return t;
  if (op.kind != op_kind::insert) {
    replay_find_or_erase(t, op);
    return t;
  }
  if (replay_insert_common(t, op)) return t;
  t.pass = kernel_pass::general;
  int free_slots[k_max_hashes] = {};
  if (replay_replace(t, op, free_slots)) return t;
  if (replay_claim(t, op, free_slots)) return t;
  replay_evict_or_stash(t, op, paths);
  return t;
}

std::vector<op_trace> replay_step(const step_trace& t, std::span<const eviction_path> paths) {
  step_replay r;
  std::vector<op_trace> out;
  for (const stepped_op& op : t.ops) {
    out.push_back(r.replay(op, paths));
    out.back().position = out.size() - 1;
  }
  return out;
}

}  // namespace hs::hive
