// The shipped hashscope links these instead of the Dear ImGui Test Engine: ImGui is built once,
// with the Test Engine's hooks compiled in (IMGUI_ENABLE_TEST_ENGINE), and the tests link the
// engine itself. ImGui calls the item hooks only while a test engine is attached, so here they
// are never reached; they exist so that the app links without the engine (whose license covers
// open-source and educational use, not every user of ours).
#include <imgui.h>
#include <imgui_internal.h>

void ImGuiTestEngineHook_ItemAdd(ImGuiContext*, ImGuiID, const ImRect&, const ImGuiLastItemData*) {}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext*, ImGuiID, const char*, ImGuiItemStatusFlags) {}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }
