// Where one hive operation went, replayed on its candidate buckets as they were just before the
// step (step mode's Code view and warp lanes draw it). The rules are the device's: the batch
// kernel's passes (hive_kernels.cu: the first pass of every kind reading the first candidate,
// look_in_first and decide_first; then insert_common reading both candidates for an insert it
// left), then the general operations (hive_find_erase.cuh: find_op and erase_op read the
// candidates in order, then the stash; insert_op's four steps: replace, claim, eviction, stash). An
// eviction's path is the one the table recorded for the key (the path ring, instrumentation on).
// The operations of a step are replayed in order, each seeing what the earlier ones did to the
// buckets they share.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "core/hive/hive_inspection.hpp"
#include "core/hive/hive_layout.hpp"
#include "core/table/step_trace.hpp"

namespace hs::hive {

/// @brief Which of the batch kernel's passes read a bucket, or decided an operation.
enum class kernel_pass : std::uint8_t {
  none,     ///< refused before anything was read; for a read, find_op or erase_op
  first,    ///< the first pass, every kind: the first candidate alone (decide_first)
  common,   ///< insert_common: both candidates, read at once
  general,  ///< find_op, erase_op, insert_op's four steps
};
const char* to_string(kernel_pass p);

/// @brief One bucket as the operation's tile read it: T lanes, lane l holding slots
/// [l S/T, (l+1) S/T).
struct bucket_read {
  kernel_pass pass = kernel_pass::none;  ///< the code path that read it (none: find_op, erase_op)
  int candidate = 0;                     ///< which of the key's candidates
  std::uint64_t bucket = 0;
  std::vector<word_type> words;  ///< as read
  std::uint32_t free_mask = 0;
  int match = -1;  ///< the key's slot: the ballot's lowest lane, then its lowest slot
};

struct op_trace {
  std::vector<bucket_read> reads;  ///< in the order the tile read them
  kernel_pass pass = kernel_pass::none;
  std::optional<insert_step> step;              ///< the step that completed an insert
  int decided = -1;                             ///< the read (index) whose bucket decided, -1: none
  int slot = -1;                                ///< the slot there: the key's, or the one claimed
  int placement = -1;                           ///< a claim: the candidate placement_of chose
  bool stash_read = false;                      ///< it looked in the stash
  std::optional<std::uint64_t> stash_position;  ///< the key's stash slot, where it decided there
  std::optional<eviction_path> path;            ///< step 3: the path its insert took
  bool agrees = true;  ///< the replay's outcome is the status the table reported
  /// Its place in the step: the batch's thread position % T is its lane in the tile, the lane
  /// that issues the first pass's atomic for it.
  std::size_t position = 0;
};

/// @brief The bucket an operation decided in (the eviction's first hop for step 3), if any.
std::optional<std::uint64_t> decided_bucket(const op_trace& t);

/// @brief Replays a step's operations in order. `paths`: the table's recorded eviction paths
/// (oldest first); `hashes` the table's count of hash functions.
class step_replay {
 public:
  op_trace replay(const stepped_op& op, std::span<const eviction_path> paths);

 private:
  struct bucket_state {
    std::vector<word_type> words;
    std::uint32_t free_mask = 0, lock = 0;
  };
  bucket_state& state_of(const hive_bucket_before& b);
  bucket_read read(kernel_pass pass, int candidate, const hive_bucket_before& b, key_type k);
  void claim(op_trace& t, const hive_key_before& kb, int candidate, key_type k, value_type v);
  bool stash_may_hold(const hive_key_before& kb);
  // The kernel's passes and insert_op's steps in the order the device runs them; those returning
  // bool say whether they decided the operation (t then holds how).
  bool replay_first_pass(op_trace& t, const stepped_op& op);
  void replay_find_or_erase(op_trace& t, const stepped_op& op);
  bool replay_insert_common(op_trace& t, const stepped_op& op);
  bool replay_replace(op_trace& t, const stepped_op& op, int (&free_slots)[k_max_hashes]);
  bool replay_claim(op_trace& t, const stepped_op& op, const int (&free_slots)[k_max_hashes]);
  void replay_evict_or_stash(op_trace& t, const stepped_op& op,
                             std::span<const eviction_path> paths);
  std::map<std::uint64_t, bucket_state> seen_;
};

/// @brief Every operation of a step, replayed in order.
std::vector<op_trace> replay_step(const step_trace& t, std::span<const eviction_path> paths);

}  // namespace hs::hive
