// The soak (core/soak): on the CPU models every table passes with every rebuild and a restore from
// a table file on the way; a table that answers one lookup in a thousand wrongly fails it, naming
// the key; [gpu] the same soak on the GPU tables passes.
#include <catch2/catch_test_macros.hpp>

#include "core/common/error.hpp"
#include "core/soak/soak.hpp"
#include "core/table/table_state.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

// A real table whose mixed batches lose every 1000th found key: it answers "missing".
class forgetful_table final : public table {
 public:
  explicit forgetful_table(std::unique_ptr<table> inner) : inner_(std::move(inner)) {}
  table_config config() const override { return inner_->config(); }
  void insert(std::span<const key_type> k, std::span<const value_type> v, std::span<op_status> st,
              stream_view s) override {
    inner_->insert(k, v, st, s);
  }
  void find(std::span<const key_type> k, std::span<value_type> v, std::span<op_status> st,
            stream_view s) override {
    inner_->find(k, v, st, s);
  }
  void erase(std::span<const key_type> k, std::span<op_status> st, stream_view s) override {
    inner_->erase(k, st, s);
  }
  void apply(const op_batch& ops, std::span<value_type> r, std::span<op_status> st,
             stream_view s) override {
    inner_->apply(ops, r, st, s);
    for (auto& x : st)
      if (x == op_status::found && ++found_ % 1000 == 0) x = op_status::missing;
  }
  void clear(stream_view s) override { inner_->clear(s); }
  table_stats stats(stream_view s) override { return inner_->stats(s); }
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override {
    inner_->inspect(req, out, s);
  }
  std::uint64_t retrieve_all(std::span<key_type> k, std::span<value_type> v,
                             stream_view s) override {
    return inner_->retrieve_all(k, v, s);
  }
  void rehash(std::uint64_t capacity, stream_view s) override { inner_->rehash(capacity, s); }
  table_state save_state(stream_view s) override { return inner_->save_state(s); }
  void restore_state(const table_state& st, stream_view s) override {
    inner_->restore_state(st, s);
  }

 private:
  std::unique_ptr<table> inner_;
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
