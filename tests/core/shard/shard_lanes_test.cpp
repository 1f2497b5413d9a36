// [gpu][shard] The partition kernels on one GPU against the host's partition: every key gets one
// place, in its owner's run of the send order, with its value and kind packed beside it, and the
// gather brings each answer back to its key; without places kept, the runs hold the same keys. Maps
// of 2 to 8 devices take the ballot kernels, 9 and more the __match_any_sync ones; uneven maps
// (regpus's) and both widths.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/common/device.hpp"
#include "core/shard/shard_lanes.hpp"
#include "tests/core/shard/sharded_support.hpp"

using namespace hs;

namespace {

template <class T>
buffer<T> on_gpu(const std::vector<T>& host) {
  buffer<T> b(memory_space::device, host.size());
  copy_bytes(b.data(), memory_space::device, host.data(), memory_space::host,
             host.size() * sizeof(T), {});
  return b;
}

template <class T>
std::vector<T> to_host(const buffer<T>& b, std::size_t n) {
  std::vector<T> host(n);
  copy_bytes(host.data(), memory_space::host, b.data(), memory_space::device, n * sizeof(T), {});
  return host;
}

template <class K>
void check_partition(const shard_map& m, std::size_t n, std::uint64_t seed) {
  const std::vector<K> keys = test::key_pool<K>(n, seed);
  std::vector<K> values(n);
  std::vector<op_kind> kinds(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<K>(keys[i] * 3 + 1);
    kinds[i] = static_cast<op_kind>(i % 3);
  }
  std::vector<std::uint64_t> expect(m.devices, 0);
  detail::count_owners<K>(memory_space::host, m, keys, expect.data(), {});
  const std::uint32_t d = m.devices;
  auto g_keys = on_gpu(keys), g_values = on_gpu(values);
  auto g_kinds = on_gpu(kinds);
  buffer<std::uint64_t> counts(memory_space::device, 2 * std::size_t{d});
  buffer<std::uint32_t> pos(memory_space::device, n);
  const std::size_t room = n + std::size_t{d} * (detail::k_run_align - 1);  // runs start aligned
  buffer<K> out_keys(memory_space::device, room), out_values(memory_space::device, room);
  buffer<op_kind> out_kinds(memory_space::device, room);
  // The places between runs stay unwritten; filled here so that reading them back reads no garbage.
  fill_bytes(out_keys.data(), memory_space::device, 0, room * sizeof(K), {});
  fill_bytes(out_values.data(), memory_space::device, 0, room * sizeof(K), {});
  fill_bytes(out_kinds.data(), memory_space::device, 0, room * sizeof(op_kind), {});
  const std::span<const K> in(g_keys.data(), n);
  fill_bytes(counts.data(), memory_space::device, 0, 2 * std::size_t{d} * sizeof(std::uint64_t),
             {});
  detail::count_owners<K>(memory_space::device, m, in, counts.data(), {});
  detail::packed_lanes<K> out{out_keys.data(), g_values.data(), out_values.data(), g_kinds.data(),
                              out_kinds.data()};
  detail::place_by_owner<K>(memory_space::device, m, in, counts.data(), counts.data() + d,
                            pos.data(), out, {});
  synchronize({});
  const auto got_counts = to_host(counts, 2 * std::size_t{d});
  CHECK(std::vector<std::uint64_t>(got_counts.begin(), got_counts.begin() + d) == expect);
  // Device j's run: [run_start[j], run_start[j] + expect[j]), from a multiple of k_run_align on.
  std::vector<std::uint64_t> run_start(d, 0);
  for (std::uint32_t j = 1; j < d; ++j)
    run_start[j] = run_start[j - 1] + detail::aligned_up(expect[j - 1]);
  const auto p = to_host(pos, n);
  const auto pk = to_host(out_keys, room), pv = to_host(out_values, room);
  const auto pkind = to_host(out_kinds, room);
  std::vector<char> taken(room, 0);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t owner = owner_of(m, keys[i]);
    const bool ok = p[i] < room && !taken[p[i]] && p[i] >= run_start[owner] &&
                    p[i] < run_start[owner] + expect[owner] && pk[p[i]] == keys[i] &&
                    pv[p[i]] == values[i] && pkind[p[i]] == kinds[i];
    if (p[i] < room) taken[p[i]] = 1;
    wrong += ok ? 0 : 1;
  }
  CHECK(wrong == 0);
  // The gather: answers laid out in send order come back in input order.
  buffer<K> back(memory_space::device, n);
  detail::gather_by(memory_space::device, pos.data(), n, out_values.data(), back.data(), sizeof(K),
                    {});
  synchronize({});
  CHECK(to_host(back, n) == values);
  // Without places kept (a batch that wants no answer): every run holds the same keys.
  buffer<K> bare_keys(memory_space::device, room);
  fill_bytes(bare_keys.data(), memory_space::device, 0, room * sizeof(K), {});
  detail::packed_lanes<K> bare{bare_keys.data()};
  fill_bytes(counts.data() + d, memory_space::device, 0, d * sizeof(std::uint64_t), {});
  detail::place_by_owner<K>(memory_space::device, m, in, counts.data(), counts.data() + d, nullptr,
                            bare, {});
  synchronize({});
  const auto bk = to_host(bare_keys, room);
  std::size_t runs_differ = 0;
  for (std::uint32_t j = 0; j < d; ++j) {
    const auto from = static_cast<std::ptrdiff_t>(run_start[j]);
    const auto to = from + static_cast<std::ptrdiff_t>(expect[j]);
    std::vector<K> a(pk.begin() + from, pk.begin() + to), b(bk.begin() + from, bk.begin() + to);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    runs_differ += a == b ? 0 : 1;
  }
  CHECK(runs_differ == 0);
}

}  // namespace

TEST_CASE("shard lanes on the GPU: every key placed once in its owner's run, as the host counts",
          "[gpu][shard]") {
  if (gpu_count() < 1) SKIP("needs a CUDA device");
  std::uint64_t seed = 41;
  std::vector<shard_map> maps;
  for (const std::uint32_t d : {2u, 3u, 4u, 8u, 9u, 16u, 64u})
    maps.push_back(shard_map::spread(owner_bits::independent, hash_kind::murmur3, d));
  maps.push_back(shard_map::spread(owner_bits::independent, hash_kind::murmur3, 2).regrouped(3));
  maps.push_back(shard_map::spread(owner_bits::low_bits, hash_kind::murmur3, 4));
  for (const shard_map& m : maps)
    for (const std::size_t n : {std::size_t{1}, std::size_t{2049}, std::size_t{300007}}) {
      INFO(m.devices << " devices, " << n << " keys, rule " << static_cast<int>(m.rule));
      check_partition<key_type>(m, n, ++seed);
      check_partition<wide_key>(m, n, ++seed);
    }
}
