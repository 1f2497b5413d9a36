// Linear probing's decisions, line by line.
#include "app/ui/family_views/linear_code.hpp"

#include <optional>

#include "core/common/format.hpp"
#include "core/linear/linear_reads.hpp"

namespace hs::app {

namespace {

struct linear_code {
  const char* insert_region;  // the insert variant the table runs
  const char* read_region;    // where each slot of the walk is read and decided
  const char* read_tag;       // the read line
  const char* passed_tag;     // the line that sees another key and walks on
};

linear_code code_of(const table_config& cfg, op_kind kind) {
  const bool tombstone = cfg.linear.deletes == linear_delete_mode::tombstone;
  const bool dbl = cfg.linear.probe == probe_policy::double_hash;
  if (kind == op_kind::insert) {
    if (tombstone) return {"linear-insert-reusing", "linear-insert-reusing", "read", "read"};
    if (dbl) return {"linear-insert-probed", "linear-insert-probed", "read", "read"};
    return {"linear-insert-windowed", "linear-insert-windowed", "read", "compare"};
  }
  if (dbl) return {nullptr, "linear-scan", "read_sector", "read_sector"};
  return {nullptr, "linear-scan", "read", "compare"};
}

/// What the lines of one walkthrough share: the operation, the code it ran, and the walkthrough
/// being written.
struct linear_story {
  const stepped_op& op;
  const table_config& cfg;
  code_walkthrough& w;
  linear_code c;
  bool tombstone_insert;
  const char* op_region;             // a find's or an erase's own function
  key_radix radix = key_radix::hex;  // how keys are written

  void list_regions();
  void tell_walk_start(const linear::probe_walk& walk, std::uint64_t capacity);
  void tell_cell(const linear::walk_cell& cell, std::uint64_t there, bool empty_there);
  void tell_found(unsigned long long slot);
  void tell_first_free(unsigned long long slot, bool empty_there);
  void tell_stop(unsigned long long slot);
  void tell_claim(unsigned long long slot);
};

// The functions in the order they call each other.
void linear_story::list_regions() {
  if (op.kind == op_kind::insert) {
    if (!tombstone_insert) w.regions.push_back("linear-insert");
    w.regions.push_back(c.insert_region);
  } else {
    w.regions = {op_region, "linear-locate", "linear-scan"};
  }
}

void linear_story::tell_walk_start(const linear::probe_walk& walk, std::uint64_t capacity) {
  const std::string home_region = op.kind != op_kind::insert ? "linear-locate"
                                  : tombstone_insert         ? "linear-insert-reusing"
                                                             : "linear-insert";
  // A 64-bit key's walk starts at the first slot of the 64-byte line its hash falls in
  // (linear_layout.hpp, home_slot).
  const char* told = linear::homes_at_line_start(cfg.width)
                         ? "home slot %llu: the first of the 4 slots of the 64-byte line that "
                           "hash(%s) modulo %s slots falls in"
                         : "home slot %llu: hash(%s) modulo %s slots";
  w.events.push_back({home_region, "home",
                      strprintf(told, static_cast<unsigned long long>(walk.cells.front().slot),
                                key_text(op.key, radix).c_str(), format_count(capacity).c_str())});
  w.events.push_back({c.read_region, c.read_tag,
                      strprintf("the walk reads from slot %llu on",
                                static_cast<unsigned long long>(walk.cells.front().slot))});
}

// What the operation did at one slot of its walk; `there` is the key the slot held.
void linear_story::tell_cell(const linear::walk_cell& cell, std::uint64_t there, bool empty_there) {
  const auto slot = static_cast<unsigned long long>(cell.slot);
  switch (cell.role) {
    case linear::walk_role::passed:
      w.events.push_back({c.read_region, c.passed_tag,
                          there == k_tombstone
                              ? strprintf("slot %llu holds a tombstone: walk on", slot)
                              : strprintf("slot %llu holds %s, not the key: walk on", slot,
                                          key_text(there, radix).c_str())});
      break;
    case linear::walk_role::first_free:  // a tombstone-mode insert that then failed
      tell_first_free(slot, empty_there);
      break;
    case linear::walk_role::found: tell_found(slot); break;
    case linear::walk_role::claimed: tell_claim(slot); break;
    case linear::walk_role::stop_empty:
      if (tombstone_insert)
        tell_stop(slot);
      else if (op.kind != op_kind::insert)
        w.events.push_back({op_region, "missing",
                            strprintf("slot %llu is empty: the key is not in the table", slot)});
      break;
  }
}

void linear_story::tell_found(unsigned long long slot) {
  if (op.kind == op_kind::insert)
    w.events.push_back({c.insert_region, "found",
                        strprintf("slot %llu holds the key: its value is overwritten", slot)});
  else if (op.kind == op_kind::find)
    w.events.push_back({"linear-find", "found",
                        strprintf("slot %llu holds the key: its value is returned", slot)});
  else
    w.events.push_back(
        {"linear-erase",
         cfg.linear.deletes == linear_delete_mode::tombstone ? "erase_tombstone" : "erase_value",
         strprintf("slot %llu holds the key: erased", slot)});
}

void linear_story::tell_first_free(unsigned long long slot, bool empty_there) {
  w.events.push_back({"linear-insert-reusing", "first_free",
                      strprintf("slot %llu is free (%s): remembered for the claim", slot,
                                empty_there ? "empty" : "a tombstone")});
}

void linear_story::tell_stop(unsigned long long slot) {
  w.events.push_back({"linear-insert-reusing", "stop",
                      strprintf("slot %llu is empty: no key lies further, the walk ends", slot)});
}

void linear_story::tell_claim(unsigned long long slot) {
  w.events.push_back(
      {c.insert_region, "claim",
       strprintf("compare-and-swap on slot %llu: free to (%s, %llu)", slot,
                 key_text(op.key, radix).c_str(), static_cast<unsigned long long>(op.value))});
  w.events.push_back(
      {c.insert_region, "claimed", strprintf("the CAS won: the key is in slot %llu", slot)});
}

}  // namespace

code_walkthrough linear_walkthrough(const stepped_op& op, const linear::probe_walk& walk,
                                    const table_config& cfg, std::uint64_t capacity,
                                    key_radix radix) {
  code_walkthrough w;
  w.title = strprintf("%s(%s) -> %s", std::string(to_string(op.kind)).c_str(),
                      key_text(op.key, radix).c_str(), std::string(to_string(op.status)).c_str());
  const bool tombstone_insert =
      op.kind == op_kind::insert && cfg.linear.deletes == linear_delete_mode::tombstone;
  linear_story s{op,
                 cfg,
                 w,
                 code_of(cfg, op.kind),
                 tombstone_insert,
                 op.kind == op_kind::find ? "linear-find" : "linear-erase"};
  s.radix = radix;
  s.list_regions();
  if (walk.cells.empty()) return w;  // rejected before any slot was read
  s.tell_walk_start(walk, capacity);
  // A tombstone-mode insert walks on to an empty slot past the free slot it will take, and claims
  // that one after the walk (insert_reusing); the replay marks the taken slot where it was passed.
  std::optional<unsigned long long> deferred_claim;
  for (std::size_t i = 0; i < walk.cells.size(); ++i) {
    const linear::walk_cell& cell = walk.cells[i];
    const std::uint64_t there = i < op.probe_before.size() ? op.probe_before[i].key : k_empty;
    const bool empty_there = i < op.probe_before.size()
                                 ? op.probe_before[i].state == slot_state::empty
                                 : there == k_empty;
    if (tombstone_insert && cell.role == linear::walk_role::claimed) {
      const auto slot = static_cast<unsigned long long>(cell.slot);
      s.tell_first_free(slot, empty_there);
      if (empty_there) s.tell_stop(slot);
      deferred_claim = slot;
      continue;
    }
    s.tell_cell(cell, there, empty_there);
  }
  if (deferred_claim) s.tell_claim(*deferred_claim);
  return w;
}

std::string linear_english(const std::string& region, const std::string& tag) {
  static constexpr english_line k_lines[] = {
      {"linear-insert", "home",
       "Hash the key: its home slot is the hash modulo the slots (for 64-bit keys, the first slot "
       "of that slot's 64-byte line)."},
      {"linear-insert-reusing", "home", "Hash the key: its home slot."},
      {"linear-locate", "home", "Hash the key: its home slot."},
      {"linear-insert-windowed", "read", "The threads of the operation read the next slots."},
      {"linear-insert-windowed", "compare", "Is the slot empty, or the key? If not, go on."},
      {"linear-insert-windowed", "found", "The key is here: overwrite its value."},
      {"linear-insert-windowed", "claim", "Try to take the empty slot with one atomic CAS."},
      {"linear-insert-windowed", "claimed", "The CAS won: inserted."},
      {"linear-insert-windowed", "lost", "Another thread took the slot first: look further."},
      {"linear-insert-probed", "read", "Read the next slot of the probe sequence."},
      {"linear-insert-probed", "found", "The key is here: overwrite its value."},
      {"linear-insert-probed", "claim", "Try to take the empty slot with one atomic CAS."},
      {"linear-insert-probed", "claimed", "The CAS won: inserted."},
      {"linear-insert-reusing", "read", "Read the next slot."},
      {"linear-insert-reusing", "found", "The key is here: overwrite its value."},
      {"linear-insert-reusing", "first_free", "Remember the first free slot (a tombstone)."},
      {"linear-insert-reusing", "stop", "An empty slot: the key is nowhere further."},
      {"linear-insert-reusing", "claim", "Take the remembered free slot with one atomic CAS."},
      {"linear-insert-reusing", "claimed", "The CAS won: inserted."},
      {"linear-insert-reusing", "lost", "Another key took it first: walk on from there."},
      {"linear-scan", "read", "The threads read the next slots."},
      {"linear-scan", "read_sector", "Read the next sector of the probe sequence."},
      {"linear-scan", "compare", "Is the slot the key, or empty? If neither, go on."},
      {"linear-find", "found", "Found: return the value."},
      {"linear-find", "missing", "An empty slot first: the key is not here."},
      {"linear-erase", "missing", "An empty slot first: nothing to erase."},
      {"linear-erase", "erase_value", "Found: empty its value (the key keeps its slot)."},
      {"linear-erase", "erase_tombstone", "Found: turn it into a tombstone with one CAS."},
  };
  return english_of(k_lines, region, tag);
}

}  // namespace hs::app
