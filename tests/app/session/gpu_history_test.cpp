// Back and Forward on GPU tables (history.hpp): the states are kept in device memory and restored
// at device speed; the CPU twins are in history_test.cpp.
#include <cstdio>
#include <set>

#include <catch2/catch_test_macros.hpp>

#include "app/session/session.hpp"
#include "tests/app/session/history_check.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

TEST_CASE("Back and Forward restore and replay every family's GPU table", "[session][gpu]") {
  test::require_gpu();
  for (family f : {family::linear, family::slab, family::hive})
    test::check_back_and_forward(f, backend::gpu);
}

TEST_CASE("Racing inserts on the GPU, stepped again after Back: every run fills the same slots",
          "[session][gpu]") {
  test::require_gpu();
  app::session_config c;
  c.table.backend = backend::gpu;
  c.table.capacity = 1u << 12;
  c.table.hash = hash_kind::identity;
  app::session s(c);
  std::vector<app::given_op> racing;  // 64 keys with home slot 5: two warps race for slots 5..68
  for (key_type i = 0; i < 64; ++i) racing.push_back(app::typed_op(op_kind::insert, 5 + 4096 * i));
  for (std::uint64_t run = 1; run <= 4; ++run) {
    if (run > 1) s.back();
    s.step(racing);
    s.wait_idle();
    const auto t = s.last_step();
    REQUIRE(t);
    CHECK(t->run == run);
    std::set<std::uint64_t> slots;
    for (const stepped_op& op : t->ops)
      if (op.slot_after) slots.insert(*op.slot_after);
    CHECK(slots.size() == 64);  // each key in a slot of its own, the run from slot 5 filled
    CHECK(*slots.begin() == 5);
    CHECK(*slots.rbegin() == 68);
    std::printf("note: racing inserts, run %llu: %llu of 64 landed otherwise than the run before\n",
                (unsigned long long)run, (unsigned long long)t->changed);
  }
}
