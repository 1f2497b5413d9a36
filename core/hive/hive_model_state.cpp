// The CPU model's state (hive_state.hpp), laid out as the GPU table's, and the checks both
// backends make before restoring one.
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_model.hpp"
#include "core/hive/hive_state.hpp"

namespace hs::hive {

void set_state_counters(table_state& st, const state_counters& c) {
  for (int i = 0; i < 4; ++i) st.set_number("step" + std::to_string(i + 1), c.steps[i]);
  st.set_number("moves", c.moves);
  st.set_number("locks", c.locks);
  st.set_number("restarts", c.restarts);
  for (int d = 0; d <= k_max_eviction_depth; ++d)
    st.set_number("paths_of_" + std::to_string(d), c.path_lengths[d]);
  st.set_number("splits", c.splits);
  st.set_number("merges", c.merges);
  st.set_number("merges_refused", c.merges_refused);
  st.set_number("stash_used", c.stash_used);
  st.set_number("stash_live", c.stash_live);
}

state_counters read_state_counters(const table_state& st) {
  state_counters c;
  for (int i = 0; i < 4; ++i) c.steps[i] = st.number("step" + std::to_string(i + 1));
  c.moves = st.number("moves");
  c.locks = st.number("locks");
  c.restarts = st.number("restarts");
  for (int d = 0; d <= k_max_eviction_depth; ++d)
    c.path_lengths[d] = st.number("paths_of_" + std::to_string(d));
  c.splits = st.number("splits");
  c.merges = st.number("merges");
  c.merges_refused = st.number("merges_refused");
  c.stash_used = st.number("stash_used");
  c.stash_live = st.number("stash_live");
  return c;
}

geometry read_state_geometry(const table_state& st, const hive_shape& shape) {
  const geometry geo{st.number("round"), st.number("split")};
  if (!is_pow2(geo.round) || geo.round < shape.buckets || geo.split >= geo.round ||
      geo.buckets() * std::uint64_t(shape.slots) > (std::uint64_t{1} << 32))
    throw user_error(
        strprintf("a hive table's state with round %s and split pointer %s; this "
                  "table starts from %s buckets",
                  format_count(geo.round).c_str(), format_count(geo.split).c_str(),
                  format_count(shape.buckets).c_str()));
  st.sized_part(k_words_part, geo.buckets() * shape.slots * sizeof(word_type));
  st.sized_part(k_meta_part, geo.buckets() * sizeof(meta_word));
  return geo;
}

std::uint64_t read_state_stash(const table_state& st) {
  const std::uint64_t bytes = st.part(k_stash_part).bytes.size();
  const std::uint64_t words = bytes / sizeof(word_type);
  if (bytes % sizeof(word_type) != 0 || words > 0xffffffffu)
    throw user_error(
        strprintf("a hive table's state with a stash of %s bytes, not a count of "
                  "8-byte slots a table can hold",
                  format_count(bytes).c_str()));
  if (st.number("stash_used") > words)
    throw user_error("a hive table's state uses more stash slots than the stash holds");
  return words;
}

table_state hive_model::save_state(stream_view s) {
  std::lock_guard lock(mutex_);
  table_state st;
  st.config = cfg_;  // the capacity it was made with (its shape); round and split say the rest
  const std::uint64_t buckets = img_.geo.buckets();
  std::vector<meta_word> meta(buckets);
  for (std::uint64_t b = 0; b < buckets; ++b) meta[b] = make_meta(img_.masks[b], img_.locks[b]);
  st.add_part(std::string(k_words_part), memory_space::host, img_.words.data(), memory_space::host,
              buckets * img_.slots, s);
  st.add_part(std::string(k_meta_part), memory_space::host, meta.data(), memory_space::host,
              buckets, s);
  st.add_part(std::string(k_stash_part), memory_space::host, img_.stash.data(), memory_space::host,
              img_.stash.size(), s);
  st.set_number("round", img_.geo.round);
  st.set_number("split", img_.geo.split);
  state_counters c;
  std::copy(std::begin(steps_), std::end(steps_), c.steps);
  c.moves = c.locks = moves_;  // the model takes one lock per move, as the kernels do
  c.restarts = restarts_;
  std::copy(std::begin(path_lengths_), std::end(path_lengths_), c.path_lengths);
  c.splits = splits_;
  c.merges = merges_;
  c.merges_refused = merges_refused_;
  c.stash_used = img_.stash_used;
  c.stash_live = img_.live_in_stash();
  set_state_counters(st, c);
  rejected_.save(st, failed_full_);
  return st;
}

void hive_model::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const geometry geo = read_state_geometry(st, shape_);
  const std::uint64_t stash_words = read_state_stash(st);
  const std::uint64_t buckets = geo.buckets();
  hive_image img;
  img.slots = shape_.slots;
  img.hashes = shape_.hashes;
  img.geo = geo;
  img.words = st.host_part<word_type>(k_words_part, buckets * shape_.slots, s);
  for (const meta_word m : st.host_part<meta_word>(k_meta_part, buckets, s)) {
    img.masks.push_back(mask_of(m));
    img.locks.push_back(lock_of(m));
  }
  img.stash = st.host_part<word_type>(k_stash_part, stash_words, s);
  const state_counters c = read_state_counters(st);
  img.stash_used = c.stash_used;
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  std::lock_guard lock(mutex_);
  img_ = std::move(img);
  std::copy(std::begin(c.steps), std::end(c.steps), steps_);
  moves_ = c.moves;
  restarts_ = c.restarts;
  std::copy(std::begin(c.path_lengths), std::end(c.path_lengths), path_lengths_);
  splits_ = c.splits;
  merges_ = c.merges;
  merges_refused_ = c.merges_refused;
  rejected_.copy_from(rejected);
  failed_full_ = failed_full;
  paths_.clear();
  path_head_ = 0;
  live_bound_ = img_.live_in_buckets() + img_.live_in_stash();
  erases_since_ = 0;
}

}  // namespace hs::hive
