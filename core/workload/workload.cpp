// Planning batches, host-side generation, validation and names of the workload seam.
#include "core/workload/workload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::workload {

bool batch_plan::only(op_kind k) const {
  switch (k) {
    case op_kind::insert: return inserts == size;
    case op_kind::find: return hits + misses == size;
    case op_kind::erase: return erases == size;
  }
  return false;
}

batch_plan cursor::next(const workload_spec& spec, std::uint64_t size,
                        const std::optional<op_mix>& mix) {
  const op_mix m = mix.value_or(spec.mix);
  batch_plan p;
  p.index = batches_++;
  p.size = size ? size : spec.batch_size;
  const double total = m.total();
  // Whole counts per kind; what rounding leaves over goes to the kind with the largest weight.
  std::uint64_t counts[4];
  const double w[4] = {m.insert, m.find_hit, m.find_miss, m.erase};
  std::uint64_t assigned = 0;
  int largest = 0;
  for (int k = 0; k < 4; ++k) {
    counts[k] = static_cast<std::uint64_t>(std::floor(w[k] / total * static_cast<double>(p.size)));
    assigned += counts[k];
    if (w[k] > w[largest]) largest = k;
  }
  counts[largest] += p.size - assigned;
  // Erases retire inserted keys only (from earlier batches); the rest become misses.
  const std::uint64_t erasable = inserted_ - erased_;
  if (counts[3] > erasable) {
    counts[2] += counts[3] - erasable;
    counts[3] = erasable;
  }
  p.inserts = counts[0];
  p.hits = counts[1];
  p.misses = counts[2];
  p.erases = counts[3];
  p.insert_begin = inserted_;
  p.erase_begin = erased_;
  p.hit_begin = erased_ + p.erases;  // neither erased before nor in this batch
  p.hit_end = inserted_;             // inserted by an earlier batch
  inserted_ += p.inserts;
  erased_ += p.erases;
  return p;
}

namespace {
void require_key_file(const workload_spec& spec) {
  if (!spec.key_file || spec.key_file->size() == 0)
    throw user_error("workload: distribution file needs a key file (keys file PATH)");
}

template <class K, class V>
void generate_as(const workload_spec& spec, const batch_plan& plan, memory_space space,
                 const basic_batch_spans<K, V>& out, stream_view s) {
  if (out.kinds.size() < plan.size || out.keys.size() < plan.size || out.values.size() < plan.size)
    throw user_error("workload: output spans are smaller than the batch");
  stream_params p = spec.keys;
  if (p.dist == distribution::file) {
    require_key_file(spec);
    p.file_keys = spec.key_file->keys_in(space, s);
    p.wide_file_keys = spec.key_file->wide_keys_in(space, s);
    p.file_count = spec.key_file->size();
  }
  if (space == memory_space::device) {
    detail::generate_on_device(p, plan, out, s);
    return;
  }
  const zipf_sampler zipf(p.zipf_s, p.universe);
  for (std::uint64_t i = 0; i < plan.size; ++i)
    op_at(p, plan, &zipf, i, out.kinds[i], out.keys[i], out.values[i]);
}
}  // namespace

void generate(const workload_spec& spec, const batch_plan& plan, memory_space space,
              const batch_spans& out, stream_view s) {
  generate_as(spec, plan, space, out, s);
}
void generate(const workload_spec& spec, const batch_plan& plan, memory_space space,
              const wide_batch_spans& out, stream_view s) {
  generate_as(spec, plan, space, out, s);
}

void validate(const workload_spec& spec, key_width w) {
  const stream_params& k = spec.keys;
  if (k.id_bits != 0 && k.id_bits != 64)
    throw user_error("workload: ids must be 64 (or left out: keys of the table's width)");
  if (k.id_bits == 64 && k.dist == distribution::file)
    throw user_error("workload: ids=64 draws 64-bit IDs, and a key file gives its own keys");
  const key_width drawn = k.id_bits ? key_width::bits64 : w;  // ids=64 draws 64-bit IDs
  const std::uint64_t domain = empty_key_of(drawn) - 1;       // every key but the two reserved
  if (k.start >= domain)
    throw user_error("workload: start key " + key_text(k.start, key_radix::hex, true) +
                     " is past the " + std::string(to_string(drawn)) +
                     "-bit keys (the largest is " + key_text(domain - 1, key_radix::hex, true) +
                     ")");
  if (k.universe == 0 || k.universe > k_half)
    throw user_error("workload: universe must be between 1 and 2^31 keys");
  if (!is_pow2(k.cluster) || k.cluster > (1u << 20))
    throw user_error("workload: cluster length must be a power of two up to 2^20");
  if (!(k.zipf_s > 0.0) || k.zipf_s > 10.0)
    throw user_error("workload: zipf exponent must be in (0, 10]");
  const op_mix& m = spec.mix;
  if (m.insert < 0 || m.find_hit < 0 || m.find_miss < 0 || m.erase < 0 || !(m.total() > 0))
    throw user_error("workload: operation weights must be non-negative and not all zero");
  if (spec.batch_size == 0 || spec.batch_size > (1ull << 31))
    throw user_error("workload: batch size must be between 1 and 2^31");
  if (k.dist == distribution::file) {
    require_key_file(spec);
    if (narrower(w, spec.key_file->report.width))
      throw user_error("workload: the key file " + spec.key_file->source.path + " was read for " +
                       std::string(to_string(spec.key_file->report.width)) +
                       "-bit keys, and this table holds " + std::string(to_string(w)) +
                       "-bit keys (read it again for the table)");
  }
}

std::string_view to_string(distribution d) {
  switch (d) {
    case distribution::uniform_unique: return "uniform";
    case distribution::uniform_dup: return "uniform-dup";
    case distribution::sequential: return "sequential";
    case distribution::clustered: return "clustered";
    case distribution::zipf: return "zipf";
    case distribution::file: return "file";
  }
  return "?";
}

std::optional<distribution> parse_distribution(std::string_view s) {
  for (auto d : {distribution::uniform_unique, distribution::uniform_dup, distribution::sequential,
                 distribution::clustered, distribution::zipf})
    if (to_string(d) == s) return d;
  return std::nullopt;
}

std::optional<op_mix> parse_mix(std::string_view s) {
  op_mix m{0, 0, 0, 0};
  while (!s.empty()) {
    const std::size_t comma = s.find(',');
    std::string_view item = s.substr(0, comma);
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view name = item.substr(0, colon), num = item.substr(colon + 1);
    double w = 0;
    auto r = std::from_chars(num.data(), num.data() + num.size(), w);
    if (r.ec != std::errc{} || r.ptr != num.data() + num.size() || w < 0) return std::nullopt;
    if (name == "insert")
      m.insert = w;
    else if (name == "find-hit")
      m.find_hit = w;
    else if (name == "find-miss")
      m.find_miss = w;
    else if (name == "erase")
      m.erase = w;
    else
      return std::nullopt;
  }
  if (!(m.total() > 0)) return std::nullopt;
  return m;
}

std::string to_string(const op_mix& m) {
  std::string out;
  auto add = [&](const char* name, double w) {
    if (w <= 0) return;
    if (!out.empty()) out += ',';
    out += strprintf("%s:%g", name, w);
  };
  add("insert", m.insert);
  add("find-hit", m.find_hit);
  add("find-miss", m.find_miss);
  add("erase", m.erase);
  return out;
}

}  // namespace hs::workload

#if !HS_WITH_CUDA
namespace hs::workload::detail {
void generate_on_device(const stream_params&, const batch_plan&, const batch_spans&, stream_view) {
  throw user_error("workload: device generation needs a CUDA build");
}
void generate_on_device(const stream_params&, const batch_plan&, const wide_batch_spans&,
                        stream_view) {
  throw user_error("workload: device generation needs a CUDA build");
}
}  // namespace hs::workload::detail
#endif
