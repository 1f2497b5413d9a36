// The soak (core/soak): on the CPU models every table passes with every rebuild and a restore from
// a table file on the way; a table that answers one lookup in a thousand wrongly fails it, naming
// the key; [gpu] the same soak on the GPU tables passes.
#include <catch2/catch_test_macros.hpp>

#include "core/common/error.hpp"
#include "core/soak/soak.hpp"
#include "core/table/table_state.hpp"
#include "tests/support/forwarding_table.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

// A real table whose mixed batches lose every 1000th found key: it answers "missing".
class forgetful_table final : public test::forwarding_table {
 public:
  using forwarding_table::forwarding_table;
  void apply(const op_batch& ops, std::span<value_type> r, std::span<op_status> st,
             stream_view s) override {
    forwarding_table::apply(ops, r, st, s);
    for (auto& x : st)
      if (x == op_status::found && ++found_ % 1000 == 0) x = op_status::missing;
  }

 private:
  std::uint64_t found_ = 0;
};

soak::soak_options small_soak(backend b) {
  soak::soak_options o;
  o.b = b;
  o.capacity = 1u << 12;  // a universe of 2,048 keys a table
  o.batch = 1u << 10;
  o.operations = 6 * 60'000;  // five checkpoints a table: every kind of rebuild
  o.seed = 7;
  return o;
}

}  // namespace

TEST_CASE("soak: every table on the CPU model passes, rebuilt every way and restored from a file",
          "[soak]") {
  const soak::soak_result r = soak::run_soak(small_soak(backend::cpu));
  INFO(r.verdict());
  REQUIRE(r.tables.size() == 6);
  for (const auto& t : r.tables) {
    CAPTURE(t.name);
    CHECK(t.mismatches == 0);
    CHECK(t.operations >= 60'000);
    CHECK(t.checkpoints >= 5);
    CHECK(t.rebuilds >= 3);  // in place, grown, shrunk (the policy's rebuild when dead slots)
    CHECK(t.restores >= 1);
    CHECK(t.final_live > 0);
  }
  CHECK(r.pass());
  CHECK(r.verdict().rfind("soak PASS: ", 0) == 0);
}

TEST_CASE("soak: a table that forgets one found key in a thousand fails, naming the key",
          "[soak]") {
  soak::soak_options o = small_soak(backend::cpu);
  o.only = {"linear", "slab"};
  o.operations = 2 * 20'000;
  o.make = [](const table_config& c) -> std::unique_ptr<table> {
    return std::make_unique<forgetful_table>(make_table(c));
  };
  const soak::soak_result r = soak::run_soak(o);
  INFO(r.verdict());
  CHECK_FALSE(r.pass());
  CHECK(r.verdict().rfind("soak FAIL: ", 0) == 0);
  for (const auto& t : r.tables) {
    CHECK(t.mismatches > 0);
    REQUIRE_FALSE(t.first.empty());
    CHECK(t.first.front().find("find of key 0x") != std::string::npos);
    CHECK(t.first.front().find("answered missing, not found") != std::string::npos);
  }
}

TEST_CASE("soak: an unknown table is refused with the tables there are", "[soak]") {
  soak::soak_options o = small_soak(backend::cpu);
  o.only = {"cuckoo"};
  try {
    soak::run_soak(o);
    FAIL("no error");
  } catch (const user_error& e) {
    CHECK(std::string(e.what()).find("no table 'cuckoo'") != std::string::npos);
    CHECK(std::string(e.what()).find("linear-64-tombstone") != std::string::npos);
  }
}

TEST_CASE("soak: every GPU table passes", "[gpu][soak]") {
  test::require_gpu();
  soak::soak_options o = small_soak(backend::gpu);
  o.capacity = 1u << 16;
  o.batch = 1u << 13;
  o.operations = 6 * 1'000'000;
  const soak::soak_result r = soak::run_soak(o);
  INFO(r.verdict());
  for (const auto& t : r.tables) {
    CAPTURE(t.name);
    for (const auto& m : t.first) UNSCOPED_INFO(m);
    CHECK(t.mismatches == 0);
    CHECK(t.restores >= 1);
  }
  CHECK(r.pass());
}
