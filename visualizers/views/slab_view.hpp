// The slab family's views: list lengths (histogram and a bucket strip coloured by length; click a
// pixel, or type a key, to pick a bucket), the picked bucket's slab list (slabs as boxes of 15
// pairs, next pointers as arrows, keys and values on hover; outlined, the lanes a typed key's
// SEARCH reads, or in step mode the lanes each stepped operation read and the pair it decided on),
// and SlabAlloc's memory blocks as a heatmap of allocated slabs.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/hash.hpp"
#include "core/slab/slab_trace.hpp"
#include "core/table/inspection.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/views/histogram_frame.hpp"

namespace hs::vis {

class slab_view {
 public:
  slab_view();
  /// @brief Histogram, strip and the picked list, in the remaining space of the current window.
  void draw_chains(const inspect_result& r, const table_stats& st, hash_kind hash,
                   float height = 0);
  /// @brief SlabAlloc's super blocks and memory blocks.
  void draw_allocator(const allocator_image& a, const table_stats& st, float height = 0);

  /// @brief The bucket whose list the next sample should copy.
  std::uint64_t bucket() const { return bucket_; }
  void set_bucket(std::uint64_t b) { bucket_ = b; }
  /// @brief Until a bucket is chosen: the bucket of the longest list in this sample's strip, for
  /// the next sample to copy.
  void follow_longest(const inspect_result& r, const table_stats& st);
  /// @brief Pixels of the bucket strip the next sample should fill: until a bucket is chosen (a
  /// click, a key, a step), one per bucket up to 65,536, so the view can show the longest list.
  std::uint32_t strip_width(std::uint64_t buckets = 0) const {
    return chosen_ || buckets == 0
               ? 480u
               : static_cast<std::uint32_t>(std::min<std::uint64_t>(buckets, 65536));
  }
  /// @brief Shows the list of k's bucket with the lanes its SEARCH reads outlined.
  void trace_key(key_type k, hash_kind hash, std::uint64_t buckets);
  /// @brief A new traced step replaces what is outlined: its first operation's bucket is shown
  /// with the lanes it read; the view steps through the others. Null or an old step: no change.
  void follow_step(std::shared_ptr<const step_trace> t, slab_mode mode);
  /// @brief The traced step shown, the operation its arrows show, and that operation's replay.
  const step_trace* step() const { return step_.get(); }
  std::size_t step_op() const { return step_op_; }
  /// @brief Operation i's bucket list as it found it (earlier operations of the step applied).
  const slab_chain* list_seen_at(std::size_t i) const {
    return i < step_lists_.size() && step_->ops[i].list_before ? &step_lists_[i] : nullptr;
  }
  const slab::op_trace* path_at(std::size_t i) const {
    return i < step_paths_.size() ? &step_paths_[i] : nullptr;
  }

 private:
  void draw_length_histogram(const probe_histogram& h, float height);
  void draw_strip(const inspect_result& r, std::uint64_t buckets, float height);
  void draw_list(const slab_chain& c, const slab::op_trace* outline, float height);
  void draw_step_line();
  void show_step_op(std::size_t i);

  colormap cmap_;
  histogram_frame lengths_frame_;
  std::uint64_t bucket_ = 0;
  bool chosen_ = false;  // a bucket was picked (click, key, step): no longer the longest list
  std::optional<key_type> traced_;
  std::shared_ptr<const step_trace> step_;
  slab_mode step_mode_ = slab_mode::unique;
  std::vector<slab::op_trace> step_paths_;  // per operation of step_, replayed in batch order
  std::vector<slab_chain> step_lists_;      // per operation: its bucket's list as it found it
  std::size_t step_op_ = 0;
  bool step_shown_ = false;
  char key_text_[16] = "";
};

/// @brief "1: 812,301  2: 40,122 ..." lines for figures' numbers and CSV.
std::string chain_lengths_csv(const probe_histogram& h);
std::string allocator_csv(const allocator_image& a);

}  // namespace hs::vis
