// Compare mode as a user starts and drives it: Compare > Compare tables..., the dialog's Start
// comparing, and the Compare window's Fill or drain (what several window tests of compare share).
#pragma once
#include <imgui_te_context.h>

namespace hs::test {

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
