// [gpu] Hive lookups beside inserts on other streams. A lookup batch runs quiet (without the
// lock-word snapshots that catch a key in transit) only when no write can overlap it: these
// tests put evicting inserts on one stream and lookups on another, where the lookups must take
// the guarded path, and check that no key stored before is ever missed.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>

#include "tests/core/hive/hive_test_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

TEST_CASE("hive: lookups beside evicting inserts on another stream find every key stored before",
          "[gpu][hive]") {
  test::require_gpu();
  const std::uint64_t capacity = std::uint64_t{1} << 20;
  table_config cfg = test::hive_config(backend::gpu, capacity, 16, 4);
  cfg.hive.auto_resize = false;
  cfg.hive.instrument = true;  // counts the moves
  auto t = make_table(cfg);
  const std::size_t before = capacity * 80 / 100,
                    during = capacity * 16 / 100;  // to load 0.96: evictions
  const auto keys = test::random_keys(before + during, 77);
  const auto values = test::random_values(before + during, 78);
  const auto old_keys = test::to_space(memory_space::device,
                                       std::vector<key_type>(keys.begin(), keys.begin() + before));
  const auto old_values = test::to_space(
      memory_space::device, std::vector<value_type>(values.begin(), values.begin() + before));
  const auto new_keys = test::to_space(memory_space::device,
                                       std::vector<key_type>(keys.begin() + before, keys.end()));
  const auto new_values = test::to_space(
      memory_space::device, std::vector<value_type>(values.begin() + before, values.end()));
  owned_stream writer(true), reader(true);
  t->insert(old_keys.cspan(), old_values.cspan(), {}, writer.view());
  synchronize(writer.view());

  buffer<op_status> insert_status(memory_space::device,
                                  during);  // statuses: the per-key path, which evicts
  buffer<value_type> found(memory_space::device, before);
  buffer<op_status> find_status(memory_space::device, before);
  // The inserts go in slices so that lookups queued behind each slice meet the next one running.
  const std::size_t slices = 8, slice = during / slices;
  std::size_t missed = 0, wrong = 0;
  for (std::size_t s = 0; s < slices; ++s) {
    const std::size_t at = s * slice, n = s + 1 == slices ? during - at : slice;
    t->insert(new_keys.cspan().subspan(at, n), new_values.cspan().subspan(at, n),
              insert_status.span().subspan(at, n), writer.view());
    t->find(old_keys.cspan(), found.span(), find_status.span(), reader.view());
    const auto st = find_status.download(before, reader.view());
    const auto got = found.download(before, reader.view());
    for (std::size_t i = 0; i < before; ++i) {
      missed += st[i] != op_status::found;
      wrong += st[i] == op_status::found && got[i] != values[i];
    }
  }
  synchronize(writer.view());
  CHECK(missed == 0);
  CHECK(wrong == 0);
  const auto ist = insert_status.download(during, writer.view());
  CHECK(std::count(ist.begin(), ist.end(), op_status::inserted) == static_cast<long>(during));
  CHECK(t->stats(writer.view()).hive.moves > 0);  // the inserts did move keys

  // With the writer idle every key is found, now by quiet lookups.
  const auto all = test::to_space(memory_space::device, keys);
  buffer<value_type> all_found(memory_space::device, keys.size());
  buffer<op_status> all_status(memory_space::device, keys.size());
  t->find(all.cspan(), all_found.span(), all_status.span(), reader.view());
  const auto st = all_status.download(keys.size(), reader.view());
  CHECK(std::count(st.begin(), st.end(), op_status::found) == static_cast<long>(keys.size()));
  CHECK(all_found.download(keys.size(), reader.view()) == values);
}
