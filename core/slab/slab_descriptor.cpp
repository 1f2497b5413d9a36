// The slab family's registration: SlabHash's chaining over 128-byte slabs with SlabAlloc (seed 004).
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

std::string check_config(const table_config& cfg) {
  if (cfg.probe != probe_policy::linear)
    return "probe " + std::string(to_string(cfg.probe)) + ": the slab family has no probing policy (open addressing has: the linear family)";
  return {};
}

std::unique_ptr<table> make(const table_config& cfg) {
  if (const std::string e = check_config(cfg); !e.empty()) throw user_error(e);
  return model_or_gpu<slab_model>(cfg, HS_GPU_TABLE(slab_table));
}

// `slab [mode=unique|multi] [buckets=N] [beta=B keys=N] [tile=T]`.
bool parse_line(const std::vector<std::string>& w, table_config& cfg) {
  if (w[0] != "slab") return false;
  check_arity(w, 1, 4, "slab [mode=unique|multi] [buckets=N] [beta=B keys=N] [tile=2|4|8|16|32]");
  slab_options& o = cfg.slab;
  double beta = 0;
  std::uint64_t keys = 0;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto [name, val] = split_option(w[i]);
    if (name == "mode") {
      const auto m = parse_slab_mode(val);
      if (!m) throw user_error("unknown slab mode '" + val + "' (unique, multi)");
      o.mode = *m;
    } else if (name == "buckets") {
      o.buckets = option_size(val, "bucket count");
    } else if (name == "beta") {
      beta = option_number(val, "beta");
    } else if (name == "keys") {
      keys = option_size(val, "key count");
    } else if (name == "tile") {
      o.tile = static_cast<int>(option_number(val, "tile"));
      if (o.tile == 0 || !valid_tile(o.tile)) throw user_error("tile must be 2, 4, 8, 16 or 32");
    } else {
      throw user_error("unknown slab option '" + name + "' (mode, buckets, beta, keys, tile)");
    }
  }
  if ((beta > 0) != (keys > 0)) throw user_error("beta and keys go together: buckets = keys / (15 beta)");
  if (beta > 0) o.buckets = buckets_for_beta(keys, beta);
  return true;
}

std::string check(table& t, stream_view s) {
  const table_stats st = t.stats(s);
  const auto r = check_invariants(as_slab(t)->snapshot(s), {&st, false});
  return r.ok() ? std::string() : r.describe();
}

// The list as the step's operation will find it: stream-ordered after every earlier batch.
void trace_before(table& t, const table_config& cfg, std::uint64_t capacity, stepped_op& op, stream_view s) {
  const auto buckets = static_cast<std::uint32_t>(capacity / k_slab_pairs);
  if (!buckets || is_reserved_key(op.key)) return;
  inspect_request ir;
  ir.chain_bucket = dispatch_hash(cfg.hash, [&](auto h) { return bucket_of(h, op.key, buckets); });
  inspect_result r;
  t.inspect(ir, r, s);
  op.list_before = std::move(r.chain);
}

void flush(table& t, stream_view s) { as_slab(t)->flush(s); }

}  // namespace

const family_descriptor& registration() {
  static const family_descriptor d = [] {
    family_descriptor f;
    f.id = family::slab;
    f.name = "slab";
    f.summary = "SlabHash: chaining over 128-byte slabs shared by a tile of threads, lists grown from SlabAlloc "
                "(seed 004)";
    f.capacity_unit = "pairs in base slabs";
    f.pow2_capacity = false;
    f.max_fill_load = 8.0;
    f.make = make;
    f.check_config = check_config;
    f.estimate_bytes = [](const table_config& c) -> std::uint64_t {  // base slabs and SlabAlloc's first pool
      const std::uint64_t buckets = resolve_buckets(c);
      const pool_shape p = resolve_pool(c.slab, buckets);
      return (buckets + p.initial_super_blocks * p.slabs_per_super()) * k_slab_bytes;
    };
    f.parse_line = parse_line;
    f.keywords = "slab [mode=unique|multi] [buckets=N] [beta=B keys=N] [tile=2|4|8|16|32]";
    f.check_invariants = check;
    f.full_note = "fill stopped: SlabAlloc's pool is exhausted (failed_full inserts); erase keys, FLUSH, or allow a larger pool";
    f.trace_before = trace_before;
    f.flush = flush;
    f.flush_note = "flushed: every list compacted, emptied slabs returned to SlabAlloc";
    return f;
  }();
  return d;
}

}  // namespace hs::slab
