// The Code panel: the lines it shows are the source files' own (a region that no longer matches
// its file fails here), every decision the linear family points at is a tagged line with words
// for it, and in the window the marked line follows Step, the step view's arrows and its own;
// the warp lanes show a step's operations as the lanes of the warps that ran them.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/scenario/scenario.hpp"
#include "app/teach/code_regions.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/family_views/linear_code.hpp"
#include "app/ui/family_views/slab_code.hpp"
#include "app/ui/state/class_question.hpp"
#include "core/common/error.hpp"
#include "core/slab/slab_layout.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"
#include "visualizers/views/warp_lanes_view.hpp"

using namespace hs;
using namespace hs::app;

namespace {

std::vector<std::string> file_lines(std::string_view path) {
  std::ifstream in(std::string(HS_SOURCE_DIR) + "/" + std::string(path));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// A file line as the panel shows it: its teach tag taken out, a comment after the tag kept.
std::string without_tag(const std::string& line) {
  static const std::regex trailing(R"(\s+// \[teach:[a-z_]+\]\s*$)");
  static const std::regex before_comment(R"(// \[teach:[a-z_]+\] )");
  return std::regex_replace(std::regex_replace(line, trailing, ""), before_comment, "// ");
}

}  // namespace

TEST_CASE("every marked region shows its source file's own lines", "[code]") {
  REQUIRE_FALSE(code_regions().empty());
  for (const code_region& r : code_regions()) {
    INFO(r.name << " in " << r.file);
    const std::vector<std::string> lines = file_lines(r.file);
    REQUIRE_FALSE(lines.empty());
    REQUIRE(r.lines.size() == r.numbers.size());
    for (std::size_t i = 0; i < r.lines.size(); ++i) {
      const auto n = static_cast<std::size_t>(r.numbers[i]);
      REQUIRE(n >= 1);
      REQUIRE(n <= lines.size());
      CHECK(without_tag(lines[n - 1]) == std::string(r.lines[i]));
    }
    for (const code_tag& t : r.tags) CHECK(r.line_of(t.tag) == t.line);
  }
}

TEST_CASE("every decision the linear family points at is a tagged line, with words for it",
          "[code]") {
  // The slots from home slot 12 on: another key, a tombstone, the key (or, when absent, another
  // key), an empty slot. Replayed for every kind, probing and delete mode, key present or not:
  // every role a walk can take.
  const auto slots_with = [](bool present) {
    std::vector<slot_record> s(4);
    for (std::uint64_t i = 0; i < 4; ++i) s[i].slot = 12 + i;
    s[0].key = 12, s[0].state = slot_state::live;
    s[1].key = k_tombstone, s[1].state = slot_state::tombstone;
    s[2].key = present ? 76 : 140, s[2].state = slot_state::live;
    s[3].state = slot_state::empty;
    return s;
  };
  const auto status_of = [](op_kind kind, bool present) {
    if (kind == op_kind::insert) return present ? op_status::replaced : op_status::inserted;
    if (!present) return op_status::missing;
    return kind == op_kind::find ? op_status::found : op_status::erased;
  };
  std::size_t events = 0;
  std::set<linear::walk_role> roles;
  for (const auto probe : {probe_policy::linear, probe_policy::double_hash})
    for (const auto deletes : {linear_delete_mode::value, linear_delete_mode::tombstone})
      for (const auto kind : {op_kind::insert, op_kind::find, op_kind::erase})
        for (const bool present : {true, false}) {
          table_config cfg;
          cfg.linear.probe = probe;
          cfg.linear.deletes = deletes;
          stepped_op op;
          op.kind = kind;
          op.key = 76;
          op.probe_before = slots_with(present);
          op.status = status_of(kind, present);
          const linear::probe_walk walk =
              linear::replay_walk(op.probe_before, kind, op.key, op.status, deletes);
          for (const auto& cell : walk.cells) roles.insert(cell.role);
          const code_walkthrough w = linear_walkthrough(op, walk, cfg, 64);
          for (const std::string& name : w.regions) CHECK(find_code_region(name) != nullptr);
          for (const code_event& e : w.events) {
            INFO(e.region << " / " << e.tag);
            const code_region* r = find_code_region(e.region);
            REQUIRE(r);
            CHECK(r->line_of(e.tag).has_value());
            CHECK_FALSE(linear_english(e.region, e.tag).empty());
            // The region of every decision is one the panel shows.
            CHECK(std::find(w.regions.begin(), w.regions.end(), e.region) != w.regions.end());
            ++events;
          }
        }
  CHECK(roles.size() == 5);  // every role was told
  CHECK(events > 50);
}

TEST_CASE("the Code panel's marked line follows Step, the step view's arrows and its own",
          "[ui][code]") {
  auto ui = test::harness_or_skip(test::identity_table(1u << 6));
  app_frame& f = ui->frame();
  const code_region* insert = find_code_region("linear-insert");
  const code_region* windowed = find_code_region("linear-insert-windowed");
  REQUIRE(insert);
  REQUIRE(windowed);
  const auto line_of = [](const code_region* r, const char* tag) {
    return r->numbers[static_cast<std::size_t>(*r->line_of(tag))];
  };
  std::vector<std::string> tags;
  std::vector<int> lines, gutter;
  std::vector<std::string> marked_text;
  bool english = false;
  std::size_t events_second = 0, first_op_events = 0, second_op_events = 0;
  std::string second_op_region;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const auto* code = test::drawn<app::code_view>(f, "code");
    REQUIRE(code);
    // Two keys with one home slot: 12 lands there, 76 walks one slot on.
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("12, 76");
    for (int i = 0; i < 2; ++i) {
      const std::uint64_t before = f.sess().status().batches;
      ctx->ItemClick("Step");
      test::wait_until(ctx, [&] { return f.sess().status().batches > before; });
      f.sess().wait_idle();
    }
    ctx->WindowFocus("//Code");
    test::wait_until(ctx, [&] { return code->drawn().events == 5 && code->drawn().event == 0; });
    events_second = code->drawn().events;
    ctx->SetRef("//Code");
    for (int i = 0; i < 5; ++i) {
      ctx->Yield(2);
      tags.push_back(code->drawn().tag);
      lines.push_back(code->drawn().file_line);
      gutter.push_back(code->drawn().gutter_line);
      marked_text.push_back(code->drawn().marked_text);
      ctx->ItemClick("code-next");
    }
    ctx->ItemCheck("plain English");
    ctx->Yield(2);
    english = code->drawn().english;
    ctx->ItemUncheck("plain English");
    // A step of two operations: the step view's arrows choose which one the Code panel tells.
    const std::uint64_t before = f.sess().status().batches;
    f.sess().step(
        std::vector<given_op>{typed_op(op_kind::insert, 140), typed_op(op_kind::find, 12)});
    test::wait_until(ctx, [&] { return f.sess().status().batches > before; });
    f.sess().wait_idle();
    test::wait_until(ctx, [&] { return code->drawn().events == 6; });  // 140 walks past 12 and 76
    first_op_events = code->drawn().events;
    ctx->WindowFocus("//Probe walk");
    ctx->SetRef("//Probe walk");
    ctx->ItemClick("walk-next");
    ctx->WindowFocus("//Code");
    test::wait_until(ctx, [&] { return code->drawn().events == 3; });
    second_op_events = code->drawn().events;
    second_op_region = code->drawn().region;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(events_second == 5);  // home, read, slot 12 holds 12: on, the CAS, inserted
  CHECK(tags == std::vector<std::string>{"home", "read", "compare", "claim", "claimed"});
  CHECK(lines == std::vector<int>{line_of(insert, "home"), line_of(windowed, "read"),
                                  line_of(windowed, "compare"), line_of(windowed, "claim"),
                                  line_of(windowed, "claimed")});
  CHECK(gutter == lines);  // the marked line is numbered as in the file
  // and its text is the file's line there
  const std::vector<std::string> file = file_lines("core/linear/linear_ref.cuh");
  for (std::size_t i = 0; i < lines.size() && i < marked_text.size(); ++i)
    CHECK(without_tag(file[static_cast<std::size_t>(lines[i]) - 1]) == marked_text[i]);
  CHECK(english);
  CHECK(first_op_events == 6);
  CHECK(second_op_events == 3);  // the find of 12: home, read, found
  CHECK(second_op_region == "linear-locate");
}

TEST_CASE("the warp lanes show a step's operations 32 to a warp, waiting for the longest walk",
          "[ui][lanes]") {
  auto ui = test::harness_or_skip(test::identity_table(1u << 8));
  app_frame& f = ui->frame();
  // Keys 0..39 fill slots 0..39 (the identity hash); then a traced step of 40 finds: 0..19 hit at
  // their home slots, and 20 keys never inserted with homes 0..19 (256 + j) walk the run to slot
  // 40, the first empty one: the warp waits for the longest of them.
  std::vector<given_op> fill, finds;
  for (key_type k = 0; k < 40; ++k) fill.push_back(typed_op(op_kind::insert, k));
  for (key_type k = 0; k < 20; ++k) finds.push_back(typed_op(op_kind::find, k));
  for (key_type j = 0; j < 20; ++j) finds.push_back(typed_op(op_kind::find, 256 + j));
  vis::warp_lanes_view::drawn_state first{}, second{};
  std::size_t expected_rounds = 0, expected_probes = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.sess().step(fill);
    test::wait_until(ctx, [&] { return f.sess().status().batches == 1 && f.sess().at_rest(); });
    f.sess().step(finds);
    test::wait_until(ctx, [&] { return f.sess().status().batches == 2 && f.sess().at_rest(); });
    ctx->WindowFocus("//Warp lanes");
    const auto* lanes = test::drawn<vis::warp_lanes_view>(f, "lanes");
    test::wait_until(ctx, [&] { return lanes && lanes->drawn().warps == 2; });
    const auto* walk = test::drawn<vis::linear_walk_view>(f, "walk");
    for (std::size_t i = 0; i < 32; ++i) {
      expected_rounds = std::max(expected_rounds, walk->walk_at(i)->cells.size());
      expected_probes += walk->walk_at(i)->cells.size();
    }
    first = lanes->drawn();
    ctx->SetRef("//Warp lanes");
    ctx->ItemClick("lanes-next");
    ctx->Yield(2);
    second = lanes->drawn();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(first.warp == 0);
  CHECK(first.lanes == 32);
  CHECK(first.rounds == expected_rounds);
  CHECK(expected_rounds == 41);  // the miss from slot 0 reads slots 0 to 40
  CHECK(std::abs(first.busy - static_cast<double>(expected_probes) / (32.0 * expected_rounds)) <
        1e-12);
  CHECK(first.busy < 0.5);  // most lanes wait for the longest walk
  CHECK(second.warp == 1);
  CHECK(second.lanes == 8);
}

TEST_CASE("a scenario's questions wait for the class's answer, then reveal the table's and tally",
          "[ui][ask]") {
  const scenario sc = parse_scenario(
      "title Questions\ntable linear\ncapacity 2^6\nhash identity\nbatch 16\n"
      "step insert 12\ncapture walk\n"
      "ask where\nstep insert 76\ncapture walk\n"
      "ask probes\nstep find 140\ncapture walk\n",
      "questions.scn");
  auto ui = test::harness_or_skip(test::identity_table(1u << 6));
  app_frame& f = ui->frame();
  std::string asked_where, reveal_where, asked_probes, reveal_probes;
  std::uint64_t batches_while_asked = 0, batches_before = 0;
  int right_after_first = -1, asked_after_second = -1, right_after_second = -1;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.load_preset(sc);
    test::wait_until(ctx, [&] { return f.sess().status().script_held; });
    batches_before = f.sess().status().batches;
    ctx->KeyPress(ImGuiKey_N);  // the next stage: its question comes first
    test::wait_until(ctx, [&] { return f.state().question.has_value(); });
    asked_where = question_text(*f.state().question);
    ctx->Yield(5);
    batches_while_asked = f.sess().status().batches;  // the step waits for the answer
    // Keyboard only: 76 lands in slot 13 (12 holds 12).
    for (int i = 0; i < 13; ++i) ctx->KeyPress(ImGuiKey_RightArrow);
    ctx->KeyPress(ImGuiKey_Enter);
    test::wait_until(ctx, [&] { return !f.state().question->reveal.empty(); });
    reveal_where = f.state().question->reveal;
    right_after_first = f.state().sess->status().questions_right;
    test::wait_until(ctx, [&] { return f.sess().status().script_held; });
    ctx->KeyPress(ImGuiKey_N);
    test::wait_until(ctx, [&] { return f.state().question && !f.state().question->answered; });
    asked_probes = question_text(*f.state().question);
    // The answer typed: 2 slots (the find reads 12, 13 and the empty 14: 3).
    ctx->SetRef("//Question");
    ctx->ItemInputValue("slots read", 2);
    ctx->ItemClick("Answer");
    test::wait_until(ctx, [&] { return !f.state().question->reveal.empty(); });
    reveal_probes = f.state().question->reveal;
    asked_after_second = f.state().sess->status().questions_asked;
    right_after_second = f.state().sess->status().questions_right;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(asked_where == "Where will key 76 land? Pick its slot.");  // the lesson's decimal keys
  CHECK(batches_while_asked == batches_before);
  CHECK(reveal_where == "The table says slot 13; the class said 13: right.");
  CHECK(right_after_first == 1);
  CHECK(asked_probes == "How many slots will the find of key 140 read?");
  CHECK(reveal_probes == "The table says 3 slots; the class said 2: not this time.");
  CHECK(asked_after_second == 2);
  CHECK(right_after_second == 1);
}

TEST_CASE("an ask that cannot be answered is refused with file and line", "[scenario][ask]") {
  const auto fails = [](const std::string& text, const std::string& what) {
    CAPTURE(text);
    try {
      parse_scenario(text, "q.scn");
      FAIL("parsed");
    } catch (const user_error& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  fails("table hive\nask probes\nstep insert 5\ncapture buckets\n",
        "q.scn:2: ask probes: the hive family's views cannot answer it (linear can)");
  fails("table slab\nask bucket\nstep insert 5\ncapture chains\n",
        "q.scn:2: ask bucket: the slab family's views cannot answer it (hive can)");
  fails("ask where\nstep 4\ncapture walk\n", "q.scn:1: ask needs the step after it to name");
  fails("step insert 4\nask probes\ncapture walk\n", "q.scn:2: ask with no step after it");
  fails("ask colour\nstep insert 4\ncapture walk\n", "q.scn:1: ask takes where");
}

TEST_CASE("every decision the slab family points at is a tagged line, with words for it",
          "[code]") {
  // Bucket 3's list: a full base slab (keys 1..15), then a slab holding 99 in its first pair.
  const auto list_of = [](bool second_slab) {
    slab_chain c;
    c.bucket = 3;
    slab_record base;
    for (int p = 0; p < slab::k_slab_pairs; ++p) {
      base.words[2 * p] = static_cast<key_type>(p + 1);
      base.words[2 * p + 1] = 100u + static_cast<key_type>(p);
    }
    c.slabs.push_back(base);
    if (second_slab) {
      slab_record next;
      std::fill(std::begin(next.words), std::end(next.words), k_empty);
      next.words[0] = 99;
      next.words[1] = 7;
      c.slabs.push_back(next);
    }
    c.total = c.slabs.size();
    return c;
  };
  struct one {
    op_kind kind;
    key_type key;
    op_status status;
    bool second_slab;
    std::vector<std::string> tags;
  };
  const std::vector<one> cases = {
      {op_kind::find,
       99,
       op_status::found,
       true,
       {"bucket", "read", "next", "read", "match", "found"}},
      {op_kind::find, 500, op_status::missing, true, {"bucket", "read", "next", "read", "missing"}},
      {op_kind::insert,
       500,
       op_status::inserted,
       true,
       {"bucket", "read", "next", "read", "pair_free", "claim", "cas", "claimed"}},
      {op_kind::erase, 7, op_status::erased, true, {"bucket", "read", "erase", "cas", "erased"}},
      {op_kind::insert,
       500,
       op_status::inserted,
       false,
       {"bucket", "read", "next", "allocate", "link", "read", "pair_free", "claim", "cas",
        "claimed"}},
  };
  for (const one& c : cases) {
    CAPTURE(to_string(c.kind), c.key, c.second_slab);
    slab_chain list = list_of(c.second_slab);
    stepped_op op;
    op.kind = c.kind;
    op.key = c.key;
    op.value = 5;
    op.status = c.status;
    op.list_before = list;
    const slab::op_trace path =
        slab::replay_op(list, c.kind, c.key, op.value, c.status, slab_mode::unique);
    const code_walkthrough w = slab_walkthrough(op, path);
    std::vector<std::string> tags;
    for (const code_event& e : w.events) {
      tags.push_back(e.tag);
      const code_region* r = find_code_region(e.region);
      REQUIRE(r);
      CHECK(r->line_of(e.tag).has_value());
      CHECK_FALSE(slab_english(e.region, e.tag).empty());
    }
    CHECK(tags == c.tags);
  }
}
