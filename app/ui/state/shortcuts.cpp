// The shortcut table and its key handling.
#include "app/ui/state/shortcuts.hpp"

namespace hs::app {

namespace {
constexpr ImGuiKeyChord none = ImGuiKey_None;
// '?' is Shift+/ on US layouts; Ctrl+plus is Ctrl+= there (with or without Shift) or the keypad's.
constexpr shortcut k_shortcuts[] = {
    {command::run_pause, {ImGuiKey_Space, none, none}, "Space", "run or pause"},
    {command::step,
     {ImGuiKey_S, ImGuiKey_RightArrow, none},
     "S or Right",
     "step: one batch (or the step ops)"},
    {command::back,
     {ImGuiKey_B, ImGuiKey_LeftArrow, none},
     "B or Left",
     "back: the table before the last command"},
    {command::forward,
     {ImGuiMod_Shift | ImGuiKey_B, ImGuiMod_Shift | ImGuiKey_RightArrow, none},
     "Shift+B or Shift+Right",
     "forward: replay what Back undid"},
    {command::fill, {ImGuiKey_F, none, none}, "F", "fill or drain to the target load"},
    {command::reset, {ImGuiKey_R, none, none}, "R", "reset: empty the table"},
    {command::next_stage, {ImGuiKey_N, none, none}, "N", "next stage of the preset"},
    {command::text_bigger,
     {ImGuiMod_Ctrl | ImGuiKey_Equal, ImGuiMod_Ctrl | ImGuiMod_Shift | ImGuiKey_Equal,
      ImGuiMod_Ctrl | ImGuiKey_KeypadAdd},
     "Ctrl+plus",
     "larger text"},
    {command::text_smaller,
     {ImGuiMod_Ctrl | ImGuiKey_Minus, ImGuiMod_Ctrl | ImGuiKey_KeypadSubtract, none},
     "Ctrl+minus",
     "smaller text"},
    {command::fullscreen, {ImGuiKey_F11, none, none}, "F11", "full screen on or off"},
    {command::screenshot,
     {ImGuiMod_Ctrl | ImGuiKey_S, none, none},
     "Ctrl+S",
     "screenshot: a PNG named by date and time, the numbers' CSV beside it"},
    {command::open_scenario,
     {ImGuiMod_Ctrl | ImGuiKey_O, none, none},
     "Ctrl+O",
     "open a scenario file"},
    {command::open_key_file,
     {ImGuiMod_Ctrl | ImGuiKey_K, none, none},
     "Ctrl+K",
     "open a key file: your own keys as the workload's"},
    {command::save_scenario,
     {ImGuiMod_Ctrl | ImGuiMod_Shift | ImGuiKey_S, none, none},
     "Ctrl+Shift+S",
     "save what you did since the last reset as a scenario"},
    {command::open_table,
     {ImGuiMod_Ctrl | ImGuiKey_T, none, none},
     "Ctrl+T",
     "open a table file: a table's exact state, saved before"},
    {command::save_table,
     {ImGuiMod_Ctrl | ImGuiMod_Shift | ImGuiKey_T, none, none},
     "Ctrl+Shift+T",
     "save the table's exact state as a table file"},
    {command::export_figures,
     {ImGuiMod_Ctrl | ImGuiKey_E, none, none},
     "Ctrl+E",
     "export the views shown as paper figures (PNG, SVG, PDF)"},
    {command::quit, {ImGuiMod_Ctrl | ImGuiKey_Q, none, none}, "Ctrl+Q", "quit"},
    {command::help,
     {ImGuiKey_F1, ImGuiMod_Shift | ImGuiKey_Slash, none},
     "F1 or ?",
     "this list of shortcuts"},
    {command::present,
     {ImGuiKey_F5, none, none},
     "F5",
     "presenter mode: controls hidden, large text, the caption on "
     "top; Space or N the next stage"},
    {command::leave_present, {ImGuiKey_Escape, none, none}, "Esc", "leave presenter mode"},
};
}  // namespace

std::span<const shortcut> shortcuts() { return k_shortcuts; }

bool drives_tables(command c) {
  return c == command::run_pause || c == command::step || c == command::fill ||
         c == command::reset || c == command::next_stage;
}

const char* keys_for(command c) {
  for (const shortcut& s : k_shortcuts)
    if (s.cmd == c) return s.keys;
  return "";
}

std::optional<command> pressed_command() {
  if (ImGui::GetIO().WantTextInput) return std::nullopt;  // the keys are text for the field
  for (const shortcut& s : k_shortcuts)
    for (ImGuiKeyChord chord : s.chords)
      if (chord != none && ImGui::IsKeyChordPressed(chord)) return s.cmd;
  return std::nullopt;
}

void draw_shortcut_table() {
  if (!ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  for (const shortcut& s : k_shortcuts) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.keys);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.what);
  }
  ImGui::EndTable();
}

}  // namespace hs::app
