// 64-bit keys in the window: the Table section's "keys" combo rebuilds the table with 64-bit keys,
// typed keys past 32 bits step as traced operations, and the step box, the Code view, the probe
// walk and the Numbers write them whole; a 32-bit table refuses such a key as it is typed, saying
// what the table holds.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "tests/app/ui/families/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("64-bit keys chosen in the Table section step typed keys the views write whole",
          "[ui][keys][wide]") {
  auto ui = test::harness_or_skip(test::small_table());
  app_frame& f = ui->frame();
  constexpr std::uint64_t first = 0x1234567890abull,
                          second = 0x2234567890abull;  // low halves equal
  unsigned bits_after_apply = 0, bits_after_back = 0;
  std::vector<std::uint64_t> stepped, slots_hold;
  std::string code_title, home_told, walk_csv, step_box, typed_error, keys_row;
  std::vector<std::uint64_t> homes;  // the first slot of each step's walk
  const auto code_title_now = [&] {
    const auto* code = test::drawn<code_view>(f, "code");
    return code ? code->walkthrough().title : std::string();
  };
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("keys/64-bit keys (16-byte slots)");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    bits_after_apply = f.sess().config().table.key_bits();
    IM_CHECK_STR_EQ(f.error().c_str(), "");
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("0x1234567890ab, 0x2234567890ab");
    ctx->Yield(2);
    step_box = f.state().typed_error;
    for (int i = 0; i < 2; ++i) {
      const std::uint64_t before = f.sess().status().batches;
      ctx->ItemClick("Step");
      test::wait_until(ctx, [&] { return f.sess().status().batches > before; });
      f.sess().wait_idle();
      const auto trace = f.sess().last_step();
      if (!trace || trace->ops.size() != 1 || !trace->ops[0].slot_after) continue;
      stepped.push_back(trace->ops[0].key);
      if (!trace->ops[0].probe_before.empty()) homes.push_back(trace->ops[0].probe_before[0].slot);
      inspect_request ir;  // what the slot the step names holds now
      ir.dump_first = *trace->ops[0].slot_after;
      ir.dump_count = 1;
      inspect_result r;
      f.sess().tbl().inspect(ir, r, {});
      if (r.slots.size() == 1) slots_hold.push_back(r.slots[0].key);
    }
    ctx->WindowFocus("//Code");
    test::wait_until(ctx,
                     [&] { return code_title_now().find("2234567890ab") != std::string::npos; });
    code_title = code_title_now();
    if (const auto* code = test::drawn<code_view>(f, "code"))
      for (const code_event& e : code->walkthrough().events)
        if (e.tag == "home") home_told = e.what;
    ctx->WindowFocus("//Probe walk");
    test::wait_until(ctx, [&] {
      const auto* walk = test::drawn<vis::linear_walk_view>(f, "walk");
      return walk && walk->has_step() &&
             walk->csv().find(std::to_string(second)) != std::string::npos;
    });
    walk_csv = test::drawn<vis::linear_walk_view>(f, "walk")->csv();
    const auto* numbers = dynamic_cast<const numbers_panel*>(f.find_panel("Numbers"));
    if (numbers)
      for (const auto& [name, value] : numbers->drawn())
        if (name == "keys") keys_row = value;
    // Back to 32-bit keys: the same key is refused as it is typed.
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("keys/32-bit keys (8-byte slots)");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    bits_after_back = f.sess().config().table.key_bits();
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("7, 0x1234567890ab");
    ctx->Yield(2);
    typed_error = f.state().typed_error;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(bits_after_apply == 64);
  CHECK(step_box.empty());
  CHECK(stepped == std::vector<std::uint64_t>{first, second});
  CHECK(slots_hold == stepped);  // the table holds each whole, not its low half
  CHECK(code_title == "insert(0x2234567890ab) -> inserted");
  // Each walk starts at the first slot of a 64-byte line, and the Code view says why.
  REQUIRE(homes.size() == 2);
  CHECK(homes[0] % 4 == 0);
  CHECK(homes[1] % 4 == 0);
  CHECK_THAT(home_told, ContainsSubstring("home slot " + std::to_string(homes[1]) +
                                          ": the first of the 4 slots of the 64-byte line that "
                                          "hash(0x2234567890ab) modulo"));
  CHECK_THAT(walk_csv, ContainsSubstring("," + std::to_string(second) + ","));
  CHECK(keys_row == "64-bit keys and values (16-byte slots)");
  CHECK(bits_after_back == 32);
  CHECK_THAT(typed_error, ContainsSubstring("'0x1234567890ab' has more than 32 bits: this table "
                                            "holds 32-bit keys"));
}
