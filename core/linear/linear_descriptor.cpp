// The linear family's registration: open addressing with linear probing (seeds 000/001, 002).
#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "core/linear/linear_trace.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/option_words.hpp"
#if HS_WITH_CUDA
#include "core/linear/linear_table.hpp"
#endif

namespace hs::linear {

namespace {

std::unique_ptr<table> make(const table_config& cfg) {
  if (!is_pow2(cfg.capacity)) throw user_error("capacity " + format_count(cfg.capacity) + " is not a power of two");
  if (cfg.capacity < 16) throw user_error("capacity must be at least 16 slots");
  if (cfg.capacity > max_capacity())
    throw user_error("capacity " + format_count(cfg.capacity) + " exceeds the maximum of 2^32 slots "
                     "(with 32-bit keys a larger table could never be more than a quarter full)");
  if (cfg.linear.group != 0 && cfg.linear.group != 1 && cfg.linear.group != 4 && cfg.linear.group != 8)
    throw user_error("linear probe group must be 0 (auto), 1, 4 or 8 threads");
  return model_or_gpu<linear_model>(cfg, HS_GPU_TABLE(linear_table));
}

// `group N` and `delete value|tombstone`: lines of their own, as the first scenarios wrote them.
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  if (w[0] == "group") {
    check_arity(w, 1, 1, "group 1|4|8");
    const double g = option_number(w[1], "probe group");
    if (g != 1 && g != 4 && g != 8) throw user_error("group must be 1, 4 or 8");
    cfg.linear.group = static_cast<int>(g);
    return true;
  }
  if (w[0] == "delete") {
    check_arity(w, 1, 1, "delete value|tombstone");
    const auto m = parse_delete_mode(w[1]);
    if (!m) throw user_error("unknown delete mode '" + w[1] + "' (value, tombstone)");
    cfg.deletes = *m;
    return true;
  }
  return false;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const auto r = check_invariants(copy_slots(t, s), t.config().hash, &st, t.config().deletes);
  return r.ok() ? std::string() : r.describe();
}

// The slots from the operation's home slot on, as the step finds them (stream-ordered after every
// earlier batch), in chunks until the walk must end there: at the key or an empty slot.
void trace_before(table& t, const table_config& cfg, std::uint64_t capacity, stepped_op& op, stream_view s) {
  if (is_reserved_key(op.key) || capacity == 0) return;
  const auto mask = static_cast<std::uint32_t>(capacity - 1);
  std::uint64_t at = dispatch_hash(cfg.hash, [&](auto h) { return std::uint64_t{home_slot<decltype(h)>(op.key, mask)}; });
  constexpr std::uint64_t chunk = 32;
  const std::uint64_t limit = std::min<std::uint64_t>(k_traced_walk_slots, capacity);  // each slot once
  while (op.probe_before.size() < limit) {
    inspect_request ir;
    ir.dump_first = at;
    ir.dump_count = static_cast<std::uint32_t>(std::min<std::uint64_t>({chunk, capacity - at, limit - op.probe_before.size()}));  // wraps below
    inspect_result r;
    t.inspect(ir, r, s);
    for (const slot_record& rec : r.slots) {
      op.probe_before.push_back(rec);
      if (walk_ends_at(rec, op.key)) return;
    }
    at = (at + ir.dump_count) & mask;
  }
  op.probe_truncated = limit < capacity;  // the whole table read: the walk is complete (a full table)
}

std::string near_full_reason(const table_config& cfg) {
  return cfg.deletes == linear_delete_mode::value ? "erasing empties only the value, the key keeps its slot"
                                                  : "live keys with no room left";
}

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::linear;
    f.name = "linear";
    f.summary = "open addressing with linear probing, one thread (or a probe group) per operation; erase empties the "
                "value (seed 000) or leaves a reusable tombstone (seed 002)";
    f.make = make;
    f.estimate_bytes = [](const table_config& c) -> std::uint64_t { return c.capacity * sizeof(slot_word); };
    f.parse_line = parse_line;
    f.keywords = "group 1|4|8, delete value|tombstone";
    f.check_invariants = check;
    f.full_note = "fill stopped: the table is full (failed_full inserts); erase keys or use a larger capacity";
    f.near_full_reason = near_full_reason;
    f.trace_before = trace_before;
    return f;
  }();
  return d;
}

}  // namespace hs::linear
