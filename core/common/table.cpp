// Table construction, defaults and argument checks shared by every family and backend.
#include "core/common/table.hpp"

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_model.hpp"
#include "core/hive/hive_model.hpp"
#include "core/slab/slab_model.hpp"
#if HS_WITH_CUDA
#include "core/hive/hive_table.hpp"
#include "core/linear/linear_table.hpp"
#include "core/slab/slab_table.hpp"
#endif

namespace hs {

std::string_view to_string(family f) {
  switch (f) {
    case family::linear: return "linear";
    case family::slab: return "slab";
    case family::hive: return "hive";
  }
  return "?";
}

std::optional<family> parse_family(std::string_view s) {
  for (family f : {family::linear, family::slab, family::hive})
    if (to_string(f) == s) return f;
  return std::nullopt;
}

std::string_view to_string(linear_delete_mode m) { return m == linear_delete_mode::value ? "value" : "tombstone"; }

std::optional<linear_delete_mode> parse_delete_mode(std::string_view s) {
  if (s == "value") return linear_delete_mode::value;
  if (s == "tombstone") return linear_delete_mode::tombstone;
  return std::nullopt;
}

std::string_view to_string(slab_mode m) { return m == slab_mode::unique ? "unique" : "multi"; }

std::optional<slab_mode> parse_slab_mode(std::string_view s) {
  if (s == "unique") return slab_mode::unique;
  if (s == "multi") return slab_mode::multi;
  return std::nullopt;
}

std::string_view to_string(maintenance_result::action a) {
  switch (a) {
    case maintenance_result::action::none: return "none";
    case maintenance_result::action::rehash: return "rehash";
    case maintenance_result::action::grow: return "grow";
    case maintenance_result::action::shrink: return "shrink";
  }
  return "?";
}

maintenance_result table::maintain(const maintenance_policy& p, stream_view s) {
  maintenance_result r;
  if (!p.active()) return r;
  const table_stats st = stats(s);
  const std::uint64_t cap = st.capacity;
  const double load = st.load_factor();
  const double dead = double(st.erased + st.tombstones) / double(cap);
  std::uint64_t target = cap;
  if (p.grow_above > 0 && load > p.grow_above && cap < max_capacity(config().family)) {
    target = cap * 2;
    r.what = maintenance_result::action::grow;
  } else if (p.shrink_below > 0 && load < p.shrink_below && cap >= 32 &&
             2 * load < 0.9 * (p.grow_above > 0 ? p.grow_above : 0.5)) {  // no grow right after
    target = cap / 2;
    r.what = maintenance_result::action::shrink;
  } else if (p.rehash_above > 0 && dead > p.rehash_above) {
    r.what = maintenance_result::action::rehash;
  } else {
    return r;
  }
  r.from_capacity = cap;
  r.to_capacity = target;
  r.live = st.live;
  r.dropped = st.erased + st.tombstones;
  rehash(target, s);
  return r;
}

std::string_view to_string(tri t) {
  switch (t) {
    case tri::automatic: return "auto";
    case tri::on: return "on";
    case tri::off: return "off";
  }
  return "?";
}

std::optional<tri> parse_tri(std::string_view s) {
  for (tri t : {tri::automatic, tri::on, tri::off})
    if (to_string(t) == s) return t;
  return std::nullopt;
}

std::string describe(const linear_tuning& t) {
  return "group " + (t.group ? std::to_string(t.group) : std::string("auto")) + ", cas-first " +
         std::string(to_string(t.cas_first)) + ", partition " + std::string(to_string(t.partition));
}

std::uint64_t default_capacity(backend b) {
  return b == backend::gpu ? std::uint64_t{1} << 27 : std::uint64_t{1} << 22;
}

std::uint64_t max_capacity(family) {
  // 32-bit keys: a table of more than 2^32 slots could never be more than a quarter full.
  return std::uint64_t{1} << 32;
}

namespace {
std::unique_ptr<table> make_hive_table(const table_config& cfg) {
  if (cfg.backend == backend::cpu) return std::make_unique<hive::hive_model>(cfg);
#if HS_WITH_CUDA
  return std::make_unique<hive::hive_table>(cfg);
#else
  throw user_error("this build has no CUDA support: use --backend cpu");
#endif
}

std::unique_ptr<table> make_slab_table(const table_config& cfg) {
  if (cfg.backend == backend::cpu) return std::make_unique<slab::slab_model>(cfg);
#if HS_WITH_CUDA
  return std::make_unique<slab::slab_table>(cfg);
#else
  throw user_error("this build has no CUDA support: use --backend cpu");
#endif
}
}  // namespace

std::unique_ptr<table> make_table(table_config cfg) {
  if (cfg.capacity == 0) cfg.capacity = default_capacity(cfg.backend);
  if (cfg.family == family::slab) return make_slab_table(cfg);
  if (cfg.family == family::hive) return make_hive_table(cfg);
  if (!is_pow2(cfg.capacity))
    throw user_error("capacity " + format_count(cfg.capacity) + " is not a power of two");
  if (cfg.capacity < 16) throw user_error("capacity must be at least 16 slots");
  if (cfg.capacity > max_capacity(cfg.family))
    throw user_error("capacity " + format_count(cfg.capacity) + " exceeds the maximum of 2^32 slots "
                     "(with 32-bit keys a larger table could never be more than a quarter full)");
  if (cfg.linear.group != 0 && cfg.linear.group != 1 && cfg.linear.group != 4 && cfg.linear.group != 8)
    throw user_error("linear probe group must be 0 (auto), 1, 4 or 8 threads");
  if (cfg.family != family::linear)
    throw user_error("the " + std::string(to_string(cfg.family)) + " family is not built yet");
  if (cfg.backend == backend::cpu) return std::make_unique<linear::linear_model>(cfg);
#if HS_WITH_CUDA
  return std::make_unique<linear::linear_table>(cfg);
#else
  throw user_error("this build has no CUDA support: use --backend cpu");
#endif
}

namespace detail {
void check_bulk(std::string_view call, std::size_t n, std::size_t other, std::size_t status) {
  if (other != n)
    throw user_error(std::string(call) + ": " + std::to_string(n) + " keys but " +
                     std::to_string(other) + " values/results");
  if (status != 0 && status != n)
    throw user_error(std::string(call) + ": " + std::to_string(n) + " keys but " +
                     std::to_string(status) + " status slots (pass none or one per key)");
}

void check_apply(const op_batch& ops, std::size_t results, std::size_t status) {
  check_bulk("apply", ops.keys.size(), ops.kinds.size(), status);
  check_bulk("apply", ops.keys.size(), ops.values.size(), 0);
  if (results != 0) check_bulk("apply", ops.keys.size(), results, 0);
}
}  // namespace detail

}  // namespace hs
