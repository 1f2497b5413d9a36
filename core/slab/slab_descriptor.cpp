// The slab family's registration: SlabHash's chaining over 128-byte slabs with SlabAlloc (SlabHash,
// Ashkiani, Farach-Colton and Owens, IPDPS 2018).
#include "core/common/error.hpp"
#include "core/slab/slab_family.hpp"
#include "core/slab/slab_invariants.hpp"
#include "core/slab/slab_layout.hpp"
#include "core/slab/slab_model.hpp"
#include "core/slab/slab_sizing.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/option_words.hpp"
#if HS_WITH_CUDA
#include "core/slab/slab_table.hpp"
#endif

namespace hs::slab {

namespace {

std::unique_ptr<table> make(const table_config& cfg) {
  return model_or_gpu<slab_model>(cfg, HS_GPU_TABLE(slab_table));
}

constexpr std::string_view k_keywords =
    "slab [mode=unique|multi] [buckets=N] [beta=B keys=N] [tile=2|4|8|16|32]";
constexpr std::string_view k_modes[] = {"unique", "multi"};
constexpr std::string_view k_tiles[] = {"auto", "2", "4", "8", "16", "32"};

const family_option k_options[] = {
    {"mode", "slab mode", k_modes, false, 0, 0, true,
     [](const table_config& c) { return std::string(to_string(c.slab.mode)); },
     [](table_config& c, const std::string& v) { c.slab.mode = *parse_slab_mode(v); }},
    {"tile", "threads per slab", k_tiles, false, 0, 0, true,
     [](const table_config& c) {
       return c.slab.tile ? std::to_string(c.slab.tile) : std::string("auto");
     },
     [](table_config& c, const std::string& v) { c.slab.tile = v == "auto" ? 0 : std::stoi(v); }},
    {"buckets",
     "buckets (0: capacity / 15)",
     {},
     false,
     0,
     4294967296.0,
     true,
     [](const table_config& c) { return std::to_string(c.slab.buckets); },
     [](table_config& c, const std::string& v) { c.slab.buckets = option_size(v, "bucket count"); },
     true},
};

// `slab [mode=unique|multi] [buckets=N] [beta=B keys=N] [tile=T]`: the options, and beta with
// keys, which together size the buckets (buckets = keys / (15 beta)).
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  if (w[0] != "slab") return false;
  check_arity(w, 1, 4, k_keywords);
  double beta = 0;
  std::uint64_t keys = 0;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto [name, val] = split_option(w[i]);
    if (name == "beta") {
      beta = option_number(val, "beta");
    } else if (name == "keys") {
      keys = option_size(val, "key count");
    } else if (const family_option* o = find_option(k_options, name)) {
      apply_option(*o, cfg, val);
    } else {
      throw user_error("unknown slab option '" + name + "' (" + option_names(k_options) +
                       ", beta, keys)");
    }
  }
  if ((beta > 0) != (keys > 0))
    throw user_error("beta and keys go together: buckets = keys / (15 beta)");
  if (beta > 0) cfg.slab.buckets = buckets_for_beta(keys, beta);
  return true;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const auto r = check_invariants(as_slab(t)->snapshot(s), {&st, false});
  return r.ok() ? std::string() : r.describe();
}

// The list as the step's operation will find it: stream-ordered after every earlier batch.
void trace_before(table& t, const table_config& cfg, std::uint64_t capacity, stepped_op& op,
                  stream_view s) {
  const auto buckets = static_cast<std::uint32_t>(capacity / k_slab_pairs);
  const auto key = static_cast<key_type>(op.key);  // a slab table's keys are 32-bit
  if (!buckets || is_reserved_key(key)) return;
  inspect_request ir;
  ir.slab.chain_bucket =
      dispatch_hash(cfg.hash, [&](auto h) { return bucket_of(h, key, buckets); });
  inspect_result r;
  t.inspect(ir, r, s);
  op.list_before = std::move(r.slab.chain);
}

void flush(table& t, stream_view s) { as_slab(t)->flush(s); }

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::slab;
    f.name = "slab";
    f.summary =
        "SlabHash: chaining over 128-byte slabs shared by a tile of threads, lists grown from "
        "SlabAlloc "
        "(SlabHash)";
    f.capacity_unit = "pairs in base slabs";
    f.pow2_capacity = false;
    f.max_fill_load = 8.0;
    f.make = make;
    f.estimate_bytes =
        [](const table_config& c) -> std::uint64_t {  // base slabs and SlabAlloc's first pool
      const std::uint64_t buckets = resolve_buckets(c);
      const pool_shape p = resolve_pool(c.slab, buckets);
      return (buckets + p.initial_super_blocks * p.slabs_per_super()) * k_slab_bytes;
    };
    f.options = k_options;
    f.option_line = "slab";
    f.parse_line = parse_line;
    f.keywords = k_keywords;
    f.check_invariants = check;
    f.full_note =
        "fill stopped: SlabAlloc's pool is exhausted (failed_full inserts); erase keys, FLUSH, or "
        "allow a larger pool";
    f.trace_before = trace_before;
    f.flush = flush;
    f.flush_note = "flushed: every list compacted, emptied slabs returned to SlabAlloc";
    // Unique mode's DELETE writes a tombstone no insert takes again; multi mode's empties the pair.
    f.erases_leave_dead = [](const table_config& c) { return c.slab.mode == slab_mode::unique; };
    return f;
  }();
  return d;
}

// Registered as the program starts (the family's library is linked whole: core/CMakeLists.txt).
[[maybe_unused]] const bool k_registered = hs::detail::register_family(registration());

}  // namespace hs::slab
