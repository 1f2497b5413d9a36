// A stage's caption, once the user's own Run changes the table under it (the run takes the place of
// the lesson's script), is drawn as the caption of the stage that ended; the lesson loaded again
// draws its first stage's caption as current.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::StartsWith;
using hs::test::run_button;
using hs::test::small_table;

TEST_CASE("a caption the user's own run left behind is drawn as the stage that ended",
          "[ui][present]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::string caption;
  app_frame::caption_drawn at_stage, after_run, again;
  std::uint64_t batches_at_stage = 0, batches_after_run = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-clustering");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    ctx->Yield(2);
    s.wait_idle();
    ctx->Yield(2);
    caption = s.status().caption;
    at_stage = f.drawn_caption();
    batches_at_stage = s.status().batches;
    ctx->SetRef("");
    ctx->ItemClick(run_button);  // the user's own run: the table leaves the stage
    test::wait_until(ctx, [&] { return s.status().batches > batches_at_stage + 2; });
    // Paused as the Pause button does, if the run has not ended by itself meanwhile (on a loaded
    // machine it may, and the button is gone before a click reaches it).
    s.pause();
    s.wait_idle();
    ctx->Yield(2);
    after_run = f.drawn_caption();
    batches_after_run = s.status().batches;
    ctx->SetRef("//Controls/run-section");
    ctx->ItemClick("Load preset");  // the combo still names linear-clustering
    f.sess().wait_idle();
    ctx->Yield(2);
    again = f.drawn_caption();
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE_FALSE(caption.empty());
  CHECK(at_stage.text == caption);
  CHECK_FALSE(at_stage.ended);
  CHECK(batches_after_run > batches_at_stage);
  CHECK(after_run.ended);
  CHECK_THAT(after_run.text, StartsWith("The stage that ended: "));
  CHECK(after_run.text.find(caption) != std::string::npos);
  CHECK_FALSE(again.ended);
  CHECK(again.text == caption);
}
