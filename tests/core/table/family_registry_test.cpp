// The family registry: every family registered once under a name that parses back, tables made
// through it hold what a reference map says and pass their own invariant checker, on the CPU
// model and ([gpu]) on the GPU, and each family's scenario lines are its own.
#include <map>
#include <set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {

constexpr family k_all[] = {family::linear, family::slab, family::hive};

table_config small_config(family f, backend b) {
  table_config cfg;
  cfg.family = f;
  cfg.backend = b;
  cfg.capacity = 1u << 14;
  return cfg;
}

// Inserts 6,000 keys, erases every third, overwrites every fifth, in mixed batches; the table
// must hold exactly what a map says and pass its family's checker.
void check_family_through_registry(family f, backend b) {
  const family_descriptor& d = describe(f);
  INFO(d.name);
  auto t = make_table(small_config(f, b));
  const auto keys = test::random_keys(6000, 17 + static_cast<int>(f));
  const auto values = test::random_values(6000, 29);
  std::map<key_type, value_type> want;
  test::insert(*t, keys, values);
  for (std::size_t i = 0; i < keys.size(); ++i) want[keys[i]] = values[i];
  std::vector<op_kind> kinds;
  std::vector<key_type> ks;
  std::vector<value_type> vs;
  for (std::size_t i = 0; i < keys.size(); i += 3) {
    kinds.push_back(op_kind::erase);
    ks.push_back(keys[i]);
    vs.push_back(0);
    want.erase(keys[i]);
  }
  test::apply(*t, kinds, ks, vs);
  kinds.clear(), ks.clear(), vs.clear();
  for (std::size_t i = 1; i < keys.size(); i += 5) {
    if (!want.count(keys[i])) continue;
    kinds.push_back(op_kind::insert);
    ks.push_back(keys[i]);
    vs.push_back(values[i] ^ 0x5555);
    want[keys[i]] = values[i] ^ 0x5555;
  }
  test::apply(*t, kinds, ks, vs);
  const auto got = test::contents(*t);
  CHECK(got.size() == want.size());
  CHECK(std::map<key_type, value_type>(got.begin(), got.end()) == want);
  REQUIRE(d.check_invariants);
  CHECK(d.check_invariants(*t, {}) == "");
}

// Reserved keys and values in bulk calls and in a mixed batch: every family counts each rejected
// operation once, under its kind.
void check_rejected_by_kind(family f, backend b) {
  INFO(describe(f).name);
  auto t = make_table(small_config(f, b));
  test::insert(*t, {k_empty, 5, k_tombstone, 6}, {1, k_empty, 3, 4});  // 3 inserts rejected
  test::find(*t, {k_empty, 6, k_tombstone});                           // 2 finds
  test::erase(*t, {k_tombstone, 6});                                   // 1 erase
  test::apply(*t, {op_kind::insert, op_kind::find, op_kind::erase, op_kind::erase},
              {k_empty, k_empty, k_tombstone, 9}, {1, 0, 0, 0});  // one more of each
  const table_stats st = t->stats({});
  CHECK(st.rejected[int(op_kind::insert)] == 4);
  CHECK(st.rejected[int(op_kind::find)] == 3);
  CHECK(st.rejected[int(op_kind::erase)] == 2);
  CHECK(st.rejected_total() == 9);
  CHECK(st.live == 0);
}

}  // namespace

TEST_CASE("every family counts rejected operations once each, by kind", "[table][registry]") {
  for (family f : k_all) check_rejected_by_kind(f, backend::cpu);
}

TEST_CASE("[gpu] every GPU table counts rejected operations once each, by kind",
          "[table][registry][gpu]") {
  test::require_gpu();
  for (family f : k_all) check_rejected_by_kind(f, backend::gpu);
}

TEST_CASE("every family is registered once, under a name that parses back", "[table][registry]") {
  std::set<std::string_view> names;
  for (family f : k_all) {
    const family_descriptor& d = describe(f);
    CHECK(d.id == f);
    CHECK(names.insert(d.name).second);
    CHECK(parse_family(d.name) == f);
    CHECK(to_string(f) == d.name);
    CHECK(d.make != nullptr);
    CHECK(d.max_fill_load >= 1.0);
    CHECK_FALSE(d.full_note.empty());
  }
  CHECK(families().size() == std::size(k_all));
  CHECK(family_names() == "linear, slab, hive");
  CHECK_FALSE(parse_family("robin-hood"));
}

TEST_CASE(
    "a table made through its family's registration holds what a map says and keeps its invariants",
    "[table][registry]") {
  for (family f : k_all) check_family_through_registry(f, backend::cpu);
}

TEST_CASE(
    "[gpu] a GPU table made through its family's registration holds what a map says and keeps its "
    "invariants",
    "[table][registry][gpu]") {
  test::require_gpu();
  for (family f : k_all) check_family_through_registry(f, backend::gpu);
}

TEST_CASE(
    "[gpu] at 2^24 slots every family keeps its invariants after every batch of a fill with churn",
    "[table][registry][gpu][large]") {
  test::require_gpu();
  for (family f : k_all) {
    INFO(describe(f).name);
    table_config cfg = small_config(f, backend::gpu);
    cfg.capacity = 1u << 24;
    auto t = make_table(cfg);
    const std::size_t batch = 1u << 21;
    const auto keys = test::random_keys(7 * batch, 61);
    const auto values = test::random_values(keys.size(), 62);
    std::uint64_t live = 0;
    for (int b = 0; b < 7;
         ++b) {  // to load 0.875; each batch also erases an eighth of the one before
      std::vector<op_kind> kinds(batch, op_kind::insert);
      std::vector<key_type> ks(keys.begin() + b * batch, keys.begin() + (b + 1) * batch);
      std::vector<value_type> vs(values.begin() + b * batch, values.begin() + (b + 1) * batch);
      if (b > 0)
        for (std::size_t i = 0; i < batch / 8; ++i) {
          kinds.push_back(op_kind::erase);
          ks.push_back(keys[(b - 1) * batch + 8 * i]);
          vs.push_back(0);
        }
      const auto out = test::apply(*t, kinds, ks, vs);
      for (op_status st : out.status)
        live += st == op_status::inserted, live -= st == op_status::erased;
      CHECK(t->stats({}).live == live);
      CHECK(describe(f).check_invariants(*t, {}) == "");
    }
    CHECK(live > 6 * batch);
  }
}

TEST_CASE("each family takes only its own scenario lines and says what is wrong with them",
          "[table][registry]") {
  table_config cfg;
  const auto line = [](std::initializer_list<const char*> w) {
    return std::vector<std::string>(w.begin(), w.end());
  };
  std::size_t takers = 0;
  for (const family_descriptor* d : families()) {
    REQUIRE(d->parse_line);
    CHECK_FALSE(d->parse_line(line({"capacity", "2^20"}), cfg));  // a common keyword is nobody's
    takers += d->parse_line(line({"delete", "tombstone"}), cfg);
  }
  CHECK(takers == 1);
  CHECK(cfg.linear.deletes == linear_delete_mode::tombstone);
  const family_descriptor& hive = describe(family::hive);
  CHECK(hive.parse_line(line({"hive", "slots=32", "depth=4", "instrument=off"}), cfg));
  CHECK(cfg.hive.bucket_slots == 32);
  CHECK(cfg.hive.eviction_depth == 4);
  CHECK_FALSE(cfg.hive.instrument);
  CHECK_THROWS_WITH(hive.parse_line(line({"hive", "slots=12"}), cfg),
                    ContainsSubstring("(8, 16, 32)"));
  CHECK_THROWS_WITH(hive.parse_line(line({"hive", "color=red"}), cfg),
                    ContainsSubstring("unknown hive option 'color'"));
  const family_descriptor& slab = describe(family::slab);
  CHECK(slab.parse_line(line({"slab", "beta=0.5", "keys=15000"}), cfg));
  CHECK(cfg.slab.buckets == 2000);
  CHECK_THROWS_WITH(slab.parse_line(line({"slab", "beta=0.5"}), cfg),
                    ContainsSubstring("beta and keys go together"));
  CHECK_THROWS_WITH(describe(family::linear).parse_line(line({"group", "3"}), cfg),
                    ContainsSubstring("(auto, 1, 4, 8)"));
}

TEST_CASE("only the families that offer one compact between batches", "[table][registry]") {
  for (const family_descriptor* d : families()) {
    INFO(d->name);
    CHECK((d->flush != nullptr) == (d->id == family::slab));
    CHECK((d->flush != nullptr) == !d->flush_note.empty());
    CHECK((d->copy_batch_counters != nullptr) == (d->batch_counters > 0));
  }
}

TEST_CASE(
    "every family option reads back what it was set to, refuses what it does not take, and makes a "
    "table or says why not",
    "[table][registry]") {
  for (const family_descriptor* d : families()) {
    REQUIRE_FALSE(d->options.empty());
    std::set<std::string_view> names;
    for (const family_option& o : d->options) {
      INFO(d->name << " option " << o.name);
      CHECK(names.insert(o.name).second);  // names are unique within a family
      REQUIRE(o.get);
      REQUIRE(o.set);
      table_config cfg;
      cfg.family = d->id;
      cfg.capacity = 1u << 10;
      CHECK_NOTHROW(apply_option(o, cfg, o.get(cfg)));  // the default is a value it takes
      for (std::string_view c : o.choices) {
        apply_option(o, cfg, std::string(c));
        CHECK(o.get(cfg) == c);
        bool made =
            false;  // a table, or a refusal that says why (a hive tile wider than its bucket)
        std::string why;
        try {
          made = make_table(cfg)->config().family == d->id;
        } catch (const user_error& e) {
          why = e.what();
        }
        CHECK((made || why.find(" than ") != std::string::npos));
      }
      if (o.choices.empty()) {
        CHECK_THROWS_AS(apply_option(o, cfg, "many"), user_error);
        CHECK_THROWS_AS(apply_option(o, cfg, std::to_string(o.hi * 2 + 1)), user_error);
        apply_option(o, cfg, o.whole ? std::to_string(static_cast<long long>(o.hi)) : "0.05");
        CHECK(std::stod(o.get(cfg)) == (o.whole ? o.hi : 0.05));
      } else if (!o.open) {
        CHECK_THROWS_WITH(apply_option(o, cfg, "nonsense"),
                          ContainsSubstring("unknown " + std::string(o.label)));
      }
    }
  }
}

TEST_CASE("a family holds the key widths it lists; set_key_width refuses others, set_family adapts",
          "[table][registry]") {
  for (const family_descriptor* d : families()) {
    REQUIRE(!d->widths.empty());
    table_config cfg;
    cfg.family = d->id;
    cfg.capacity = 1u << 10;
    for (const key_width w : {key_width::bits32, key_width::bits64}) {
      INFO(d->name << " " << to_string(w));
      if (holds_width(*d, w)) {
        set_key_width(cfg, w);
        CHECK(cfg.width == w);
        CHECK(make_table(cfg)->width() == w);
      } else {
        const key_width before = cfg.width;
        CHECK_THROWS_WITH(set_key_width(cfg, w), ContainsSubstring("keys only"));
        CHECK(cfg.width == before);  // refused: the config unchanged
        table_config made = cfg;
        made.width = w;
        CHECK_THROWS_AS(make_table(made), user_error);
      }
    }
    // A 64-bit linear table's settings as this family: a width it does not hold goes narrowest.
    table_config wide;
    wide.capacity = 1u << 10;
    set_key_width(wide, key_width::bits64);
    set_family(wide, d->id);
    CHECK(wide.family == d->id);
    CHECK(holds_width(*d, wide.width));
    CHECK(make_table(wide) != nullptr);
  }
  CHECK(holds_width(describe(family::linear), key_width::bits64));
  CHECK(!holds_width(describe(family::slab), key_width::bits64));
}
