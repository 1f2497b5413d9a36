// The hive family's registration: bucketed warp-cooperative cuckoo hashing with a stash and
// linear-hashing resize (the Hive paper).
#include <cmath>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
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

std::unique_ptr<table> make(const table_config& cfg) {
  return model_or_gpu<hive_model>(cfg, HS_GPU_TABLE(hive_table));
}

constexpr std::string_view k_keywords =
    "hive [slots=8|16|32] [tile=..] [hashes=F+G[+H]] [depth=N] [stash=F] [resize=auto|off] "
    "[instrument=on|off]";
constexpr std::string_view k_slots[] = {"8", "16", "32"};
constexpr std::string_view k_tiles[] = {"auto", "2", "4", "8", "16", "32"};
// The policies bench hive compares, the default pair first; any two or three functions are taken.
constexpr std::string_view k_policies[] = {"bithash1+bithash2",      "murmur3+city",
                                           "murmur3+bithash1",       "crc32+murmur3",
                                           "bithash1+bithash2+city", "murmur3+city+crc32"};
constexpr std::string_view k_on_off[] = {"on", "off"};
constexpr std::string_view k_resize[] = {"auto", "off"};

std::string number_text(double v) { return strprintf("%g", v); }

const family_option k_options[] = {
    {"slots", "slots per bucket", k_slots, false, 0, 0, true,
     [](const table_config& c) {
       return std::to_string(c.hive.bucket_slots ? c.hive.bucket_slots : k_default_slots);
     },
     [](table_config& c, const std::string& v) {
       c.hive.bucket_slots = std::stoi(v);
       if (c.hive.tile > c.hive.bucket_slots) c.hive.tile = 0;  // a tile never spans two buckets
     }},
    {"tile", "threads per operation", k_tiles, false, 0, 0, true,
     [](const table_config& c) {
       return c.hive.tile ? std::to_string(c.hive.tile) : std::string("auto");
     },
     [](table_config& c, const std::string& v) { c.hive.tile = v == "auto" ? 0 : std::stoi(v); }},
    {"hashes", "hash functions", k_policies, true, 0, 0, true,
     [](const table_config& c) {
       return c.hive.hashes.empty() ? std::string(k_policies[0]) : c.hive.hashes;
     },
     [](table_config& c, const std::string& v) {
       if (!parse_hash_policy(v))
         throw user_error("'" + v +
                          "' is not a hash policy: two or three different functions joined by '+' "
                          "(bithash1, bithash2, murmur3, city, crc32)");
       c.hive.hashes = v;
     }},
    {"depth",
     "eviction depth",
     {},
     false,
     0,
     k_max_eviction_depth,
     true,
     [](const table_config& c) { return std::to_string(c.hive.eviction_depth); },
     [](table_config& c, const std::string& v) { c.hive.eviction_depth = std::stoi(v); }},
    {"stash",
     "stash fraction",
     {},
     false,
     0,
     0.1,
     false,
     [](const table_config& c) { return number_text(c.hive.stash_fraction); },
     [](table_config& c, const std::string& v) { c.hive.stash_fraction = std::stod(v); }},
    {"resize", "automatic resizing", k_resize, false, 0, 0, true,
     [](const table_config& c) { return std::string(c.hive.auto_resize ? "auto" : "off"); },
     [](table_config& c, const std::string& v) { c.hive.auto_resize = v == "auto"; }},
    {"instrument", "instrumentation", k_on_off, false, 0, 0, true,
     [](const table_config& c) { return std::string(c.hive.instrument ? "on" : "off"); },
     [](table_config& c, const std::string& v) { c.hive.instrument = v == "on"; }},
};

// `hive [slots=..] [tile=..] [hashes=F+G[+H]] [depth=N] [stash=F] [resize=auto|off]
// [instrument=on|off]`; the values are checked again when the table is made.
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  if (w[0] != "hive") return false;
  check_arity(w, 1, std::size(k_options), k_keywords);
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto [name, val] = split_option(w[i]);
    const family_option* o = find_option(k_options, name);
    if (!o)
      throw user_error("unknown hive option '" + name + "' (" + option_names(k_options) + ")");
    apply_option(*o, cfg, val);
  }
  return true;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const auto r = check_invariants(as_hive(t)->snapshot(s), &st);
  return r.ok() ? std::string() : r.describe();
}

void copy_batch_counters(table& t, std::uint64_t* out, stream_view s) {
  as_hive(t)->copy_step_counters(out, s);
}

bool resizes_itself(const table_config& cfg) { return cfg.hive.auto_resize; }

// The candidate buckets and the stash as the step's operation will find them (stream-ordered
// after every earlier batch).
void trace_before(table& t, const table_config&, std::uint64_t, stepped_op& op, stream_view s) {
  const auto key = static_cast<key_type>(op.key);  // a hive's keys are 32-bit
  if (is_reserved_key(key)) return;
  inspect_request ir;
  ir.hive.key = key;
  inspect_result r;
  t.inspect(ir, r, s);
  op.hive_before = std::move(r.hive.key);
}

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::hive;
    f.name = "hive";
    f.summary =
        "bucketed warp-cooperative cuckoo hashing: packed words, free masks, bounded evictions, a "
        "stash, "
        "linear-hashing resize (the Hive paper)";
    f.max_fill_load = 4.0;
    f.make = make;
    f.estimate_bytes =
        [](const table_config& c) -> std::uint64_t {  // words, a meta word per bucket, the stash
      const int slots = c.hive.bucket_slots ? c.hive.bucket_slots : k_default_slots;
      return c.capacity * 8 + c.capacity / slots * 8 + stash_capacity_for(c.hive, c.capacity) * 8;
    };
    f.options = k_options;
    f.option_line = "hive";
    f.parse_line = parse_line;
    f.keywords = k_keywords;
    f.check_invariants = check;
    f.full_note =
        "fill stopped: every candidate bucket and the stash are full (inserts refused, pending the "
        "next "
        "resize); turn on automatic resizing, erase keys, or use a larger capacity";
    f.resizes_itself = resizes_itself;
    f.batch_counters = 5;
    f.copy_batch_counters = copy_batch_counters;
    f.trace_before = trace_before;
    return f;
  }();
  return d;
}

// Registered as the program starts (the family's library is linked whole: core/CMakeLists.txt).
[[maybe_unused]] const bool k_registered = hs::detail::register_family(registration());

}  // namespace hs::hive
