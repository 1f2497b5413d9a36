// One family's place in the app below its views: what the scenario language, sessions, compare
// mode, the numbers and the commands need to know of a family without drawing it (the names of
// its figures, the questions it answers, the settings it is prepared with, its rows of numbers,
// its per-batch recorder). No ImGui here: the scenario language depends on this layer, and a
// family's drawing lives in app/ui/family_views/. Families register in family_hooks_list.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/session/batch_recorder.hpp"
#include "app/session/question.hpp"
#include "core/common/probe_histogram.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"

namespace hs::app {

class session;
struct sample_result;
struct session_config;
/// @brief The numbers panel's rows (name, value); also the CSV beside screenshots and renders.
using number_rows = std::vector<std::pair<std::string, std::string>>;

struct family_hooks {
  family id{};
  /// @brief The figures a scenario of this family may capture ("chains", "allocator"); each is a
  /// view entry of the family's drawing side (a test holds the two lists equal).
  std::span<const std::string_view> figures;
  /// @brief The questions `ask` may put to the class on this family, each answered by the real
  /// table: `what` (where: the slot the traced step's first operation decided at; probes: the
  /// slots it read; bucket: the bucket it decided in) from the step's trace and the latest sample
  /// (the hive's eviction paths); none when the family cannot tell.
  std::span<const question_kind> questions;
  std::optional<std::uint64_t> (*answer)(question_kind what, const step_trace& t,
                                         const table_config& cfg,
                                         const sample_result& latest) = nullptr;
  /// @brief Settings a table of the family gets when it is picked for the window or a scenario
  /// (the hive: instrumentation on, its views draw the counters); explicit options come after.
  void (*prepare)(table_config& cfg) = nullptr;
  /// @brief Whether the common hash choice applies (the hive has its own hash policies).
  bool common_hash = true;
  /// @brief The family's rows of the numbers: `about` after the common "table" row, `counts`
  /// after the common counters.
  void (*about_rows)(number_rows& rows, const session& s, const table_stats& t) = nullptr;
  void (*count_rows)(number_rows& rows, const session& s, const sample_result& r) = nullptr;
  /// @brief What the histogram measures ("probe length") and what a failed_full insert means.
  std::string_view histogram_measure = "probe length";
  /// @brief What an operation reads, counted as the histogram's measure + 1 ("slots"): compare
  /// mode's reads per operation.
  std::string_view read_unit = "slots";
  /// @brief The 64-byte lines an operation reads, from the same histogram, where that is not the
  /// read unit itself (the linear family's slots are 8 or 16 bytes, so slots walked alone
  /// mislead: at load 0.5 64-bit keys walk more slots than 32-bit ones in fewer lines); null
  /// elsewhere.
  double (*lines_read)(const probe_histogram& h, const table_config& cfg) = nullptr;
  std::string_view failed_label = "failed (table full)";
  /// @brief Whether the churn timeline explains how inserts reuse tombstones (the linear
  /// family in tombstone mode).
  bool (*explains_tombstone_inserts)(const table_config& cfg) = nullptr;
  /// @brief Slots per bucket, for `ask bucket`: the class clicks a slot of the bucket; null for a
  /// family without buckets of slots.
  std::uint32_t (*slots_per_bucket)(const table_stats& t) = nullptr;
  /// @brief The session's per-batch recorder for the family's views, or null.
  std::unique_ptr<batch_recorder> (*make_recorder)() = nullptr;

  /// @brief Whether `ask QUESTION` is one of `questions`.
  bool answers(question_kind question) const;
  /// @brief Whether `capture` is one of `figures`.
  bool has_figure(std::string_view capture) const;
};

/// @brief The hooks of `f` (every registered family has them: checked by a test).
const family_hooks& hooks_of(family f);
/// @brief A session of `cfg` with its family's per-batch recorder (what its views draw from).
std::unique_ptr<session> make_session(const session_config& cfg);
/// @brief The families whose tables answer `ask QUESTION`.
std::vector<family> families_answering(question_kind question);
/// @brief The families that have a figure named `view` ("code": every family with a Code view).
std::vector<family> families_of_figure(std::string_view view);

namespace detail {
/// The registration list (family_hooks_list.cpp).
std::span<const family_hooks* const> registered_hooks();
}  // namespace detail

}  // namespace hs::app
