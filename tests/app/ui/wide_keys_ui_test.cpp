// 64-bit keys in the window: the Table section's "keys" combo rebuilds the table with 64-bit keys,
// typed keys past 32 bits step as traced operations, and the step box, the Code view, the probe
// walk and the Numbers write them whole; a 32-bit table refuses such a key as it is typed, saying
// what the table holds. In compare mode, the columns give the 64-byte lines a lookup reads beside
// the slots it walks.
#include <cmath>
#include <type_traits>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/compare/compare_set.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "app/ui/state/compare_view.hpp"
#include "core/common/format.hpp"
#include "core/common/hash.hpp"
#include "core/linear/linear_slots.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

namespace {

/// Slots walked and 64-byte lines touched to reach each stored key, mean over the keys, counted
/// from the slots themselves: a walk reads its home's slot and the d after it, `per_line` slots a
/// line, the home at `home % per_line` within its line.
struct walked {
  double slots = 0, lines = 0;
};
template <class W>
walked walked_from_slots(table& t, std::uint64_t per_line) {
  const std::vector<W> slots = linear::copy_slots<W>(t);
  using index = std::conditional_t<sizeof(W) == 16, std::uint64_t, std::uint32_t>;
  const auto mask = static_cast<index>(slots.size() - 1);
  walked w;
  std::uint64_t keys = 0;
  for (std::uint64_t i = 0; i < slots.size(); ++i) {
    if (!linear::occupies(slots[i])) continue;
    const std::uint64_t home = linear::home_slot<murmur3_hash>(linear::slot_key(slots[i]), mask);
    const std::uint64_t d = (i - home) & mask;
    w.slots += static_cast<double>(1 + d);
    w.lines += static_cast<double>(1 + (home % per_line + d) / per_line);
    ++keys;
  }
  w.slots /= static_cast<double>(keys);
  w.lines /= static_cast<double>(keys);
  return w;
}

constexpr std::uint64_t k_first = 0x1234567890abull,
                        k_second = 0x2234567890abull;  // low halves equal

// What the window showed along the script, for the checks after it.
struct wide_seen {
  unsigned bits_after_apply = 0, bits_after_back = 0;
  std::vector<std::uint64_t> stepped, slots_hold;
  std::string code_title, home_told, walk_csv, step_box, typed_error, keys_row, reads_row,
      reads_counted;
  std::vector<std::uint64_t> homes;  // the first slot of each step's walk
};

void choose_keys(ImGuiTestContext* ctx, const char* item) {
  ctx->SetRef("//Controls/table-section");
  ctx->ComboClick(item);
  ctx->ItemClick("Apply (rebuild the table)");
  ctx->Yield(3);
}

void step_typed_keys(ImGuiTestContext* ctx, app_frame& f, wide_seen& seen) {
  ctx->SetRef("//Controls/run-section");
  ctx->ItemInput("your keys");
  ctx->KeyCharsReplaceEnter("0x1234567890ab, 0x2234567890ab");
  ctx->Yield(2);
  seen.step_box = f.state().typed.error();
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t before = f.sess().status().batches;
    ctx->ItemClick("Step");
    test::wait_until(ctx, [&] { return f.sess().status().batches > before; });
    f.sess().wait_idle();
    const auto trace = f.sess().last_step();
    if (!trace || trace->ops.size() != 1 || !trace->ops[0].slot_after) continue;
    seen.stepped.push_back(trace->ops[0].key);
    if (!trace->ops[0].probe_before.empty())
      seen.homes.push_back(trace->ops[0].probe_before[0].slot);
    inspect_request ir;  // what the slot the step names holds now
    ir.dump_first = *trace->ops[0].slot_after;
    ir.dump_count = 1;
    inspect_result r;
    f.sess().tbl().inspect(ir, r, {});
    if (r.slots.size() == 1) seen.slots_hold.push_back(r.slots[0].key);
  }
}

void read_code_and_walk(ImGuiTestContext* ctx, app_frame& f, wide_seen& seen) {
  const auto code_title_now = [&] {
    const auto* code = test::drawn<code_view>(f, "code");
    return code ? code->walkthrough().title : std::string();
  };
  ctx->WindowFocus("//Code");
  test::wait_until(ctx, [&] { return code_title_now().find("2234567890ab") != std::string::npos; });
  seen.code_title = code_title_now();
  if (const auto* code = test::drawn<code_view>(f, "code"))
    for (const code_event& e : code->walkthrough().events)
      if (e.tag == "home") seen.home_told = e.what;
  ctx->WindowFocus("//Probe walk");
  test::wait_until(ctx, [&] {
    const auto* walk = test::drawn<vis::linear_walk_view>(f, "walk");
    return walk && walk->has_step() &&
           walk->csv().find(std::to_string(k_second)) != std::string::npos;
  });
  seen.walk_csv = test::drawn<vis::linear_walk_view>(f, "walk")->csv();
}

void read_numbers(ImGuiTestContext* ctx, app_frame& f, wide_seen& seen) {
  const auto* numbers = dynamic_cast<const numbers_panel*>(f.find_panel("Numbers"));
  const auto row = [&](const std::string& named) {
    if (numbers)
      for (const auto& [name, value] : numbers->drawn())
        if (name == named) return value;
    return std::string();
  };
  seen.keys_row = row("keys");
  // The Numbers give the slots and lines a lookup of the table's keys reads, as its slots do.
  const walked w = walked_from_slots<linear::wide_slot>(f.sess().tbl(), 4);
  seen.reads_counted = strprintf("%.4f slots in %.4f 64-byte lines", w.slots, w.lines);
  test::wait_until(
      ctx, [&] { return (seen.reads_row = row("reads per lookup")) == seen.reads_counted; });
}

}  // namespace

TEST_CASE("64-bit keys chosen in the Table section step typed keys the views write whole",
          "[ui][keys][wide]") {
  auto ui = test::harness_or_skip(test::small_table());
  app_frame& f = ui->frame();
  wide_seen seen;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    choose_keys(ctx, "keys/64-bit keys (16-byte slots)");
    seen.bits_after_apply = bits_of(f.sess().config().table.width);
    IM_CHECK_STR_EQ(f.error().c_str(), "");
    step_typed_keys(ctx, f, seen);
    read_code_and_walk(ctx, f, seen);
    read_numbers(ctx, f, seen);
    // Back to 32-bit keys: the same key is refused as it is typed.
    choose_keys(ctx, "keys/32-bit keys (8-byte slots)");
    seen.bits_after_back = bits_of(f.sess().config().table.width);
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("7, 0x1234567890ab");
    ctx->Yield(2);
    seen.typed_error = f.state().typed.error();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(seen.bits_after_apply == 64);
  CHECK(seen.step_box.empty());
  CHECK(seen.stepped == std::vector<std::uint64_t>{k_first, k_second});
  CHECK(seen.slots_hold == seen.stepped);  // the table holds each whole, not its low half
  CHECK(seen.code_title == "insert(0x2234567890ab) -> inserted");
  // Each walk starts at the first slot of a 64-byte line, and the Code view says why.
  const std::vector<std::uint64_t>& homes = seen.homes;
  REQUIRE(homes.size() == 2);
  CHECK(homes[0] % 4 == 0);
  CHECK(homes[1] % 4 == 0);
  CHECK_THAT(seen.home_told, ContainsSubstring("home slot " + std::to_string(homes[1]) +
                                               ": the first of the 4 slots of the 64-byte line "
                                               "that hash(0x2234567890ab) modulo"));
  CHECK_THAT(seen.walk_csv, ContainsSubstring("," + std::to_string(k_second) + ","));
  CHECK(seen.keys_row == "64-bit keys and values (16-byte slots)");
  CHECK(seen.reads_row == seen.reads_counted);
  CHECK(seen.bits_after_back == 32);
  CHECK_THAT(seen.typed_error,
             ContainsSubstring("'0x1234567890ab' has more than 32 bits: this table "
                               "holds 32-bit keys"));
}

TEST_CASE(
    "compare mode draws the 64-byte lines a lookup reads beside the slots it walks, for 64-bit "
    "and 32-bit keys",
    "[ui][keys][wide][compare]") {
  auto ui = test::harness_or_skip(test::small_table());
  app_frame& f = ui->frame();
  std::vector<compare_view::drawn_column> drawn;
  std::vector<walked> counted;
  std::string csv;
  bool lines_plotted = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const table_config base = f.sess().config().table;
    f.start_compare(
        {parse_compare_entry("linear:key-bits=64", base), parse_compare_entry("linear", base)});
    ctx->Yield(3);
    compare_set& c = *f.comparing();
    ctx->KeyPress(ImGuiKey_F);  // fill both to the target, 0.5
    ctx->Yield(2);
    c.wait_idle();
    compare_view& v = *f.state().compare_figure;
    test::wait_until(ctx, [&] {
      return v.drawn(0).version >= c.at(0).version() && v.drawn(1).version >= c.at(1).version();
    });
    ctx->Yield(1);
    drawn = {v.drawn(0), v.drawn(1)};
    lines_plotted = !v.line_points(0).empty() && !v.line_points(1).empty();
    csv = v.csv();
    counted = {walked_from_slots<linear::wide_slot>(c.at(0).tbl(), 4),
               walked_from_slots<linear::slot_word>(c.at(1).tbl(), 8)};
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(drawn.size() == 2);
  REQUIRE(counted.size() == 2);
  CHECK(drawn[0].live == (1u << 13));
  // Slots walked, as the columns wrote them, are the slots' own count.
  CHECK(std::abs(drawn[0].reads - counted[0].slots) < 1e-9);
  CHECK(std::abs(drawn[1].reads - counted[1].slots) < 1e-9);
  // 64-bit walks start at their line's first slot: the lines are exact.
  CHECK(std::abs(drawn[0].lines - counted[0].lines) < 1e-9);
  // 32-bit homes fall anywhere in a line: the column gives the mean over the line's 8 starts,
  // which the 8,192 keys' own lines come close to.
  CHECK(std::abs(drawn[1].lines - counted[1].lines) < 0.02);
  // The lesson the plot is for at load 0.5: the 64-bit table walks more slots and reads no more
  // lines (at 0.94 it reads more of both: core/linear/README.md).
  CHECK(drawn[0].reads > drawn[1].reads + 0.3);
  CHECK(drawn[0].lines < drawn[1].lines + 0.02);
  CHECK(lines_plotted);
  CHECK_THAT(csv, ContainsSubstring("last_batch_ops_per_s,lines_per_op\n"));
  CHECK_THAT(csv, ContainsSubstring(strprintf(",%.6f\n", drawn[0].lines)));
}
