#include "core/slab/slab_family.hpp"

namespace hs::slab {

search_all_result search_all_host(slab_family& t, std::span<const key_type> keys, stream_view s) {
  const memory_space space = t.space();
  const std::size_t n = keys.size();
  search_all_result r;
  buffer<key_type> k(space, n);
  buffer<std::uint32_t> counts(space, n);
  k.upload(keys, s);
  t.count(k.cspan(), counts.span(), s);
  r.counts = counts.download(n, s);
  synchronize(s);
  r.offsets.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) r.offsets[i + 1] = r.offsets[i] + r.counts[i];
  buffer<std::uint64_t> offsets(space, n + 1);
  offsets.upload(r.offsets, s);
  buffer<value_type> values(space, r.offsets[n]);
  t.search_all(k.cspan(), offsets.cspan(), values.span(), s);
  r.values = values.download(r.offsets[n], s);
  synchronize(s);
  return r;
}

slab_family* as_slab(table& t) { return dynamic_cast<slab_family*>(&t); }

}  // namespace hs::slab
