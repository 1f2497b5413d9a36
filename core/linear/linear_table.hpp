// The GPU linear table (seeds 000/001): the host owner of the slots and counters, for either key
// width (the slot type W, linear_layout.hpp). Kernels are templated on hash, probe-group size and
// slot type; this class dispatches to them.
#pragma once
#include <mutex>
#include <shared_mutex>

#include "core/linear/linear_layout.hpp"
#include "core/linear/linear_partition.hpp"
#include "core/table/table.hpp"
#include "core/table/table_of.hpp"

namespace hs::linear {

struct device_counters;
template <class Hash, int G, class W>
struct linear_ref;

template <class W>
class basic_linear_table final : public table_of<key_of_t<W>, value_of_t<W>> {
 public:
  using key = key_of_t<W>;
  using value = value_of_t<W>;
  using index = index_of_t<W>;
  using batch = basic_op_batch<key, value>;

  explicit basic_linear_table(const table_config& cfg);
  ~basic_linear_table() override;
  basic_linear_table(const basic_linear_table&) = delete;
  basic_linear_table& operator=(const basic_linear_table&) = delete;

  table_config config() const override {
    std::shared_lock lock(slots_mutex_);
    return cfg_;
  }
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  /// @brief A host copy of the slots (for invariant checks and tests; synchronizes).
  std::vector<W> download_slots(stream_view s) const;
  /// @brief A host copy of the regions' reach words (linear_layout.hpp; synchronizes).
  std::vector<std::uint32_t> download_reach(stream_view s) const;

 protected:
  void insert_batch(std::span<const key> keys, std::span<const value> values,
                    std::span<op_status> status, stream_view s) override;
  void find_batch(std::span<const key> keys, std::span<value> values_out,
                  std::span<op_status> status, stream_view s) override;
  void erase_batch(std::span<const key> keys, std::span<op_status> status, stream_view s) override;
  void apply_batch(const batch& ops, std::span<value> results, std::span<op_status> status,
                   stream_view s) override;
  std::uint64_t retrieve_pairs(std::span<key> keys, std::span<value> values,
                               stream_view s) override;

 private:
  /// Probe-group size for a batch: the configured one, or chosen by how full the table may be.
  int group_for(std::uint64_t occupied_bound) const;
  int current_group();
  /// Accounts for up to n inserts about to be launched on s (call with bound_mutex_ held);
  /// returns true when the launch must be guarded because it may fill the table, in which case
  /// the device occupancy counter is exact for it (seeded on the stream, or kept since).
  bool prepare_inserts(std::uint64_t n, stream_view s);
  /// Marks the end of an insert launch on s (call with bound_mutex_ held).
  void inserts_launched(stream_view s);
  /// Census and counters (call with slots_mutex_ and scratch_mutex_ held).
  table_stats count(stream_view s, std::uint32_t* cluster_starts = nullptr);
  /// How many leading operations of a batch of n claim their home slot blindly first (call with
  /// bound_mutex_ held, before prepare_inserts).
  std::uint64_t cas_first_ops(std::uint64_t n) const;
  /// Whether to group this insert batch by region first (call with bound_mutex_ held).
  bool use_partition(std::uint64_t n, bool statuses);
  void launch_insert(const key* keys, const value* values, op_status* status, std::uint64_t n,
                     int group, bool guarded, std::uint64_t cas_first_ops, stream_view s);
  /// Whether claims are split (linear_ref.cuh): 64-bit tables on a GPU without a 16-byte CAS, or
  /// with tuning pair-cas off.
  bool split_claims_;
  /// The device handle kernels take (linear_ref.cuh), for hash H and group size G.
  template <class H, int G>
  linear_ref<H, G, W> ref() const;
  // rehash's steps (call with slots_mutex_ and scratch_mutex_ held; linear_rehash.cu).
  struct rehash_plan;
  rehash_plan plan_rehash(std::uint64_t capacity, stream_view s);
  bool launch_rebuild(const rehash_plan& p, W* out, buffer<W>& fresh, stream_view s);
  std::uint64_t keys_rehashed(const table_stats& before, bool counted, unsigned long long placed,
                              stream_view s);

  // Bulk calls, stats and inspection share the slots; rehash replaces them (exclusive lock).
  mutable std::shared_mutex slots_mutex_;
  table_config cfg_;
  index mask_;
  buffer<W> slots_;
  buffer<device_counters> counters_;
  buffer<std::uint32_t> reach_;  // each region's reach (linear_layout.hpp): how far lookups walk
  buffer<unsigned long long> scratch_;  // census results
  buffer<unsigned char> histogram_;  // a detail::device_histogram, kept: freeing syncs the device
  buffer<std::uint32_t> cluster_starts_;  // rehash's bit per slot, kept from one rehash to the next
  buffer<std::uint32_t> deferred_;  // growth's deferred cluster per window of 1024 slots, kept too
  buffer<W> waiting_;               // shrinking's keys a window could not place, kept too
  std::mutex scratch_mutex_;        // stats and inspect run on the sampling thread

  // An upper bound on occupied slots decides which launches are guarded. It grows by each batch
  // and is tightened by stats(), whose census waits for the last insert launch (on any stream),
  // and by the count a guarded batch makes, once it is back on the host.
  std::mutex bound_mutex_;
  std::uint64_t bound_ = 0;      // upper bound on occupied slots
  std::uint64_t issued_ = 0;     // inserts launched since creation
  void* last_insert_ = nullptr;  // cudaEvent_t recorded after the latest insert launch
  void* last_erase_ = nullptr;   // cudaEvent_t recorded after the latest erase launch
  // The latest near-full count, copied back to the host: adopted into the bound once it landed.
  buffer<unsigned long long> counted_;  // pinned
  void* counted_event_ = nullptr;       // cudaEvent_t recorded after the copy
  std::uint64_t counted_issued_ = 0;    // inserts launched before the count
  bool counted_pending_ = false;
  // Whether the device counter is exact for every insert launched so far: all guarded since a
  // count (prepare_inserts says why), which later guarded batches wait for instead of recounting.
  bool counting_ = false;
  void* census_done_ = nullptr;  // cudaEvent_t recorded after the latest count
  /// Tightens bound_ with a finished count (call with bound_mutex_ held).
  void adopt_counted_bound();
  bool tombstones() const { return cfg_.linear.deletes == linear_delete_mode::tombstone; }
  /// Tombstone mode: makes s wait for the other phase's latest launch (call with bound_mutex_
  /// held).
  void order_phase(bool inserting, stream_view s);
  void erases_launched(stream_view s);
  // Grouped-by-region copies of large insert batches.
  detail::basic_partition_scratch<key, value> partition_;
};

/// @brief The GPU table of 32-bit keys and values (8-byte slots).
using linear_table = basic_linear_table<slot_word>;
/// @brief The GPU table of 64-bit keys and values (16-byte slots).
using wide_linear_table = basic_linear_table<wide_slot>;

}  // namespace hs::linear
