// bench locality: how the order of a bulk insert's keys changes its speed. The same n = capacity/2
// keys are inserted in random order, grouped by 16 MiB table region (random within), and sorted by
// home slot; the cost of producing each order (a radix sort on the device) is timed too. It tells
// whether reordering keys before a large insert can beat the random-CAS ceiling.
#include <cub/device/device_radix_sort.cuh>

#include "core/bench/bench_keys.hpp"
#include "core/bench/roofline.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/timing.hpp"
#include "core/common/bit_math.hpp"
#include "core/common/cuda_check.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_layout.hpp"
#include "core/table/table.hpp"

namespace hs::bench::detail {

namespace {

__global__ void home_kernel(const key_type* keys, std::uint64_t n, std::uint32_t mask,
                            std::uint32_t* homes, std::uint32_t* idx) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  homes[i] = linear::home_slot<murmur3_hash>(keys[i], mask);
  idx[i] = static_cast<std::uint32_t>(i);
}

__global__ void gather_kernel(const std::uint32_t* perm, std::uint64_t n, const key_type* keys,
                              const value_type* values, key_type* out_keys,
                              value_type* out_values) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  out_keys[i] = keys[perm[i]];
  out_values[i] = values[perm[i]];
}

}  // namespace

report locality_suite(const bench_options& opt) {
  report r = new_report("locality", opt);
  owned_stream stream(true);
  const stream_view s = stream.view();
  auto cs = static_cast<cudaStream_t>(s.handle);
  const roofline rf = measure_for(r, opt, s);
  table_config cfg;
  cfg.backend = backend::gpu;
  cfg.capacity = opt.capacity ? opt.capacity : default_capacity(backend::gpu);
  cfg.linear.tuning = opt.linear;
  cfg.linear.tuning.partition =
      auto_on_off::off;  // the order given is the order inserted: no reordering inside
  auto t = make_table(cfg);
  const std::uint64_t n = cfg.capacity / 2;
  const std::uint32_t mask = static_cast<std::uint32_t>(cfg.capacity - 1);
  const key_set ks = unique_keys(memory_space::device, n, 42);

  buffer<std::uint32_t> homes(memory_space::device, n), homes_out(memory_space::device, n);
  buffer<std::uint32_t> idx(memory_space::device, n), perm(memory_space::device, n);
  buffer<key_type> keys2(memory_space::device, n);
  buffer<value_type> values2(memory_space::device, n);
  std::size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, homes.data(), homes_out.data(), idx.data(),
                                  perm.data(), static_cast<int>(n), 0, 32, cs);
  buffer<unsigned char> temp(memory_space::device, temp_bytes);
  const int region_bit = 21, top_bit = floor_log2_64(cfg.capacity);

  result_table tab;
  tab.name = "order";
  tab.title = "Inserting " + format_count(n) + " keys into " + format_count(cfg.capacity) +
              " slots (to load 0.5) in three orders";
  tab.columns = {"key order", "reorder ms", "insert ms", "insert G/s", "%CAS", "with reorder G/s"};
  struct order {
    const char* name;
    int begin_bit, end_bit;  // sort bits of the home slot; empty range: as generated
  };
  for (const order& o :
       {order{"random (as generated)", 0, 0}, order{"by 16 MiB region", region_bit, top_bit},
        order{"by home slot", 0, top_bit}}) {
    const key_type* k = ks.keys.data();
    const value_type* v = ks.values.data();
    double prep_ms = 0;
    if (o.end_bit > o.begin_bit) {
      auto reorder = [&] {
        const unsigned grid = static_cast<unsigned>((n + 255) / 256);
        home_kernel<<<grid, 256, 0, cs>>>(ks.keys.data(), n, mask, homes.data(), idx.data());
        HS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            temp.data(), temp_bytes, homes.data(), homes_out.data(), idx.data(), perm.data(),
            static_cast<int>(n), o.begin_bit, o.end_bit, cs));
        gather_kernel<<<grid, 256, 0, cs>>>(perm.data(), n, ks.keys.data(), ks.values.data(),
                                            keys2.data(), values2.data());
        HS_CUDA_CHECK_LAUNCH();
      };
      prep_ms = measure(s, true, opt.warmup, opt.reps, nullptr, reorder).median_ms;
      k = keys2.data();
      v = values2.data();
    }
    const timing ins = measure(
        s, true, opt.warmup, opt.reps, [&] { t->clear(s); },
        [&] { t->insert({k, n}, {v, n}, {}, s); });
    if (t->stats(s).live != n) throw gpu_error("bench locality: the table lost keys");
    const double rate = n / (ins.median_ms * 1e-3);
    tab.add({o.name, o.end_bit > o.begin_bit ? cell(prep_ms, "%.3f") : cell("-"),
             cell(ins.median_ms, "%.3f"), cell(rate / 1e9, "%.2f"),
             cell(100.0 * rate / rf.random_cas_per_s, "%.0f%%"),
             cell(n / ((ins.median_ms + prep_ms) * 1e-3) / 1e9, "%.2f")});
  }
  r.tables.push_back(std::move(tab));
  r.notes.push_back(
      "reorder: home slots, a device radix sort on their bits, and a gather of keys and values");
  return r;
}

}  // namespace hs::bench::detail
