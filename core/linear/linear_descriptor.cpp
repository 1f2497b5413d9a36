// The linear family's registration: open addressing with linear probing (seeds 000/001, 002).
#include <algorithm>
#include <functional>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "core/linear/linear_trace.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/option_words.hpp"
#if HS_WITH_CUDA
#include "core/linear/linear_table.hpp"
#endif

namespace hs::linear {

namespace {

std::string check_config(const table_config& cfg) {
  if (cfg.linear.tuning.group != 0 && cfg.linear.tuning.group != 1 &&
      cfg.linear.tuning.group != 4 && cfg.linear.tuning.group != 8)
    return "linear probe group must be 0 (auto), 1, 4 or 8 threads";
  if (cfg.linear.probe == probe_policy::double_hash && cfg.linear.tuning.group > 1)
    return "double hashing runs one thread per operation (each probe a new sector): group must be "
           "1 or auto";
  if (cfg.width == key_width::bits64 && cfg.linear.tuning.group > 1)
    return "a table of 64-bit keys runs one thread per operation (two 16-byte slots a load): group "
           "must be 1 or auto";
  return {};
}

// What the registration does with a width's slot type W: chosen once a call, by ops_for.
template <class W>
std::unique_ptr<table> make_of(const table_config& cfg) {
  return model_or_gpu<basic_linear_model<W>>(cfg, HS_GPU_TABLE(basic_linear_table<W>));
}

template <class W>
std::string check_of(table& t, const table_config& c, const table_stats& st, stream_view s) {
  const auto r = check_invariants(copy_slots<W>(t, s), c.hash, &st, c.linear.deletes,
                                  c.linear.probe, copy_reach(t, s));
  return r.ok() ? std::string() : r.describe();
}

// Calls dump(first, count) along the key's walk, slot by slot with double hashing (sectors far
// apart), else in chunks of consecutive slots, until dump says the walk ends (true) or `limit`
// slots were read (false).
using walk_dump = std::function<bool(std::uint64_t first, std::uint64_t count)>;
template <class W>
bool walk_of(const table_config& cfg, std::uint64_t capacity, std::uint64_t typed_key,
             std::uint64_t limit, const walk_dump& dump) {
  using I = index_of_t<W>;
  const auto mask = static_cast<I>(capacity - 1);
  const auto key = static_cast<key_of_t<W>>(typed_key);
  return dispatch_probing(cfg.hash, cfg.linear.probe, [&](auto h) {
    using H = decltype(h);
    const I home = home_slot<H>(key, mask);
    if constexpr (probe_of<H>::type::is_double) {
      for (std::uint64_t i = 0; i < limit; ++i)
        if (dump(probe_slot<H>(home, key, i, mask), 1)) return true;
    } else {
      for (std::uint64_t at = home, read = 0; read < limit;) {
        const std::uint64_t n = std::min<std::uint64_t>({32, capacity - at, limit - read});
        if (dump(at, n)) return true;
        read += n;
        at = (at + n) & mask;
      }
    }
    return false;
  });
}

struct width_ops {
  std::unique_ptr<table> (*make)(const table_config&);
  std::string (*check)(table&, const table_config&, const table_stats&, stream_view);
  bool (*walk)(const table_config&, std::uint64_t, std::uint64_t, std::uint64_t, const walk_dump&);
};
template <class W>
constexpr width_ops k_width_ops{&make_of<W>, &check_of<W>, &walk_of<W>};

// The one place the linear family goes from a table's width to its slot type.
const width_ops& ops_for(key_width w) {
  return with_key_width(
      w, [](auto key) -> const width_ops& { return k_width_ops<slot_of_key<decltype(key)>>; });
}

// What the capacity limit means, by width: 32-bit keys could never fill more than a quarter of a
// larger table; 64-bit ones meet memory first.
constexpr std::string_view k_capacity_hint[] = {
    " (with 32-bit keys a larger table could never be more than a quarter full; key-bits 64 has no "
    "such limit)",
    ""};

std::unique_ptr<table> make(const table_config& cfg) {
  if (!is_pow2(cfg.capacity))
    throw user_error("capacity " + format_count(cfg.capacity) + " is not a power of two");
  if (cfg.capacity < 16) throw user_error("capacity must be at least 16 slots");
  if (const std::string e = check_config(cfg); !e.empty()) throw user_error(e);
  if (cfg.capacity > max_capacity(cfg.width))
    throw user_error("capacity " + format_count(cfg.capacity) + " exceeds the maximum of 2^" +
                     std::to_string(max_capacity_log2(cfg.width)) + " slots" +
                     std::string(k_capacity_hint[static_cast<unsigned>(cfg.width)]));
  return ops_for(cfg.width).make(cfg);
}

constexpr key_width k_widths[] = {key_width::bits32, key_width::bits64};
constexpr std::string_view k_probes[] = {"linear", "double"};
constexpr std::string_view k_deletes[] = {"value", "tombstone"};
constexpr std::string_view k_groups[] = {"auto", "1", "4", "8"};

const family_option k_options[] = {
    {"probe", "probing", k_probes, false, 0, 0, true,
     [](const table_config& c) { return std::string(to_string(c.linear.probe)); },
     [](table_config& c, const std::string& v) { c.linear.probe = *parse_probe_policy(v); }},
    {"delete", "delete mode", k_deletes, false, 0, 0, true,
     [](const table_config& c) { return std::string(to_string(c.linear.deletes)); },
     [](table_config& c, const std::string& v) { c.linear.deletes = *parse_delete_mode(v); }},
    {"group", "threads per operation", k_groups, false, 0, 0, true,
     [](const table_config& c) {
       return c.linear.tuning.group ? std::to_string(c.linear.tuning.group) : std::string("auto");
     },
     [](table_config& c, const std::string& v) {
       c.linear.tuning.group = v == "auto" ? 0 : std::stoi(v);
     }},
    {"key-bits", "key bits", k_key_width_names, false, 0, 0, true,
     [](const table_config& c) { return std::string(to_string(c.width)); },
     [](table_config& c, const std::string& v) { c.width = key_width_from(v); }},
};

// `probe linear|double`, `delete value|tombstone`, `group 1|4|8`, `key-bits 32|64`: a line each,
// as the first scenarios wrote them.
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  const family_option* o = find_option(k_options, w[0]);
  if (!o) return false;
  check_arity(w, 1, 1, std::string(o->name) + " VALUE (" + std::string(o->label) + ")");
  apply_option(*o, cfg, w[1]);
  return true;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const table_config c = t.config();
  return ops_for(c.width).check(t, c, st, s);
}

// The slots from the operation's home slot on, as the step finds them (stream-ordered after every
// earlier batch), in chunks until the walk must end there: at the key or an empty slot.
void trace_before(table& t, const table_config& cfg, std::uint64_t capacity, stepped_op& op,
                  stream_view s) {
  if (is_reserved_key_of(op.key, cfg.width) || capacity == 0) return;
  const std::uint64_t limit =
      std::min<std::uint64_t>(k_traced_walk_slots, capacity);        // each slot once
  const auto dump = [&](std::uint64_t first, std::uint64_t count) {  // true once the walk must end
    inspect_request ir;
    ir.dump_first = first;
    ir.dump_count = static_cast<std::uint32_t>(count);
    inspect_result r;
    t.inspect(ir, r, s);
    for (const slot_record& rec : r.slots) {
      op.probe_before.push_back(rec);
      if (walk_ends_at(rec, op.key)) return true;
    }
    return false;
  };
  const bool ended = ops_for(cfg.width).walk(cfg, capacity, op.key, limit, dump);
  op.probe_truncated = !ended && limit < capacity;  // the whole table read: the walk is complete
}

std::string near_full_reason(const table_config& cfg) {
  return cfg.linear.deletes == linear_delete_mode::value
             ? "erasing empties only the value, the key keeps its slot"
             : "live keys with no room left";
}

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::linear;
    f.name = "linear";
    f.summary =
        "open addressing with linear probing (one thread or a probe group per operation) or double "
        "hashing; "
        "erase empties the value (A Simple GPU Hash Table) or leaves a reusable tombstone (Reusing "
        "Deleted Slots)";
    f.widths = k_widths;
    f.make = make;
    f.check_config = check_config;
    f.estimate_bytes = [](const table_config& c) -> std::uint64_t {
      return c.capacity * slot_bytes(c.width) + reach_regions(c.capacity) * sizeof(std::uint32_t);
    };
    f.options = k_options;
    f.parse_line = parse_line;
    f.keywords = "group 1|4|8, delete value|tombstone, probe linear|double, key-bits 32|64";
    f.check_invariants = check;
    f.full_note =
        "fill stopped: the table is full (failed_full inserts); erase keys or use a larger "
        "capacity";
    f.near_full_reason = near_full_reason;
    f.apply_in_phases = [](const table_config& c) {
      return c.linear.deletes == linear_delete_mode::tombstone;
    };
    f.trace_before = trace_before;
    return f;
  }();
  return d;
}

// Registered as the program starts (the family's library is linked whole: core/CMakeLists.txt).
[[maybe_unused]] const bool k_registered = hs::detail::register_family(registration());

}  // namespace hs::linear
