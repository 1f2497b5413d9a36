// Refused operations (a reserved key or value) are counted by kind by every table's batch calls,
// the CPU models' as the GPU tables', while a model's single-operation rule (insert_one and its
// kin) only says what it would do and counts nothing.
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/table/family_registry.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

namespace {

// Refused: three inserts, two finds, one erase, then an apply of one of each kind (key 7 is
// refused only where it brings the reserved value). Totals: 4 inserts, 3 finds, 2 erases.
void check_rejected_counts(family f, backend b) {
  INFO(describe(f).name << " on " << (b == backend::gpu ? "GPU" : "CPU"));
  table_config cfg;
  cfg.family = f;
  cfg.backend = b;
  cfg.capacity = 1u << 12;
  auto t = make_table(cfg);
  const std::vector<key_type> keys{k_empty, k_tombstone, 7};
  CHECK(test::insert(*t, keys, {1, 1, k_empty}) ==
        std::vector{op_status::rejected_key, op_status::rejected_key, op_status::rejected_value});
  CHECK(test::find(*t, keys).status ==
        std::vector{op_status::rejected_key, op_status::rejected_key, op_status::missing});
  CHECK(test::erase(*t, {k_tombstone, 7}) ==
        std::vector{op_status::rejected_key, op_status::missing});
  CHECK(test::apply(*t, {op_kind::find, op_kind::erase, op_kind::insert}, {k_empty, k_empty, 9},
                    {1, 1, k_empty})
            .status ==
        std::vector{op_status::rejected_key, op_status::rejected_key, op_status::rejected_value});
  const table_stats s = t->stats({});
  CHECK(s.rejected[int(op_kind::insert)] == 4);
  CHECK(s.rejected[int(op_kind::find)] == 3);
  CHECK(s.rejected[int(op_kind::erase)] == 2);
  CHECK(s.live == 0);
  t->clear({});
  CHECK(t->stats({}).rejected_total() == 0);
}

}  // namespace

TEST_CASE("CPU models count refused operations by kind, in their batch calls", "[table][model]") {
  for (family f : {family::linear, family::slab, family::hive})
    check_rejected_counts(f, backend::cpu);
}

TEST_CASE("GPU tables count refused operations as the CPU models do", "[table][gpu]") {
  test::require_gpu();
  for (family f : {family::linear, family::slab, family::hive})
    check_rejected_counts(f, backend::gpu);
}
