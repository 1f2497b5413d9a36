// The hive in step mode, driven through the window: a question on which bucket a key goes to
// (answered by typing, revealed from the real table), and for the find of that key the warp
// lanes (32 lanes, one slot each: the ballot elects the lane holding the key) and the Code view
// (find_op's lines, ending at "found"); checked against where the table holds the key.
#include <string>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/scenario/scenario.hpp"
#include "app/teach/code_figure.hpp"
#include "app/teach/code_regions.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/family_views/hive_code.hpp"
#include "app/ui/family_views/hive_lanes.hpp"
#include "app/ui/state/class_question.hpp"
#include "core/hive/hive_family.hpp"
#include "core/hive/hive_trace.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

using namespace hs;
using namespace hs::app;

namespace {
// Where the table holds `k`: bucket and slot (the bucket is -1 when it is nowhere in a bucket).
std::pair<long long, int> where_is(session& s, key_type k) {
  s.wait_idle();
  const hive::hive_image img = hive::as_hive(s.tbl())->snapshot({});
  for (std::uint64_t b = 0; b < img.geo.buckets(); ++b)
    for (int i = 0; i < img.slots; ++i)
      if (img.bucket(b)[i] != hive::k_empty_word && hive::key_of(img.bucket(b)[i]) == k)
        return {static_cast<long long>(b), i};
  return {-1, -1};
}

// What the window showed along the lesson, for the checks after it.
struct lesson_seen {
  std::string asked, reveal;
  long long guessed = -1;
  std::pair<long long, int> at{-2, -2};
  vis::tile_lanes_view::drawn_state lanes;
  std::string code_csv, lanes_title, second_code_csv;
  vis::tile_lanes_view::drawn_state second_lanes;
  long long first12 = -1;
  bool away99 = false;
};

void answer_bucket_question(ImGuiTestContext* ctx, app_frame& f, lesson_seen& out) {
  test::wait_until(ctx, [&] { return f.sess().status().script_held; });
  ctx->KeyPress(ImGuiKey_N);  // the question comes before the step
  test::wait_until(ctx, [&] { return f.state().question.has_value(); });
  out.asked = question_text(*f.state().question);
  // The class guesses the key's first candidate bucket.
  const hive::hive_image img = hive::as_hive(f.sess().tbl())->snapshot({});
  out.guessed = static_cast<long long>(img.candidates_of(12).b[0]);
  ctx->SetRef("//Question");
  ctx->ItemInputValue("bucket", static_cast<int>(out.guessed));
  ctx->ItemClick("Answer");
  test::wait_until(ctx, [&] { return !f.state().question->reveal.empty(); });
  out.reveal = f.state().question->reveal;
  out.at = where_is(f.sess(), 12);
}

void step_to_finds(ImGuiTestContext* ctx, app_frame& f, lesson_seen& out) {
  test::wait_until(ctx, [&] { return f.sess().status().script_held; });
  const std::uint64_t steps = f.sess().last_step()->serial;
  const std::uint64_t reached = f.sess().status().stages_reached;
  ctx->KeyPress(ImGuiKey_N);  // find 12
  test::wait_until(ctx, [&] { return f.sess().last_step()->serial > steps; });
  // The stage's capture brings lanes and code forward a frame after it is reached: focus a
  // window only once they are in place, or the Code view comes forward over the lanes.
  test::wait_until(ctx, [&] { return f.sess().status().stages_reached > reached; });
  ctx->Yield(2);
  test::wait_until(ctx, [&] { return f.windows_settled(); });
  // Where the first pass decides: a key in its first candidate is found there, and a miss is
  // decided there when no key of that bucket went elsewhere (its away bit, stash hints).
  const hive::hive_image now = hive::as_hive(f.sess().tbl())->snapshot({});
  out.first12 = static_cast<long long>(now.candidates_of(12).b[0]);
  const auto first99 = now.candidates_of(99).b[0];
  out.away99 = (now.locks[first99] & (hive::k_away_bit | hive::k_hint_bits)) != 0;
}

void read_lanes_and_code(ImGuiTestContext* ctx, app_frame& f, lesson_seen& out) {
  ctx->WindowFocus("//Warp lanes");
  const auto* view = test::drawn<vis::tile_lanes_view>(f, "lanes");
  REQUIRE(view);
  test::wait_until(ctx, [&] {
    return view->drawn().title.rfind("find 12 ", 0) == 0 && view->drawn().rounds > 0;
  });
  out.lanes = view->drawn();
  out.lanes_title = view->title();
  ctx->WindowFocus("//Code");
  const auto* code = test::drawn<app::code_view>(f, "code");
  REQUIRE(code);
  test::wait_until(ctx, [&] { return code->drawn().events > 0 && code->drawn().region != ""; });
  out.code_csv = code->csv();
  // The arrows move both views to the step's second operation: the miss of 99.
  ctx->WindowFocus("//Warp lanes");
  ctx->SetRef("//Warp lanes");
  ctx->ItemClick("lanes/op-next");
  test::wait_until(ctx, [&] { return view->drawn().title.rfind("find 99 ", 0) == 0; });
  out.second_lanes = view->drawn();
  ctx->WindowFocus("//Code");
  test::wait_until(ctx, [&] { return code->csv().find("missing") != std::string::npos; });
  out.second_code_csv = code->csv();
}

// The find reads the bucket holding 12 last: one lane (the slot's) votes and is elected.
void check_find_of_12(const lesson_seen& seen) {
  const auto& at = seen.at;
  CHECK(seen.lanes.lanes == 32);
  REQUIRE(!seen.lanes.ballots.empty());
  CHECK(seen.lanes.ballots.back() == (1u << at.second));
  CHECK(seen.lanes.elected.back() == at.second);
  CHECK(seen.lanes.actors.back() == at.second);  // the elected lane's word goes to the tile
  const std::string decider = at.first == seen.first12 ? "hive-first-pass" : "hive-find-op";
  CHECK(seen.code_csv.find(decider + ",found") != std::string::npos);
  CHECK(seen.code_csv.find(decider + ",match") != std::string::npos);
}

// 99 is in neither candidate: no lane votes, nothing elected; the first pass's read alone
// decides where nothing of its first candidate went elsewhere, else find_op reads both.
void check_miss_of_99(const lesson_seen& seen) {
  const bool away99 = seen.away99;
  const std::size_t reads = away99 ? 3 : 1;
  CAPTURE(away99);
  CHECK(seen.second_lanes.rounds == reads);
  CHECK(seen.second_lanes.ballots == std::vector<std::uint32_t>(reads, 0));
  CHECK(seen.second_lanes.elected == std::vector<int>(reads, -1));
  CHECK(seen.second_code_csv.find(away99 ? "hive-find-op,missing" : "hive-first-pass,missing") !=
        std::string::npos);
  CHECK(seen.second_code_csv.find("hive-first-pass,found") == std::string::npos);
  CHECK(seen.second_code_csv.find("hive-find-op,found") == std::string::npos);
}
}  // namespace

TEST_CASE("hive step mode: a bucket question, the warp's lanes and the Code view",
          "[ui][ask][lanes]") {
  const scenario sc = parse_scenario(
      "title Hive lanes\ntable hive\ncapacity 2^10\nhive slots=32 tile=32\nseed 5\nbatch 32\n"
      "fill 0.5\ncapture buckets\n"
      "ask bucket\nstep insert 12\ncapture lanes\n"
      "step find 12 99\ncapture lanes code\n",
      "hive-lanes.scn");
  session_config cfg;
  cfg.table = sc.config.table;
  cfg.table.backend = backend::cpu;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  lesson_seen seen;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.load_preset(sc);
    answer_bucket_question(ctx, f, seen);
    step_to_finds(ctx, f, seen);
    read_lanes_and_code(ctx, f, seen);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(seen.asked ==
        "Which bucket will key 12 go to? Click a slot of it.");  // as the lesson wrote it
  REQUIRE(seen.at.first >= 0);
  const bool right = seen.at.first == seen.guessed;
  CHECK(seen.reveal == "The table says bucket " + std::to_string(seen.at.first) +
                           "; the class said " + std::to_string(seen.guessed) + ": " +
                           (right ? "right." : "not this time."));
  check_find_of_12(seen);
  check_miss_of_99(seen);
}

namespace {
// How the two candidates look before the replayed operation.
struct buckets_before {
  bool room = false;        ///< bucket 9 has a free slot
  bool stash_used = false;  ///< the stash holds keys
  bool away = false;        ///< a key of bucket 3 went elsewhere (its away bit)
  bool full = false;        ///< both candidates full
};

// Candidates 3 and 9 of 8 slots: bucket 3 holds keys 1..6 (2 free), bucket 9 is full unless
// `room`; key 4 is in bucket 3.
hive_key_before candidates_before(key_type k, const buckets_before& setup) {
  hive_key_before kb;
  kb.key = k;
  hive_bucket_before a{3, std::vector<std::uint64_t>(8, hive::k_empty_word), 0, 0};
  for (int i = 0; i < 6; ++i) a.words[i] = hive::pack(static_cast<key_type>(i + 1), 50);
  a.free_mask = 0xc0;
  a.lock = setup.away ? hive::k_away_bit : 0;
  hive_bucket_before b{9, std::vector<std::uint64_t>(8, hive::pack(100, 1)), 0, 0};
  for (int i = 0; i < 8; ++i) b.words[i] = hive::pack(static_cast<key_type>(100 + i), 1);
  if (setup.room) b.words[7] = hive::k_empty_word, b.free_mask = 0x80;
  kb.candidates = {a, b};
  kb.stash_used = setup.stash_used;
  if (setup.full) {  // both candidates full
    for (auto& c : kb.candidates) {
      for (std::size_t i = 0; i < c.words.size(); ++i)
        if (c.words[i] == hive::k_empty_word) c.words[i] = hive::pack(200 + i, 1);
      c.free_mask = 0;
    }
  }
  return kb;
}

struct decision_case {
  op_kind kind;
  key_type key;
  op_status status;
  buckets_before buckets;
  std::vector<std::string> tags;  ///< the walkthrough's decisions, in order
};

// The operation replayed (an eviction path of one hop, from bucket 9 to bucket 12, at hand) and
// told: every decision it points at is a tagged line of a known region, with words for it, and
// the decisions are the case's.
void check_told(const decision_case& c) {
  CAPTURE(to_string(c.kind), c.key, to_string(c.status));
  stepped_op op;
  op.kind = c.kind;
  op.key = c.key;
  op.value = 5;
  op.status = c.status;
  op.hive_before = candidates_before(c.key, c.buckets);
  std::vector<eviction_path> paths(1);
  paths[0].length = 1;
  paths[0].newcomer = 77;
  paths[0].bucket[0] = 9;
  paths[0].moved[0] = 101;
  paths[0].dest = 12;
  hive::step_replay r;
  const hive::op_trace t = r.replay(op, paths);
  CHECK(t.agrees);
  const code_walkthrough w = hive_walkthrough(op, t);
  std::vector<std::string> tags;
  for (const code_event& e : w.events) {
    tags.push_back(e.tag);
    const code_region* region = find_code_region(e.region);
    REQUIRE(region);
    CHECK(region->line_of(e.tag).has_value());
    CHECK_FALSE(hive_english(e.region, e.tag).empty());
  }
  CHECK(tags == c.tags);
}
}  // namespace

TEST_CASE("a hive find's decisions are tagged lines, with words for them", "[code]") {
  check_told(
      {op_kind::find, 4, op_status::found, {}, {"candidates", "read", "ballot", "match", "found"}});
  check_told({op_kind::find,
              77,
              op_status::missing,
              {},
              {"candidates", "read", "ballot", "away", "missing"}});
  check_told({op_kind::find,
              77,
              op_status::missing,
              {.away = true},
              {"candidates", "read", "ballot", "away", "read", "next", "read", "next", "missing"}});
}

TEST_CASE("a hive erase's decisions are tagged lines, with words for them", "[code]") {
  check_told({op_kind::erase,
              4,
              op_status::erased,
              {},
              {"candidates", "read", "ballot", "match", "cas", "free_bit", "erased"}});
}

TEST_CASE("a hive insert the batch kernel's passes decide is told in tagged lines", "[code]") {
  // Replaced in the first pass, claimed in the first candidate, claimed in the second pass.
  check_told({op_kind::insert,
              4,
              op_status::replaced,
              {},
              {"candidates", "read", "ballot", "match", "cas", "replaced"}});
  check_told({op_kind::insert,
              77,
              op_status::inserted,
              {.room = true},
              {"candidates", "read", "ballot", "room", "lowest_free", "atomic_and", "store"}});
  check_told({op_kind::insert,
              77,
              op_status::inserted,
              {.room = true, .away = true},
              {"candidates", "read", "ballot", "room", "read", "read_second", "ballot", "placement",
               "lowest_free", "atomic_and", "store"}});
}

TEST_CASE("a hive insert the general path decides is told in tagged lines", "[code]") {
  // With the stash in use: a claim, an eviction, the stash, refused.
  check_told({op_kind::insert,
              77,
              op_status::inserted,
              {.room = true, .stash_used = true},
              {"candidates", "read", "ballot", "room", "scan", "placement", "claim", "lowest_free",
               "atomic_and", "won", "store"}});
  check_told({op_kind::insert,
              77,
              op_status::inserted,
              {.stash_used = true, .full = true},
              {"candidates", "read", "ballot", "room", "scan", "placement", "find_path", "run_path",
               "evicted"}});
  check_told({op_kind::insert,
              78,
              op_status::inserted,
              {.stash_used = true, .full = true},
              {"candidates", "read", "ballot", "room", "scan", "placement", "find_path", "stash",
               "stashed"}});
  check_told({op_kind::insert,
              78,
              op_status::failed_full,
              {.stash_used = true, .full = true},
              {"candidates", "read", "ballot", "room", "scan", "placement", "find_path", "stash",
               "full"}});
}

TEST_CASE("the Code and lanes figures for print keep their text on the page and apart",
          "[code][lanes][paper]") {
  // An insert that claimed in its second candidate (the common pass), told and drawn.
  stepped_op op;
  op.kind = op_kind::insert;
  op.key = 77;
  op.value = 5;
  op.status = op_status::inserted;
  hive_key_before kb;
  kb.key = 77;
  hive_bucket_before a{3, std::vector<std::uint64_t>(8), 0, hive::k_away_bit};
  hive_bucket_before b{9, std::vector<std::uint64_t>(8), 0, 0};
  for (int i = 0; i < 8; ++i) a.words[i] = hive::pack(static_cast<key_type>(1000 + i), 1);
  for (int i = 0; i < 8; ++i) b.words[i] = hive::pack(static_cast<key_type>(i + 1), 1);
  b.words[5] = b.words[6] = b.words[7] = hive::k_empty_word;
  b.free_mask = 0xe0;
  kb.candidates = {a, b};
  op.hive_before = kb;
  hive::step_replay r;
  const hive::op_trace t = r.replay(op, {});
  REQUIRE(t.pass == hive::kernel_pass::common);
  const code_walkthrough w = hive_walkthrough(op, t);
  vis::tile_lanes_view lanes;
  lanes.set(tile_title(op, 4), hive_lane_rounds(op, t, 4), tile_legend());
  for (const fig::figure& f : {code_figure(w), lanes.paper_figure()}) {
    const fig::page pg = fig::fit_page(f, {3.5, 2.4, 150, 8});
    const auto boxes = fig::layout_text(f, pg);
    REQUIRE(boxes.size() > 5);
    const double W = pg.width_in * 72, H = pg.height_in * 72, slack = 0.25;
    std::string all;
    for (const auto& box : boxes) {
      INFO("'" << box.text << "' at " << box.x0 << "," << box.y0 << " - " << box.x1 << ","
               << box.y1);
      CHECK(box.x0 >= -slack);
      CHECK(box.y0 >= -slack);
      CHECK(box.x1 <= W + slack);
      CHECK(box.y1 <= H + slack);
      all += box.text + "\n";
    }
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        const auto &p = boxes[i], &q = boxes[j];
        INFO("'" << p.text << "' and '" << q.text << "'");
        CHECK((p.x1 <= q.x0 + slack || q.x1 <= p.x0 + slack || p.y1 <= q.y0 + slack ||
               q.y1 <= p.y0 + slack));
      }
    CHECK(all.find("more lines") == std::string::npos);  // the page grew to hold it all
    if (f.panels.at(0).title == w.title) {
      // The listing: the line that ended the operation, with its decision's number, and the
      // decisions in words.
      const code_region* common = find_code_region("hive-insert-common");
      REQUIRE(common);
      const int store = *common->line_of("store");
      CHECK(all.find(std::string(common->lines[static_cast<std::size_t>(store)]) + "  <- " +
                     std::to_string(w.events.size())) != std::string::npos);
      CHECK(all.find("1. " + w.events.front().what) != std::string::npos);
    } else {
      // The lanes: lane 0 of a tile of 4 holds slots 0-1 of bucket 9 (keys 1 and 2).
      CHECK(all.find("bucket 9 (candidate 1), read by insert_common") != std::string::npos);
      CHECK(all.find("lane 0: atomicAnd on the free mask takes slot 5") != std::string::npos);
    }
  }
}
