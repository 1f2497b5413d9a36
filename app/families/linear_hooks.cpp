// The linear family below its views: its delete mode and probing in the numbers, its counts
// (erased values and tombstones occupy slots: occupancy beside the load), and the class's
// questions answered from a step's replayed probe walk.
#include "app/families/family_hooks.hpp"
#include "app/session/session.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_layout.hpp"
#include "core/linear/linear_reads.hpp"
#include "core/linear/linear_trace.hpp"

namespace hs::app {

namespace {

void about_rows(number_rows& n, const session& s, const table_stats&) {
  if (s.gpu()) n.emplace_back("tuning", describe(s.config().table.linear.tuning));
  const key_width w = s.config().table.width;
  n.emplace_back("keys", std::string(to_string(w)) + "-bit keys and values (" +
                             std::to_string(linear::slot_bytes(w)) + "-byte slots)");
  n.emplace_back("erase", s.config().table.linear.deletes == linear_delete_mode::tombstone
                              ? "tombstone (Reusing Deleted Slots)"
                              : "empties the value (A Simple GPU Hash Table)");
  n.emplace_back(
      "probing",
      s.config().table.linear.probe == probe_policy::double_hash
          ? "double hashing (4-slot sectors, step: a second hash, odd; probe length = probe index)"
          : "linear (the next slot)");
}

constexpr question_kind k_questions[] = {question_kind::where, question_kind::probes};

// The class's question, answered from the step's trace: the first operation's replayed walk.
std::optional<std::uint64_t> answer(question_kind what, const step_trace& t,
                                    const table_config& cfg, const sample_result&) {
  if (t.ops.empty()) return std::nullopt;
  const stepped_op& op = t.ops.front();
  const linear::probe_walk w = linear::replay_walk(op.probe_before, op.kind, op.key, op.status,
                                                   cfg.linear.deletes, op.probe_truncated);
  if (w.cells.empty() || w.truncated) return std::nullopt;
  if (what == question_kind::probes) return w.cells.size();
  return w.decided.value_or(w.cells.back().slot);  // a miss: the empty slot where it stopped
}

void count_rows(number_rows& n, const session& s, const sample_result& r) {
  const table_stats& t = r.stats;
  n.emplace_back("load factor (live / slots)", strprintf("%.4f", t.load_factor()));
  n.emplace_back("occupancy (keys in slots / slots)", strprintf("%.4f", t.occupancy()));
  n.emplace_back("live keys", format_count(t.live));
  n.emplace_back("erased values", format_count(t.erased));
  n.emplace_back("tombstones", format_count(t.tombstones));
  n.emplace_back("longest probe ever", format_count(t.max_displacement));
}

constexpr std::string_view k_figures[] = {"walk", "code", "lanes", "runs"};

}  // namespace

const family_hooks& linear_hooks() {
  static const family_hooks h = [] {
    family_hooks f;
    f.id = family::linear;
    f.figures = k_figures;
    f.about_rows = about_rows;
    f.count_rows = count_rows;
    f.questions = k_questions;
    f.answer = answer;
    f.lines_read = [](const probe_histogram& h, const table_config& c) {
      return linear::lines_per_hit(h, c.linear, c.width);
    };
    f.explains_tombstone_inserts = [](const table_config& c) {
      return c.linear.deletes == linear_delete_mode::tombstone;
    };
    return f;
  }();
  return h;
}

}  // namespace hs::app
