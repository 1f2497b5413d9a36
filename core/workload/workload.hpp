// The Workload seam: a seeded description of operations (key distribution, operation mix, batch
// size) and a host-side cursor that plans each batch. Generating a planned batch is a pure
// function of (spec, plan, index), run by a kernel on the GPU or a loop on the host.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/common/key_width.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/workload/key_file.hpp"
#include "core/workload/key_stream.hpp"

namespace hs::workload {

/// @brief Relative weights of the operation kinds in a batch.
struct op_mix {
  double insert = 1.0, find_hit = 0.0, find_miss = 0.0, erase = 0.0;
  double total() const { return insert + find_hit + find_miss + erase; }
};

/// @brief A complete, deterministic workload description.
struct workload_spec {
  stream_params keys;
  op_mix mix;
  std::uint64_t batch_size = 1u << 20;
  std::shared_ptr<const key_list> key_file;  ///< distribution::file: its keys (kept while used)
};

/// @brief What one batch does: how many operations of each kind and where in the streams.
struct batch_plan {
  std::uint64_t index = 0;  ///< batch number (salts the shuffle of operation positions)
  std::uint64_t size = 0;
  std::uint64_t inserts = 0, hits = 0, misses = 0, erases = 0;
  std::uint64_t insert_begin = 0;  ///< stream index of this batch's first insert
  std::uint64_t erase_begin = 0;   ///< stream index of this batch's first erase
  std::uint64_t hit_begin = 0,
                hit_end = 0;  ///< stream indices hits draw from (inserted, not erased)
  bool only(op_kind k) const;
};

/// @brief Walks the streams batch after batch: inserts take fresh stream indices, erases retire
/// the oldest inserted ones, hits draw from those inserted and not yet erased.
class cursor {
 public:
  /// @brief Plans the next batch (`size` 0 means the spec's batch size; `mix` overrides the
  /// spec's).
  batch_plan next(const workload_spec& spec, std::uint64_t size = 0,
                  const std::optional<op_mix>& mix = std::nullopt);
  std::uint64_t inserted() const { return inserted_; }
  std::uint64_t erased() const { return erased_; }
  std::uint64_t batches() const { return batches_; }
  void reset() { *this = {}; }

 private:
  std::uint64_t inserted_ = 0, erased_ = 0, batches_ = 0;
};

/// @brief Where a generated batch goes (spans in one memory space), in the keys' width.
template <class K, class V>
struct basic_batch_spans {
  std::span<op_kind> kinds;
  std::span<K> keys;
  std::span<V> values;
};
using batch_spans = basic_batch_spans<key_type, value_type>;
using wide_batch_spans = basic_batch_spans<wide_key, wide_value>;

/// @brief The key of an operation: key j of the insert stream, or miss key number `draw`.
template <class K>
HS_HD K key_at(const stream_params& p, const batch_plan& plan, const zipf_sampler* zipf,
               std::uint64_t j, bool miss, std::uint64_t draw) {
  if (permuted(p.dist))
    return permuted_key<K>(p, miss ? miss_index<K>(p, draw) : stream_index(p, j, zipf));
  if (miss && p.dist == distribution::file)
    return file_miss_key<K>(p, plan.insert_begin + plan.inserts, draw);
  return miss ? miss_key<K>(p, draw) : stream_key<K>(p, j, zipf);
}

/// @brief Operation i of a planned batch (shared by the GPU kernel and the host loop); `p` is the
/// spec's keys with a key file's keys in the memory generation runs in. K is the table's key type:
/// 64-bit keys are drawn from the whole 64-bit range.
template <class K, class V>
HS_HD void op_at(const stream_params& p, const batch_plan& plan, const zipf_sampler* zipf,
                 std::uint64_t i, op_kind& kind, K& key, V& value) {
  const std::uint32_t r =
      permute(p.seed ^ mix64(plan.index + 1), static_cast<std::uint32_t>(i), plan.size);
  // First which key (the j-th of the insert stream, or a miss key), then the key itself, computed
  // once: a warp's operations are of every kind, and computing the key in each kind's branch made
  // the warp run each computation in turn (generating 2^20 operations took 48 us on the H200).
  const std::uint64_t draw = plan.index * plan.size + r;  // numbers its random draws
  bool miss = false;
  std::uint64_t j = 0;
  value = key_limits<V>::empty;
  if (r < plan.inserts) {
    kind = op_kind::insert;
    j = plan.insert_begin + r;
  } else if (r < plan.inserts + plan.hits) {
    kind = op_kind::find;
    const std::uint64_t window = plan.hit_end - plan.hit_begin;
    if (window) {
      j = plan.hit_begin + random_unit(p.seed, 5, draw) * window;
      if (j >= plan.hit_end) j = plan.hit_end - 1;
    } else {
      miss = true;  // nothing inserted yet: a hit is impossible
    }
  } else if (r < plan.inserts + plan.hits + plan.misses) {
    kind = op_kind::find;
    miss = true;
  } else {
    kind = op_kind::erase;
    j = plan.erase_begin + (r - plan.inserts - plan.hits - plan.misses);
  }
  if constexpr (sizeof(K) == 4)
    key = p.id_bits == 64 ? fold_id(key_at<wide_key>(p, plan, zipf, j, miss, draw))
                          : key_at<K>(p, plan, zipf, j, miss, draw);
  else
    key = key_at<K>(p, plan, zipf, j, miss, draw);
  if (kind == op_kind::insert) value = stream_value<V>(p, j);
}

/// @brief Fills the spans with a planned batch, on the GPU (device spans, async on the stream) or
/// on the host. `values` of non-inserts are the empty value.
void generate(const workload_spec& spec, const batch_plan& plan, memory_space space,
              const batch_spans& out, stream_view s);
void generate(const workload_spec& spec, const batch_plan& plan, memory_space space,
              const wide_batch_spans& out, stream_view s);

/// @brief Throws hs::user_error naming the first bad field, for a table of width `w`.
void validate(const workload_spec& spec, key_width w = key_width::bits32);

std::string_view to_string(distribution d);
std::optional<distribution> parse_distribution(std::string_view s);
/// @brief "insert:1" or "insert:0.5,find-hit:0.3,find-miss:0.1,erase:0.1".
std::optional<op_mix> parse_mix(std::string_view s);
std::string to_string(const op_mix& m);

namespace detail {
void generate_on_device(const stream_params& p, const batch_plan& plan, const batch_spans& out,
                        stream_view s);
void generate_on_device(const stream_params& p, const batch_plan& plan, const wide_batch_spans& out,
                        stream_view s);
}  // namespace detail

}  // namespace hs::workload
