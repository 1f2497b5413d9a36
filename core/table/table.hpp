// The Table seam: one runtime-polymorphic host interface per family and backend. Bulk calls take
// spans in the table's memory space (device memory for GPU tables, host memory for CPU models) and
// a stream, run asynchronously on GPU tables, and can report a status per operation.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/device.hpp"
#include "core/common/hash.hpp"
#include "core/common/key_width.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/table/family_options.hpp"  // generated: the family enum, options and counters
#include "core/table/inspection.hpp"

namespace hs {

struct table_state;  // table_state.hpp: a table's exact state

/// @brief The family's name ("linear"), from the registry.
std::string_view to_string(family f);
/// @brief A registered family by name.
std::optional<family> parse_family(std::string_view s);

/// @brief Where a table over several devices takes a key's owner from (core/shard/README.md):
/// `independent`, bits of a hash the shards' tables do not use; `low_bits`, the low bits of the
/// table's own hash, which then place the key inside its shard too (the lesson's mistake).
enum class owner_bits : std::uint8_t { independent, low_bits };
std::string_view to_string(owner_bits o);
std::optional<owner_bits> parse_owner_bits(std::string_view s);
/// @brief A number of devices as scenario lines and compare entries write it: 1 to 64, or `all`
/// (every GPU of the machine, at least one); throws hs::user_error otherwise.
std::uint32_t parse_devices(std::string_view text);

/// @brief The most devices one table is sharded over.
inline constexpr std::uint32_t k_max_devices = 64;

/// @brief Everything needed to create a table: the common settings here, each family's own
/// options in the generated base (`cfg.linear`, `cfg.slab`, ...; compare mode derives every table
/// from one scenario's config, each family reading only its own).
struct table_config : family_table_options {
  hs::family family{};  ///< the first registered family (linear)
  hs::backend backend = hs::backend::cpu;
  std::uint64_t capacity = 0;  ///< slots; 0 picks default_capacity(backend)
  hash_kind hash = hash_kind::murmur3;
  /// @brief The width of the keys and values; a family lists the widths it holds
  /// (family_descriptor::widths) and refuses the others.
  key_width width = key_width::bits32;
  /// @brief Devices the table is sharded over (core/shard): 1 is one table on one device; N > 1
  /// is N shards of capacity / N, one a GPU, or one a CPU model (simulated devices).
  std::uint32_t devices = 1;
  owner_bits owner = owner_bits::independent;  ///< where a key's owner comes from (devices > 1)
};

/// @brief When a table rebuilds itself; each threshold is a fraction of the slots, 0 switches it
/// off.
struct maintenance_policy {
  double grow_above = 0;    ///< live load factor above which the capacity doubles
  double shrink_below = 0;  ///< live load factor below which the capacity halves
  double rehash_above =
      0;  ///< dead slots (tombstones, erased values) above which it rebuilds in place
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

/// @brief Counters a table reports: the common ones here, a family's own in the generated base
/// (`st.slab`, `st.hive`).
struct table_stats : family_table_counters {
  std::uint64_t capacity = 0;    ///< slots
  std::uint64_t live = 0;        ///< keys holding a value
  std::uint64_t erased = 0;      ///< slots whose key stays but whose value was erased
  std::uint64_t tombstones = 0;  ///< tombstoned slots (reusable)
  std::uint64_t occupied = 0;    ///< slots holding a key or tombstone (live + erased + tombstones)
  std::uint64_t bytes = 0;       ///< memory the table holds
  std::uint32_t max_displacement = 0;  ///< longest probe any insert made since the last clear
  /// @brief Operations rejected for a reserved key or value since clear, by kind (indexed by
  /// op_kind: inserts, finds, erases); the statuses say which (rejected_key, rejected_value).
  std::uint64_t rejected[k_op_kind_count] = {};
  /// @brief Inserts refused for want of room since clear, each also reported as failed_full:
  /// linear, no free slot; slab, SlabAlloc exhausted; hive, both candidate buckets full, no
  /// eviction path and the stash full (a table that resizes itself grows before the next batch).
  std::uint64_t failed_full = 0;
  double load_factor() const { return capacity ? double(live) / double(capacity) : 0.0; }
  std::uint64_t rejected_total() const { return rejected[0] + rejected[1] + rejected[2]; }
  double occupancy() const { return capacity ? double(occupied) / double(capacity) : 0.0; }
};

/// @brief A mixed batch: element i runs kinds[i] on keys[i] (with values[i] for inserts).
template <class K, class V>
struct basic_op_batch {
  std::span<const op_kind> kinds;
  std::span<const K> keys;
  std::span<const V> values;
};
using op_batch = basic_op_batch<key_type, value_type>;
using wide_op_batch = basic_op_batch<wide_key, wide_value>;

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
  /// @brief The width of its keys and values. A table runs the batch calls of its width; those of
  /// the other width throw hs::user_error saying what the table holds.
  key_width width() const { return config().width; }

  /// @brief Inserts pairs; a key already present gets the new value. `status` may be empty.
  virtual void insert(std::span<const key_type> keys, std::span<const value_type> values,
                      std::span<op_status> status, stream_view s) = 0;
  /// @brief Looks keys up; a missing key yields k_empty and status missing.
  virtual void find(std::span<const key_type> keys, std::span<value_type> values_out,
                    std::span<op_status> status, stream_view s) = 0;
  /// @brief Erases keys (the linear family empties the value, the key keeps its slot).
  virtual void erase(std::span<const key_type> keys, std::span<op_status> status,
                     stream_view s) = 0;
  /// @brief Runs a mixed batch: operations run concurrently, in no defined order, with one
  /// exception. The linear family in tombstone mode runs the batch in two phases, every insert
  /// and find first and then every erase, because its inserts and erases never overlap (see
  /// linear_table.hpp): a key inserted and erased in one such batch ends absent, where in value
  /// mode (and the other families) either order may win. `results` receives found values for
  /// finds (k_empty otherwise) and may be empty.
  virtual void apply(const op_batch& ops, std::span<value_type> results,
                     std::span<op_status> status, stream_view s) = 0;
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

  // The same batch calls for tables of 64-bit keys and values (table_of.hpp, the adapter every
  // family's tables derive from, implements both widths); a 32-bit table refuses them.
  virtual void insert(std::span<const wide_key> keys, std::span<const wide_value> values,
                      std::span<op_status> status, stream_view s);
  virtual void find(std::span<const wide_key> keys, std::span<wide_value> values_out,
                    std::span<op_status> status, stream_view s);
  virtual void erase(std::span<const wide_key> keys, std::span<op_status> status, stream_view s);
  virtual void apply(const wide_op_batch& ops, std::span<wide_value> results,
                     std::span<op_status> status, stream_view s);
  virtual std::uint64_t retrieve_all(std::span<wide_key> keys, std::span<wide_value> values,
                                     stream_view s);
  /// @brief Rebuilds the table from its live entries with `capacity` slots (a power of two that
  /// holds them), dropping deleted entries; all on the table's own device. Synchronizes.
  virtual void rehash(std::uint64_t capacity, stream_view s) = 0;
  /// @brief Applies the policy: grows, shrinks or rehashes in place when a threshold is passed.
  maintenance_result maintain(const maintenance_policy& policy, stream_view s);

  /// @brief The table's exact state as its family writes it down (table_state.hpp), copied into
  /// the table's own memory (stream-ordered after the batches before it; synchronizes).
  virtual table_state save_state(stream_view s) = 0;
  /// @brief Makes the table exactly the state (from either backend and any memory space): its
  /// slots, its family's own structures, its counters and its capacity. Throws hs::user_error,
  /// the table unchanged, for a state of another family or options, or one whose parts do not fit
  /// its capacity; hs::gpu_error when memory for a larger capacity cannot be had. Synchronizes.
  virtual void restore_state(const table_state& st, stream_view s) = 0;
};

/// @brief Creates the table a config describes through its family's registration (capacity 0
/// becomes the backend's default). Throws hs::user_error for an impossible config (capacity not a
/// power of two, too large for memory, the GPU backend in a build without CUDA).
std::unique_ptr<table> make_table(table_config cfg);

namespace detail {
/// Throws hs::user_error when span sizes disagree (status may be empty; others must match n).
void check_bulk(std::string_view call, std::size_t n, std::size_t other, std::size_t status);
/// Throws hs::user_error when a mixed batch's spans disagree (results and status may be empty).
template <class K, class V>
void check_apply(const basic_op_batch<K, V>& ops, std::size_t results, std::size_t status) {
  check_bulk("apply", ops.keys.size(), ops.kinds.size(), status);
  check_bulk("apply", ops.keys.size(), ops.values.size(), 0);
  if (results != 0) check_bulk("apply", ops.keys.size(), results, 0);
}
/// Throws hs::user_error for a batch call of `call` keys on a table of `held` keys.
[[noreturn]] void refuse_width(std::string_view name, key_width call, key_width held);
}  // namespace detail

}  // namespace hs
