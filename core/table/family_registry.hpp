// The family registry: each table family describes itself once (its name, its options and their
// parsing, how to make its GPU table and its CPU model, its invariant checker, and the few hooks a
// session needs), so core/common/ and the app's frame, session and scenario code name no family.
// A family registers itself as the program starts (register_family, from its descriptor's file);
// see core/table/README.md.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "core/table/family_option.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"

namespace hs {

inline constexpr key_width k_narrow_only[] = {key_width::bits32};

/// @brief What a family tells the rest of HashScope about itself. Hooks left null mean the family
/// has nothing to do there.
struct family_descriptor {
  hs::family id{};
  std::string_view name;     ///< "linear": CLI, scenarios, figures
  std::string_view summary;  ///< one line: what the table is and which seed it follows
  /// @brief What `capacity` counts for this family ("slots", or "pairs in base slabs").
  std::string_view capacity_unit = "slots";
  /// @brief Whether the capacity must be a power of two.
  bool pow2_capacity = true;
  /// @brief The key widths its tables hold, narrowest first (make_table refuses the others).
  std::span<const key_width> widths = k_narrow_only;
  /// @brief The highest fill target (live keys over capacity): 1 for open addressing; lists and
  /// tables that resize themselves go past their capacity.
  double max_fill_load = 1.0;

  /// @brief Makes the table a config describes, the GPU table or the CPU model by its backend
  /// (capacity already resolved); throws hs::user_error for a config the family refuses.
  std::unique_ptr<table> (*make)(const table_config& cfg) = nullptr;

  /// @brief The config's problems the family can tell without making a table (empty: none), so
  /// a scenario is refused where it is read; make() checks them too.
  std::string (*check_config)(const table_config& cfg) = nullptr;

  /// @brief About the memory a table of this config takes when made (device memory for the GPU
  /// table): to refuse tables that will not fit together before making any (compare mode).
  std::uint64_t (*estimate_bytes)(const table_config& cfg) = nullptr;

  /// @brief The family's options (scenario lines, compare entries, the Compare setup's widgets).
  std::span<const family_option> options;
  /// @brief How a scenario writes them: on one line after this keyword ("hive slots=32 depth=4"),
  /// or, where empty, a line each ("probe double").
  std::string_view option_line;
  /// @brief Scenario lines the family owns (e.g. "hive slots=16 depth=2"): returns false when
  /// words[0] is not one of its keywords, applies the line to `cfg` otherwise; throws
  /// hs::user_error (without file and line: the caller adds them) for a bad value.
  bool (*parse_line)(const std::vector<std::string>& words, table_config& cfg) = nullptr;
  /// @brief The keywords parse_line takes, with their usage, for error messages.
  std::string_view keywords;

  /// @brief Non-null, and true for the config, where a mixed batch runs in phases (the linear
  /// family's tombstone mode: every insert and find, then every erase), so that cutting it into
  /// pieces would change its answers: a table over several devices then runs it in one piece.
  bool (*apply_in_phases)(const table_config& cfg) = nullptr;

  /// @brief Checks the family's invariants on one of its tables (synchronizes): empty when they
  /// hold, else the first violation.
  std::string (*check_invariants)(table& t, stream_view s) = nullptr;

  // The session's hooks.
  /// @brief Why a fill stopped when inserts failed for want of room.
  std::string_view full_note;
  /// @brief Non-null for families whose probes crawl as the table nears full: the session then
  /// stops running work before that, and this says why in the family's terms.
  std::string (*near_full_reason)(const table_config& cfg) = nullptr;
  /// @brief Whether a batch may change the table's capacity (a table that resizes itself).
  bool (*resizes_itself)(const table_config& cfg) = nullptr;
  /// @brief Counters a batch copies back for the app's per-batch recorders, stream-ordered and
  /// without synchronizing: `batch_counters` values into `out` (pinned or host memory).
  std::size_t batch_counters = 0;
  void (*copy_batch_counters)(table& t, std::uint64_t* out, stream_view s) = nullptr;
  /// @brief For a traced step, before it runs: what the operation will find (the slab family: its
  /// bucket's list), stream-ordered after the earlier batches.
  void (*trace_before)(table& t, const table_config& cfg, std::uint64_t capacity, stepped_op& op,
                       stream_view s) = nullptr;
  /// @brief A compaction the family offers between batches (the slab family's FLUSH), and what
  /// the user reads when it is done.
  void (*flush)(table& t, stream_view s) = nullptr;
  std::string_view flush_note;
  /// @brief Whether an erase leaves a dead entry that only `flush` removes (the slab's unique
  /// mode). The session then counts them from the batches' statuses, and under a maintenance
  /// threshold for dead entries (`maintain rehash=F`) compacts with `flush` when they pass it,
  /// without counting the table every batch.
  bool (*erases_leave_dead)(const table_config& cfg) = nullptr;
};

/// @brief A family's factory: its CPU model on the CPU backend, else its GPU table through
/// `make_gpu` (HS_GPU_TABLE: null in a build without CUDA, which then refuses the GPU backend).
template <class Model>
std::unique_ptr<table> model_or_gpu(const table_config& cfg,
                                    std::unique_ptr<table> (*make_gpu)(const table_config&)) {
  if (cfg.backend == backend::cpu) return std::make_unique<Model>(cfg);
  if (!make_gpu) throw user_error("this build has no CUDA support: use --backend cpu");
  return make_gpu(cfg);
}
#if HS_WITH_CUDA
#define HS_GPU_TABLE(T) \
  [](const table_config& c) -> std::unique_ptr<table> { return std::make_unique<T>(c); }
#else
#define HS_GPU_TABLE(T) nullptr
#endif

/// @brief Every registered family, in registration order.
std::span<const family_descriptor* const> families();
/// @brief The registration of `f` (every enumerator is registered: checked by a test).
const family_descriptor& describe(family f);
/// @brief Whether the family's tables hold keys of width `w`.
bool holds_width(const family_descriptor& d, key_width w);
/// @brief Sets the config's key width; throws hs::user_error, the config unchanged, when its family
/// holds no keys of that width ("the slab family holds 32-bit keys only").
void set_key_width(table_config& cfg, key_width w);
/// @brief Makes the config one of family `f`, keeping every setting `f` can take: a key width `f`
/// does not hold becomes its narrowest (a 64-bit linear table's settings become a slab table).
void set_family(table_config& cfg, family f);
/// @brief The registered names, "linear, slab, hive".
std::string family_names(std::string_view separator = ", ");

namespace detail {
/// Adds a family to the list families() gives, in the order of its `family` enumerator. Each
/// family calls it once, from a namespace-scope initializer in its descriptor's file (the
/// families' libraries are linked whole, core/CMakeLists.txt); returns true.
bool register_family(const family_descriptor& d);
/// The factory of tables over several devices (core/shard registers it as the program starts):
/// make_table hands it every config with devices > 1.
using sharded_factory = std::unique_ptr<table> (*)(const table_config& cfg);
bool register_sharded_factory(sharded_factory make);
}  // namespace detail

}  // namespace hs
