// Steps several window tests take as a user takes them: the Controls' Fill or drain to a target
// (waiting for the session to finish), and compare mode's Compare > Compare tables..., Start
// comparing and the Compare window's Fill or drain.
#pragma once
#include <imgui_te_context.h>

#include "app/session/session.hpp"

namespace hs::test {

/// @brief The Controls panel's Fill or drain to `target`; returns once `s` has run it.
inline void fill_from_controls(ImGuiTestContext* ctx, app::session& s, float target) {
  ctx->SetRef("//Controls/run-section");
  ctx->ItemInputValue("target load", target);
  ctx->ItemClick("Fill or drain to target");
  ctx->Yield(2);
  s.wait_idle();
}

/// @brief Opens the Compare dialog and starts comparing its tables as they stand.
inline void start_comparing(ImGuiTestContext* ctx) {
  ctx->SetRef("");
  ctx->MenuClick("//##MainMenuBar/Compare/Compare tables...");
  ctx->Yield(2);
  ctx->SetRef("//Compare tables");
  ctx->ItemClick("Start comparing");
  ctx->Yield(2);
}

/// @brief The Compare window's Fill or drain to `target`; its controls stay the reference.
inline void compare_fill(ImGuiTestContext* ctx, float target) {
  ctx->SetRef("//Compare/compare-controls");
  ctx->ItemInputValue("target", target);
  ctx->ItemClick("Fill or drain");
  ctx->Yield(2);
}

}  // namespace hs::test
