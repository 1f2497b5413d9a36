// The app side of the registry: every registered family has views, windows and figures of its
// own, its figures are capture names for its scenarios only, and a session records what its
// views need through its recorder.
#include <algorithm>
#include <set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/families/family_hooks.hpp"
#include "app/families/hive_steps.hpp"
#include "app/scenario/scenario.hpp"
#include "app/session/session.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/family_views/family_ui.hpp"
#include "core/common/error.hpp"
#include "visualizers/views/slab_view.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("every registered family has views, and windows and figures of its own",
          "[app][registry]") {
  for (const family_descriptor* d : families()) {
    INFO(d->name);
    // Unique within the family; a name two families share is one kind of view (the Code view).
    std::set<std::string_view> windows, figures;
    const family_ui& u = ui_of(d->id);
    CHECK(u.id == d->id);
    REQUIRE(u.make_views);
    CHECK(u.make_views() != nullptr);
    CHECK_FALSE(u.window_titles().empty());
    for (const char* w : u.window_titles()) CHECK(windows.insert(w).second);
    for (const view_entry& v : u.views) {
      CHECK((v.title || !v.capture.empty()));  // a window, a figure, or both
      REQUIRE(v.draw);
      if (v.capture.empty()) continue;
      CHECK(v.csv);  // every figure writes its numbers
      CHECK(figures.insert(v.capture).second);
      CHECK_FALSE(parse_view_kind(v.capture));  // no family figure shadows a common view
      const auto owners = families_of_figure(v.capture);
      CHECK(std::find(owners.begin(), owners.end(), d->id) != owners.end());
      CHECK(u.figure(v.capture) == &v);
    }
  }
}

TEST_CASE("a family's hooks name exactly the figures its drawing has, in the same order",
          "[app][registry]") {
  for (const family_descriptor* d : families()) {
    INFO(d->name);
    const family_hooks& h = hooks_of(d->id);
    CHECK(h.id == d->id);
    std::vector<std::string_view> drawn;
    for (const view_entry& v : ui_of(d->id).views)
      if (!v.capture.empty()) drawn.push_back(v.capture);
    CHECK(std::vector<std::string_view>(h.figures.begin(), h.figures.end()) == drawn);
    for (const question_kind q : h.questions) CHECK(h.answer);        // a question it cannot answer
    if (h.answers(question_kind::bucket)) CHECK(h.slots_per_bucket);  // a click names a bucket
  }
}

TEST_CASE("a view's drawn object is read back through the view table, as its own type only",
          "[app][registry]") {
  for (const family_descriptor* d : families()) {
    INFO(d->name);
    const family_ui& u = ui_of(d->id);
    const auto views = u.make_views();
    CHECK(u.drawn<code_view>(views.get(), "code") != nullptr);  // every family has a Code view
    CHECK(u.drawn<code_view>(views.get(), "Code") == u.drawn<code_view>(views.get(), "code"));
    CHECK(u.drawn<vis::slab_view>(views.get(), "code") == nullptr);  // another type: nothing
    CHECK(u.drawn<code_view>(views.get(), "no such view") == nullptr);
    CHECK(u.drawn<code_view>(nullptr, "code") == nullptr);
    for (const view_entry& v : u.views)
      if (v.drawn) CHECK(v.drawn(*views).object != nullptr);
  }
  const auto slab = ui_of(family::slab).make_views();
  CHECK(ui_of(family::slab).drawn<vis::slab_view>(slab.get(), "chains") != nullptr);
}

TEST_CASE("a family's figures are capture names for its own scenarios only",
          "[app][registry][scenario]") {
  for (const family_descriptor* d : families()) {
    for (std::string_view f : hooks_of(d->id).figures) {
      const std::string fig(f);
      const auto sc = parse_scenario(
          "table " + std::string(d->name) + "\ncapture " + fig + " heatmap\n", "f.scn");
      CHECK(sc.steps.at(0).views == std::vector<std::string>{fig, "heatmap"});
      for (const family_descriptor* other : families()) {
        if (other == d || hooks_of(other->id).has_figure(fig))
          continue;  // a view both families have
        CHECK_THROWS_WITH(
            parse_scenario("table " + std::string(other->name) + "\ncapture " + fig + "\n",
                           "f.scn"),
            ContainsSubstring("f.scn:2: the " + fig + " view belongs to the ") &&
                ContainsSubstring(std::string(d->name)));
      }
    }
  }
  CHECK_THROWS_WITH(parse_scenario("capture chainz\n", "f.scn"),
                    ContainsSubstring("unknown view 'chainz'"));
}

TEST_CASE("a session records each batch for its family's views: the hive's inserts by step",
          "[app][registry][session]") {
  session_config cfg;
  cfg.table.family = family::hive;
  cfg.table.capacity = 1u << 14;
  cfg.table.hive.instrument = true;
  cfg.workload.batch_size = 1000;
  const auto made = make_session(cfg);  // with the family's recorder, as the window makes it
  session& s = *made;
  REQUIRE(s.recorder() != nullptr);
  s.fill_to(0.5);
  s.wait_idle();
  const auto points = hive_steps(s);
  REQUIRE(points.size() == s.status().batches);
  std::uint64_t inserts = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    inserts += points[i].steps[0] + points[i].steps[1] + points[i].steps[2] + points[i].steps[3];
    if (i) CHECK(points[i].load_before == points[i - 1].load_after);
    CHECK(points[i].load_after > points[i].load_before);
  }
  CHECK(inserts == s.status().live);
  s.reset();
  CHECK(hive_steps(s).empty());

  cfg.table.family = family::linear;
  session linear(cfg);
  CHECK(linear.recorder() == nullptr);
  CHECK(hive_steps(linear).empty());
}
