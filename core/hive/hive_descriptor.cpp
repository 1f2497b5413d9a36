// The hive family's registration: bucketed warp-cooperative cuckoo hashing with a stash and
// linear-hashing resize (seed 003).
#include <cmath>

#include "core/common/error.hpp"
#include "core/hive/hive_family.hpp"
#include "core/hive/hive_hash.hpp"
#include "core/hive/hive_invariants.hpp"
#include "core/hive/hive_layout.hpp"
#include "core/hive/hive_model.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/option_words.hpp"
#if HS_WITH_CUDA
#include "core/hive/hive_table.hpp"
#endif

namespace hs::hive {

namespace {

std::string check_config(const table_config& cfg) {
  if (cfg.probe != probe_policy::linear)
    return "probe " + std::string(to_string(cfg.probe)) + ": the hive family has no probing policy (open addressing has: the linear family)";
  return {};
}

std::unique_ptr<table> make(const table_config& cfg) {
  if (const std::string e = check_config(cfg); !e.empty()) throw user_error(e);
  return model_or_gpu<hive_model>(cfg, HS_GPU_TABLE(hive_table));
}

// `hive [slots=..] [tile=..] [hashes=F+G[+H]] [depth=N] [stash=F] [resize=auto|off] [instrument=on|off]`;
// the values are checked again when the table is made.
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  if (w[0] != "hive") return false;
  check_arity(w, 1, 7, "hive [slots=8|16|32] [tile=2|4|8|16|32] [hashes=F+G[+H]] [depth=N] [stash=FRACTION] "
                       "[resize=auto|off] [instrument=on|off]");
  hive_options& o = cfg.hive;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto [name, val] = split_option(w[i]);
    if (name == "slots") {
      const double v = option_number(val, "slots per bucket");
      if (v != 8 && v != 16 && v != 32) throw user_error("slots must be 8, 16 or 32");
      o.bucket_slots = static_cast<int>(v);
    } else if (name == "tile") {
      const double v = option_number(val, "threads per operation");
      if (v != 2 && v != 4 && v != 8 && v != 16 && v != 32) throw user_error("tile must be 2, 4, 8, 16 or 32");
      o.tile = static_cast<int>(v);
    } else if (name == "hashes") {
      if (!parse_hash_policy(val))
        throw user_error("'" + val + "' is not a hash policy: two or three different functions joined by '+' "
                         "(bithash1, bithash2, murmur3, city, crc32)");
      o.hashes = val;
    } else if (name == "depth") {
      const double v = option_number(val, "eviction depth");
      if (v < 0 || v > k_max_eviction_depth || v != std::floor(v)) throw user_error("depth must be a whole number from 0 to 32");
      o.eviction_depth = static_cast<int>(v);
    } else if (name == "stash") {
      const double v = option_number(val, "stash fraction");
      if (!(v >= 0 && v <= 0.1)) throw user_error("stash is a fraction of the slots from 0 to 0.1 (default 0.015)");
      o.stash_fraction = v;
    } else if (name == "resize") {
      o.auto_resize = option_choice(val, "resize", {"auto", "off"}) == "auto";
    } else if (name == "instrument") {
      o.instrument = option_choice(val, "instrument", {"on", "off"}) == "on";
    } else {
      throw user_error("unknown hive option '" + name + "' (slots, tile, hashes, depth, stash, resize, instrument)");
    }
  }
  return true;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const auto r = check_invariants(as_hive(t)->snapshot(s), &st);
  return r.ok() ? std::string() : r.describe();
}

void copy_batch_counters(table& t, std::uint64_t* out, stream_view s) { as_hive(t)->copy_step_counters(out, s); }

bool resizes_itself(const table_config& cfg) { return cfg.hive.auto_resize; }

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::hive;
    f.name = "hive";
    f.summary = "bucketed warp-cooperative cuckoo hashing: packed words, free masks, bounded evictions, a stash, "
                "linear-hashing resize (seed 003)";
    f.max_fill_load = 4.0;
    f.make = make;
    f.check_config = check_config;
    f.estimate_bytes = [](const table_config& c) -> std::uint64_t {  // words, a meta word per bucket, the stash
      const int slots = c.hive.bucket_slots ? c.hive.bucket_slots : k_default_slots;
      return c.capacity * 8 + c.capacity / slots * 8 + stash_capacity_for(c.hive, c.capacity) * 8;
    };
    f.parse_line = parse_line;
    f.keywords = "hive [slots=8|16|32] [tile=..] [hashes=F+G[+H]] [depth=N] [stash=F] [resize=auto|off] [instrument=on|off]";
    f.check_invariants = check;
    f.full_note = "fill stopped: every candidate bucket and the stash are full (inserts refused, pending the next "
                  "resize); turn on automatic resizing, erase keys, or use a larger capacity";
    f.resizes_itself = resizes_itself;
    f.batch_counters = 5;
    f.copy_batch_counters = copy_batch_counters;
    return f;
  }();
  return d;
}

}  // namespace hs::hive
