// The Table seam: one runtime-polymorphic host interface per family and backend. Bulk calls take
// spans in the table's memory space (device memory for GPU tables, host memory for CPU models) and
// a stream, run asynchronously on GPU tables, and can report a status per operation.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/device.hpp"
#include "core/common/hash.hpp"
#include "core/common/inspection.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"

namespace hs {

enum class family : std::uint8_t { linear, slab, hive };
std::string_view to_string(family f);
std::optional<family> parse_family(std::string_view s);

/// @brief How the linear family deletes. `value` (seed 000): the key keeps its slot and only the
/// value is emptied, so erase runs concurrently with everything. `tombstone` (seed 002): the key
/// becomes a tombstone that later inserts reuse; inserts and erases then run in separate phases
/// (the table orders them itself, see linear_table.hpp), lookups concurrently with either.
enum class linear_delete_mode : std::uint8_t { value, tombstone };
std::string_view to_string(linear_delete_mode m);
std::optional<linear_delete_mode> parse_delete_mode(std::string_view s);

/// @brief A switch that can also be left to the table: automatic, forced on, forced off.
enum class tri : std::uint8_t { automatic, on, off };

/// @brief Execution choices of the linear GPU table. None changes what the table stores; the
/// defaults are the fastest measured on the H200 (bench linear, seed-linear).
struct linear_tuning {
  int group = 0;                  ///< threads per operation: 1, 4 or 8 (0: automatic, 1)
  tri cas_first = tri::automatic; ///< claim the home slot blindly first (automatic: below load 0.08)
  tri partition = tri::automatic; ///< group large insert batches by table region first (automatic:
                                  ///< an eighth of the table or more, tables larger than the L2,
                                  ///< no statuses asked)
};

std::string_view to_string(tri t);
std::optional<tri> parse_tri(std::string_view s);
/// @brief "group auto, cas-first auto, partition auto".
std::string describe(const linear_tuning& t);

/// @brief Whether a slab table keeps keys unique (INSERT means REPLACE; DELETE leaves a tombstone)
/// or allows duplicates (INSERT adds another pair; DELETE empties the pair for reuse). Seed 004.
enum class slab_mode : std::uint8_t { unique, multi };
std::string_view to_string(slab_mode m);
std::optional<slab_mode> parse_slab_mode(std::string_view s);

/// @brief Shape and execution choices of a slab table (seed 004).
struct slab_options {
  slab_mode mode = slab_mode::unique;
  std::uint64_t buckets = 0;         ///< base slabs; 0: the capacity / 15, rounded up
  int tile = 0;                      ///< threads sharing one slab: 32 (the paper's warp), 16 or 8; 0: automatic
  std::uint64_t pool_slabs = 0;      ///< slabs SlabAlloc holds at creation; 0: about a quarter of the buckets
  std::uint64_t pool_limit = 0;      ///< most slabs the pool may grow to; 0: what memory allows
};

/// @brief Shape and policies of a hive table (seed 003). The capacity is buckets x slots, the
/// buckets a power of two at creation (resizing then moves one bucket at a time).
struct hive_options {
  int bucket_slots = 0;           ///< 8, 16 or 32 slots per bucket; 0: the default (measured fastest)
  int tile = 0;                   ///< threads per operation: 2, 4, 8, 16 or 32, at most the slots; 0: default
  std::string hashes;             ///< two or three functions, "bithash1+bithash2"; empty: the default pair
  int eviction_depth = 16;        ///< most moves of one eviction path (0: full buckets go to the stash)
  double stash_fraction = 0.015;  ///< stash slots as a fraction of the table's slots (1-2% in the paper)
  bool auto_resize = false;       ///< expand above grow_above before inserts, contract below shrink_below
  double grow_above = 0.9;
  double shrink_below = 0.25;
  std::uint64_t resize_batch = 0; ///< K: buckets split or merged per step; 0: 1/16 of a round (at least 1)
  bool instrument = false;        ///< count insert steps, locks, path lengths; record eviction paths
  tri bulk = tri::automatic;      ///< insert batches without statuses by grouped rounds (hive_bulk.cu;
                                  ///< automatic: batches of 1/8 of the table or more, tables of 2^24
                                  ///< slots or more; off: always key by key)
};

/// @brief Everything needed to create a table.
struct table_config {
  hs::family family = hs::family::linear;
  hs::backend backend = hs::backend::cpu;
  std::uint64_t capacity = 0;  ///< slots; 0 picks default_capacity(backend)
  hash_kind hash = hash_kind::murmur3;
  linear_delete_mode deletes = linear_delete_mode::value;
  linear_tuning linear;
  slab_options slab;
  hive_options hive;
};

/// @brief When a table rebuilds itself; each threshold is a fraction of the slots, 0 switches it off.
struct maintenance_policy {
  double grow_above = 0;    ///< live load factor above which the capacity doubles
  double shrink_below = 0;  ///< live load factor below which the capacity halves
  double rehash_above = 0;  ///< dead slots (tombstones, erased values) above which it rebuilds in place
  bool active() const { return grow_above > 0 || shrink_below > 0 || rehash_above > 0; }
};

/// @brief What a rebuild did (action none: the table was left alone).
struct maintenance_result {
  enum class action : std::uint8_t { none, rehash, grow, shrink } what = action::none;
  std::uint64_t from_capacity = 0, to_capacity = 0;
  std::uint64_t live = 0;     ///< entries moved
  std::uint64_t dropped = 0;  ///< dead slots left behind (tombstones and erased values)
};
std::string_view to_string(maintenance_result::action a);

/// @brief 2^27 slots (1 GiB) on the GPU, 2^22 (32 MiB) for the CPU model.
std::uint64_t default_capacity(backend b);
/// @brief Largest capacity this family accepts (the GPU tables also check free memory).
std::uint64_t max_capacity(family f);

/// @brief What a slab table reports beyond the common counters (zero for the other families).
struct slab_counters {
  std::uint64_t buckets = 0;          ///< base slabs
  std::uint64_t chained_slabs = 0;    ///< slabs allocated from SlabAlloc and linked into chains
  std::uint64_t pool_slabs = 0;       ///< slabs SlabAlloc holds (allocated or free)
  std::uint64_t super_blocks = 0;
  std::uint64_t resident_changes = 0; ///< times a tile moved to another memory block, since creation
  std::uint64_t alloc_failures = 0;   ///< allocations that found no free slab, since clear
  std::uint64_t longest_chain = 0;    ///< slabs in the longest bucket list (base included)
  /// @brief Stored bytes over all slab memory in use (base and chained slabs, pointers and empty
  /// lanes included): the paper's memory utilization.
  double utilization = 0;
};

/// @brief What a hive table reports beyond the common counters.
struct hive_counters {
  std::uint32_t slots_per_bucket = 0;
  std::uint64_t buckets = 0, round = 0, split = 0;  ///< linear hashing: buckets = round + split
  std::uint64_t stash_capacity = 0;
  std::uint64_t stash_used = 0;   ///< stash slots handed out since the last drain
  std::uint64_t stash_live = 0;   ///< live keys in the stash
  std::uint64_t pending = 0;      ///< inserts refused because the stash was full, since clear
  bool instrumented = false;      ///< the counters below are being kept
  std::uint64_t steps[4] = {};    ///< inserts completed by step 1 (replace) .. 4 (stash), since clear
  std::uint64_t moves = 0;        ///< entries moved by evictions
  std::uint64_t locks = 0;        ///< bucket locks taken by evictions
  std::uint64_t restarts = 0;     ///< inserts that started over (a lost claim, a broken path)
  std::uint64_t path_lengths[33] = {};  ///< evictions by moves in their path
  std::uint64_t splits = 0, merges = 0; ///< buckets split and merged by resizing, since creation
  std::uint64_t bulk_batches = 0;  ///< insert batches placed by grouped rounds, since creation
  std::uint64_t bulk_rest = 0;     ///< keys of those the rounds left to the per-key kernels
};

/// @brief Counters a table reports.
struct table_stats {
  std::uint64_t capacity = 0;   ///< slots
  std::uint64_t live = 0;       ///< keys holding a value
  std::uint64_t erased = 0;     ///< slots whose key stays but whose value was erased
  std::uint64_t tombstones = 0; ///< tombstoned slots (reusable)
  std::uint64_t occupied = 0;   ///< slots holding a key or tombstone (live + erased + tombstones)
  std::uint64_t bytes = 0;      ///< memory the table holds
  std::uint32_t max_displacement = 0;  ///< longest probe any insert made since the last clear
  std::uint64_t rejected = 0;   ///< operations rejected for a reserved key or value, since clear
  std::uint64_t failed_full = 0;///< inserts that failed because the table was full, since clear
  slab_counters slab;
  hive_counters hive;
  double load_factor() const { return capacity ? double(live) / double(capacity) : 0.0; }
  double occupancy() const { return capacity ? double(occupied) / double(capacity) : 0.0; }
};

/// @brief A mixed batch: element i runs kinds[i] on keys[i] (with values[i] for inserts).
struct op_batch {
  std::span<const op_kind> kinds;
  std::span<const key_type> keys;
  std::span<const value_type> values;
};

/// @brief A hash table of one family on one backend.
class table {
 public:
  virtual ~table() = default;
  /// @brief The config, with the current capacity (a copy: rehash may change it concurrently).
  virtual table_config config() const = 0;
  memory_space space() const {
    return config().backend == backend::gpu ? memory_space::device : memory_space::host;
  }
  std::uint64_t capacity() const { return config().capacity; }

  /// @brief Inserts pairs; a key already present gets the new value. `status` may be empty.
  virtual void insert(std::span<const key_type> keys, std::span<const value_type> values,
                      std::span<op_status> status, stream_view s) = 0;
  /// @brief Looks keys up; a missing key yields k_empty and status missing.
  virtual void find(std::span<const key_type> keys, std::span<value_type> values_out,
                    std::span<op_status> status, stream_view s) = 0;
  /// @brief Erases keys (the linear family empties the value, the key keeps its slot).
  virtual void erase(std::span<const key_type> keys, std::span<op_status> status, stream_view s) = 0;
  /// @brief Runs a mixed batch in one kernel: operations run concurrently, in no defined order.
  /// `results` receives found values for finds (k_empty otherwise) and may be empty.
  virtual void apply(const op_batch& ops, std::span<value_type> results, std::span<op_status> status,
                     stream_view s) = 0;
  /// @brief Empties the table and resets its counters.
  virtual void clear(stream_view s) = 0;
  /// @brief Counts slots and reads counters (synchronizes the stream).
  virtual table_stats stats(stream_view s) = 0;
  /// @brief Fills what a view asked for (synchronizes the stream).
  virtual void inspect(const inspect_request& req, inspect_result& out, stream_view s) = 0;
  /// @brief Writes live pairs (in no particular order), at most keys.size() of them; returns how
  /// many live pairs there are (synchronizes the stream).
  virtual std::uint64_t retrieve_all(std::span<key_type> keys, std::span<value_type> values,
                                     stream_view s) = 0;
  /// @brief Rebuilds the table from its live entries with `capacity` slots (a power of two that
  /// holds them), dropping deleted entries; all on the table's own device. Synchronizes.
  virtual void rehash(std::uint64_t capacity, stream_view s) = 0;
  /// @brief Applies the policy: grows, shrinks or rehashes in place when a threshold is passed.
  maintenance_result maintain(const maintenance_policy& policy, stream_view s);
};

/// @brief Creates the table a config describes (capacity 0 becomes the backend's default).
/// Throws hs::user_error for an impossible config (capacity not a power of two, too large for
/// memory, a family not built yet, the GPU backend in a build without CUDA).
std::unique_ptr<table> make_table(table_config cfg);

namespace detail {
/// Throws hs::user_error when span sizes disagree (status may be empty; others must match n).
void check_bulk(std::string_view call, std::size_t n, std::size_t other, std::size_t status);
/// Throws hs::user_error when a mixed batch's spans disagree (results and status may be empty).
void check_apply(const op_batch& ops, std::size_t results, std::size_t status);
}  // namespace detail

}  // namespace hs
