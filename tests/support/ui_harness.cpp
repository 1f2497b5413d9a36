// The Test Engine bound to a headless frame loop.
#include "tests/support/ui_harness.hpp"

#include <imgui.h>
#include <imgui_te_context.h>
#include <imgui_te_engine.h>
#include <imgui_te_internal.h>
#include <catch2/catch_test_macros.hpp>

#include "app/platform/headless_platform.hpp"
#include "app/ui/app_frame.hpp"
#include "core/common/error.hpp"

namespace hs::test {

ui_harness::ui_harness(const app::session_config& cfg, int width, int height)
    : width_(width), height_(height) {
  platform_ = std::make_unique<app::headless_platform>(16.f);
  ImGui::GetIO().IniFilename = nullptr;  // tests never read or write a layout file
  frame_ = std::make_unique<app::app_frame>(cfg, backend_choice::cpu, "UI test");
  frame_->state().font_size = 16.f;
  // Every frame sees the table as it is (the window samples the model at 5 Hz, and a large table
  // within its share of the time).
  frame_->sampling().period_s = 0;
  frame_->sampling().share = 1;
  engine_ = ImGuiTestEngine_CreateContext();
  ImGuiTestEngineIO& io = ImGuiTestEngine_GetIO(engine_);
  io.ConfigRunSpeed = ImGuiTestRunSpeed_Fast;
  io.ConfigNoThrottle = true;
  io.ConfigSavedSettings = false;
  io.ConfigCaptureEnabled = false;
  io.ConfigLogToTTY = false;
  io.ConfigVerboseLevel = ImGuiTestVerboseLevel_Info;
  io.ConfigVerboseLevelOnError = ImGuiTestVerboseLevel_Debug;
  ImGuiTestEngine_Start(engine_, ImGui::GetCurrentContext());
}

ui_harness::~ui_harness() {
  ImGuiTestEngine_Stop(engine_);
  frame_.reset();     // GL objects go while the context lives
  platform_.reset();  // and with it the ImGui context the engine was bound to
  ImGuiTestEngine_DestroyContext(engine_);
}

void ui_harness::one_frame() {
  platform_->frame(
      width_, height_, [&] { frame_->draw_window(); }, frame_->state().font_size,
      frame_->state().ui_theme);
  if (frame_->screenshot_requested) {  // as the window platform does after rendering
    frame_->screenshot_requested = false;
    frame_->save_screenshot(platform_->read_frame(), width_, height_);
  }
  ImGuiTestEngine_PostSwap(engine_);
  ++frames_;
}

std::string ui_harness::run(const std::function<void(ImGuiTestContext*)>& script) {
  const std::string name = "script " + std::to_string(++tests_);
  ImGuiTest* t =
      ImGuiTestEngine_RegisterTest(engine_, "hashscope", name.c_str(), __FILE__, __LINE__);
  t->TestFunc = script;
  ImGuiTestEngine_QueueTest(engine_, t);
  // Bounded: the engine's watchdog ends a stuck test, and this ends the loop regardless.
  for (int i = 0; i < 200000 && !ImGuiTestEngine_IsTestQueueEmpty(engine_); ++i) one_frame();
  for (int i = 0; i < 2; ++i) one_frame();  // let the engine close the test
  if (t->Output.Status == ImGuiTestStatus_Success) return {};
  std::string log = "test status " + std::to_string(static_cast<int>(t->Output.Status)) + "\n";
  log += t->Output.Log.Buffer.c_str();
  return log;
}

std::unique_ptr<ui_harness> harness_or_skip(const app::session_config& cfg, int width, int height) {
  try {
    return std::make_unique<ui_harness>(cfg, width, height);
  } catch (const graphics_error& e) {
    SKIP(std::string("UI test skipped: no headless OpenGL (") + e.what() + ")");
  }
  return nullptr;
}

void choose_file(ImGuiTestContext* ctx, const char* dialog, const std::string& path,
                 const char* button) {
  ctx->Yield(2);
  ctx->SetRef(dialog);
  ctx->ItemInput("##file_input");
  ctx->KeyCharsReplace(path.c_str());
  ctx->ItemClick(button);
  ctx->Yield(3);
  ctx->SetRef("");
}

void wait_until(ImGuiTestContext* ctx, const std::function<bool()>& done, int max_frames) {
  for (int i = 0; i < max_frames && !done() && !ctx->IsError(); ++i) ctx->Yield();
}

}  // namespace hs::test

namespace hs::test {
app::session_config identity_table(std::uint64_t capacity) {
  app::session_config cfg;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = capacity;
  cfg.table.hash = hash_kind::identity;
  return cfg;
}
}  // namespace hs::test
