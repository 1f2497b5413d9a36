// Replaying one linear-probing operation's walk for step mode.
#include "core/linear/linear_trace.hpp"

namespace hs::linear {

const char* to_string(walk_role r) {
  switch (r) {
    case walk_role::passed: return "passed";
    case walk_role::first_free: return "first free slot";
    case walk_role::found: return "the key";
    case walk_role::claimed: return "claimed";
    case walk_role::stop_empty: return "empty: the walk ends";
  }
  return "?";
}

bool walk_ends_at(const slot_record& s, std::uint64_t k) {
  return s.state == slot_state::empty || s.key == k;
}

probe_walk replay_walk(const std::vector<slot_record>& slots, op_kind kind, std::uint64_t k,
                       op_status status, linear_delete_mode mode, bool truncated) {
  probe_walk w;
  if (status == op_status::rejected_key || status == op_status::rejected_value) return w;
  const bool reuse = kind == op_kind::insert && mode == linear_delete_mode::tombstone;
  std::optional<std::size_t> free_at;  // tombstone-mode inserts: the first free cell passed
  for (const slot_record& s : slots) {
    const bool empty = s.state == slot_state::empty;
    w.cells.push_back({s.slot, walk_role::passed});
    if (s.key == k && !empty) {
      w.cells.back().role = walk_role::found;
      w.decided = s.slot;
      return w;
    }
    if (reuse && !free_at && (empty || s.state == slot_state::tombstone)) {
      free_at = w.cells.size() - 1;
      w.cells.back().role = walk_role::first_free;
    }
    if (!empty) continue;
    if (kind == op_kind::insert && status != op_status::failed_full) {
      const std::size_t at = free_at.value_or(w.cells.size() - 1);
      w.cells[at].role = walk_role::claimed;
      w.decided = w.cells[at].slot;
      if (at != w.cells.size() - 1) w.cells.back().role = walk_role::stop_empty;
    } else {
      w.cells.back().role = walk_role::stop_empty;
    }
    return w;
  }
  // No empty slot in what was captured: a tombstone-mode insert past the longest probe takes the
  // first free slot it passed (a full table: none, failed_full).
  if (reuse && free_at && status == op_status::inserted) {
    w.cells[*free_at].role = walk_role::claimed;
    w.decided = w.cells[*free_at].slot;
    return w;
  }
  w.truncated = truncated;
  return w;
}

}  // namespace hs::linear
