// The hive family below its views: instrumentation on (its views draw the counters), its own hash
// policies, its shape and counts in the numbers, the class's questions answered from a step's
// replay on its candidate buckets, and the per-batch record of inserts by step.
#include <algorithm>

#include "app/families/family_hooks.hpp"
#include "app/families/hive_steps.hpp"
#include "app/session/session.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_family.hpp"
#include "core/hive/hive_trace.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace {

void prepare(table_config& c) { c.hive.instrument = true; }  // its views draw the counters

constexpr question_kind k_questions[] = {question_kind::where, question_kind::bucket};

// The class's question, answered from the step's trace: the first operation replayed on its
// candidate buckets ("bucket": where it decided; "where": the slot there).
std::optional<std::uint64_t> answer(question_kind what, const step_trace& t,
                                    const table_config& cfg, const sample_result& latest) {
  if (t.ops.empty()) return std::nullopt;
  hive::step_replay r;
  const hive::op_trace o = r.replay(t.ops.front(), latest.inspected.hive.paths);
  const auto bucket = hive::decided_bucket(o);
  if (!bucket || !o.agrees || o.slot < 0) return std::nullopt;
  if (what == question_kind::bucket) return *bucket;
  const int slots = cfg.hive.bucket_slots ? cfg.hive.bucket_slots : hive::k_default_slots;
  return *bucket * static_cast<std::uint64_t>(slots) + static_cast<std::uint64_t>(o.slot);
}

void about_rows(number_rows& n, const session& s, const table_stats& t) {
  const hive_options& o = s.config().table.hive;
  n.emplace_back(
      "hive",
      strprintf(
          "%u slots/bucket, %s, depth %d, stash %.1f%%, %s, instrumentation %s",
          t.hive.slots_per_bucket,
          find_option(describe(family::hive).options, "hashes")->get(s.config().table).c_str(),
          o.eviction_depth, 100 * o.stash_fraction, o.auto_resize ? "resizes itself" : "fixed size",
          t.hive.instrumented ? "on" : "off"));
}

void count_rows(number_rows& n, const session&, const sample_result& r) {
  const hive_counters& h = r.stats.hive;
  n.emplace_back("buckets (round+split)",
                 strprintf("%s (%s + %s)", format_count(h.buckets).c_str(),
                           format_count(h.round).c_str(), format_count(h.split).c_str()));
  n.emplace_back("stash (live / slots)",
                 format_count(h.stash_live) + " / " + format_count(h.stash_capacity));
  if (h.steps[0] + h.steps[1] + h.steps[2] + h.steps[3])
    n.emplace_back("inserts by step",
                   strprintf("replace %s, claim %s, evict %s, stash %s",
                             format_count(h.steps[0]).c_str(), format_count(h.steps[1]).c_str(),
                             format_count(h.steps[2]).c_str(), format_count(h.steps[3]).c_str()));
  n.emplace_back("evictions", "moves " + format_count(h.moves) + ", locks " +
                                  format_count(h.locks) + ", restarts " + format_count(h.restarts));
  n.emplace_back("splits / merges (refused)", format_count(h.splits) + " / " +
                                                  format_count(h.merges) + " (" +
                                                  format_count(h.merges_refused) + ")");
  n.emplace_back("load factor (live / slots)", strprintf("%.4f", r.stats.load_factor()));
}

constexpr std::string_view k_figures[] = {"buckets", "evictions", "code",  "lanes",
                                          "steps",   "stash",     "resize"};

}  // namespace

const family_hooks& hive_hooks() {
  static const family_hooks h = [] {
    family_hooks f;
    f.id = family::hive;
    f.figures = k_figures;
    f.prepare = prepare;
    f.common_hash = false;
    f.about_rows = about_rows;
    f.count_rows = count_rows;
    f.read_unit = "buckets";
    f.histogram_measure = "candidate index";
    f.failed_label = "refused (stash full)";
    f.make_recorder = [] { return std::unique_ptr<batch_recorder>(new hive_steps_recorder); };
    f.questions = k_questions;
    f.slots_per_bucket = [](const table_stats& t) { return t.hive.slots_per_bucket; };
    f.answer = answer;
    return f;
  }();
  return h;
}

}  // namespace hs::app
