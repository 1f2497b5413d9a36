// The GPU slab hash (SlabHash): the host owner of the base slabs, SlabAlloc's super blocks and the
// device counters. Kernels are templated on hash and tile size (slab_kernels.cu); this class checks
// arguments, keeps the pool large enough and dispatches.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "core/slab/slab_family.hpp"
#include "core/slab/slab_launch.hpp"
#include "core/slab/slab_sizing.hpp"

namespace hs::slab {

class slab_table final : public slab_family {
 public:
  explicit slab_table(const table_config& cfg);
  ~slab_table() override;
  slab_table(const slab_table&) = delete;
  slab_table& operator=(const slab_table&) = delete;

  table_config config() const override;
  void insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                    std::span<op_status> status, stream_view s) override;
  void find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                  std::span<op_status> status, stream_view s) override;
  void erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                   stream_view s) override;
  void apply_batch(const op_batch& ops, std::span<value_type> results, std::span<op_status> status,
                   stream_view s) override;
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  std::uint64_t retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                               stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  void erase_all(std::span<const key_type> keys, std::span<std::uint32_t> removed,
                 stream_view s) override;
  void count(std::span<const key_type> keys, std::span<std::uint32_t> counts,
             stream_view s) override;
  void search_all(std::span<const key_type> keys, std::span<const std::uint64_t> offsets,
                  std::span<value_type> values_out, stream_view s) override;
  void flush(stream_view s) override;
  slab_image snapshot(stream_view s) override;

  /// @brief SlabAlloc alone, for its benchmark: one allocation per element of `out` (device
  /// memory), k_null_address where the pool had none; the slabs stay allocated until freed.
  void allocate_slabs(std::span<std::uint32_t> out, stream_view s);
  void free_slabs(std::span<const std::uint32_t> addresses, stream_view s);

 private:
  struct super_block {
    buffer<std::uint32_t> slabs, bitmaps;
  };
  /// The table as kernels see it, with a fresh allocation seed (call with table_mutex_ held).
  slab_ref ref();
  /// Makes sure up to n inserts about to be launched on s find free slabs: tracks an upper bound
  /// on allocated slabs, tightened by counts that come back without a wait, and only when it
  /// nears the pool's size counts exactly (a wait) and grows the pool.
  void reserve_for(std::uint64_t n, stream_view s);
  /// Takes a finished count of allocated slabs into the bound (call with pool_mutex_ held).
  void adopt_count();
  /// After n inserts were launched on s: notes them for the counts to wait on, and starts a count
  /// that comes back without a wait when a next batch of n would need one (takes pool_mutex_).
  void inserts_launched(stream_view s, std::uint64_t n);
  /// Records s's latest insert launch (pool_mutex_ held).
  void note_insert_event(stream_view s);
  /// Makes s wait for the latest insert launch of every stream (pool_mutex_ held).
  void wait_for_inserts(stream_view s);
  /// Adds a super block; false when the limit or the GPU's memory forbids (call with pool_mutex_
  /// held).
  bool add_super_block(stream_view s);
  /// Live pairs by a census (synchronizes; call with table_mutex_ held).
  std::uint64_t live_pairs(stream_view s);
  /// Bits set in the pool's bitmaps (synchronizes; call with pool_mutex_ held).
  std::uint64_t allocated_slabs(stream_view s);
  void launch(const batch_io& io, stream_view s);
  void reset_base(std::uint64_t buckets, stream_view s);
  /// inspect's slot dump and bucket list (call with table_mutex_ and scratch_mutex_ held).
  void dump_slots(std::uint64_t dump_first, std::uint32_t dump_count, inspect_result& out,
                  stream_view s);
  void copy_chain(const slab_ref& t, const inspect_request& req, inspect_result& out,
                  stream_view s);

  mutable std::shared_mutex table_mutex_;  // bulk calls share; rehash replaces the base slabs
  table_config cfg_;
  std::uint32_t buckets_ = 0;
  int tile_ = k_default_tile;
  pool_shape shape_;
  buffer<std::uint32_t> base_;

  std::mutex pool_mutex_;  // growth and its bookkeeping
  buffer<unsigned long long>
      pool_count_;  // [0] allocated_slabs', [1] the count without a wait's (pool_mutex_)
  std::vector<std::unique_ptr<super_block>> supers_;
  buffer<std::uint32_t*> slab_ptrs_, bitmap_ptrs_;  // device arrays of k_max_super_blocks pointers
  std::atomic<std::uint32_t> super_count_{0};
  std::uint64_t allocated_upper_ = 0;  // upper bound on allocated slabs
  std::uint64_t last_failures_ = 0;
  bool grow_pending_ = false;  // a count saw allocations fail: grow at the next insert
  // The count in flight (start_count): allocated slabs and allocation failures land in counted_
  // (pinned) when counted_event_ completes; it waited for every insert launched before it.
  buffer<unsigned long long> counted_;
  owned_stream count_stream_{false};   // where the counts run (made on the GPU in the constructor)
  stream_event counted_event_{false};  // likewise
  bool counted_pending_ = false;
  std::uint64_t issued_ = 0;          // slabs the inserts launched so far may take, in total
  std::uint64_t counted_issued_ = 0;  // issued_ when the count in flight was launched
  std::vector<std::pair<void*, stream_event>> insert_events_;  // (stream, its latest insert)
  std::atomic<std::uint32_t> seed_{0};

  buffer<unsigned long long> counters_;  // see pool_ref::counters
  buffer<unsigned long long> scratch_;   // census results
  buffer<unsigned char> histograms_;     // two device_histograms
  buffer<float> strip_;                  // inspection results, kept between samples
  buffer<std::uint32_t> chain_words_, chain_addresses_;
  buffer<std::uint16_t> block_fill_;
  std::mutex scratch_mutex_;  // stats and inspect run on the sampling thread
};

}  // namespace hs::slab
