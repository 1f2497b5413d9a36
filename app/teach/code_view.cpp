// The Code panel: the regions an operation ran, one editor text with a header line a region, the
// current decision's line marked; or the decisions in plain English.
#include "app/teach/code_view.hpp"

#include <imgui.h>

#include <TextEditor.h>

#include "app/platform/style.hpp"
#include "app/teach/code_regions.hpp"
#include "core/common/format.hpp"

namespace hs::app {

code_view::code_view(code_english english)
    : english_(english), editor_(std::make_unique<TextEditor>()) {
  editor_->SetReadOnlyEnabled(true);
  editor_->SetLanguage(TextEditor::Language::Cpp());
  editor_->SetShowLineNumbersEnabled(true);
  editor_->SetShowWhitespacesEnabled(false);
  editor_->SetShowMiniMapEnabled(false);
  // The gutter numbers each line as the file does (a region's header line has none).
  editor_->SetCustomLineNumberRenderer([this](const TextEditor::CustomLineNumber& d) {
    const int file_line = file_line_at(static_cast<int>(d.lineNumber));
    if (file_line <= 0) return;
    const std::string n = std::to_string(file_line);
    const float w = ImGui::CalcTextSize(n.c_str()).x;
    d.drawList->AddText(ImVec2(d.pos.x + d.size.x - w, d.pos.y), d.color, n.c_str());
  });
}

code_view::~code_view() = default;

void code_view::show(code_walkthrough w) {
  walk_ = std::move(w);
  event_ = 0;
  build_text();
  marked_ = false;
}

void code_view::next() {
  if (event_ + 1 < walk_.events.size()) ++event_, marked_ = false;
}

void code_view::prev() {
  if (event_ > 0) --event_, marked_ = false;
}

void code_view::build_text() {
  std::string text;
  longest_ = 0;
  int line = 0;
  placed_.clear();
  numbers_.clear();
  for (const std::string& name : walk_.regions) {
    const code_region* r = find_code_region(name);
    if (!r) continue;  // a region the family names but the build did not extract: the test fails
    if (line > 0) text += "\n";  // ends the region before
    text += strprintf("// %s, lines %d-%d\n", std::string(r->file).c_str(), r->numbers.front(),
                      r->numbers.back());
    numbers_.push_back(0);
    ++line;
    placed_.push_back({name, line});
    for (std::size_t i = 0; i < r->lines.size(); ++i) {
      text += r->lines[i];
      std::size_t width = 0;
      for (const char c : r->lines[i]) width += c == '\t' ? 4 : 1;
      longest_ = std::max(longest_, width);
      if (i + 1 < r->lines.size()) text += "\n";
      numbers_.push_back(r->numbers[i]);
    }
    line += static_cast<int>(r->lines.size());
  }
  editor_->SetText(text);
}

int code_view::editor_line(const std::string& region, int shown_line) const {
  for (const placed& p : placed_)
    if (p.region == region) return p.first_line + shown_line;
  return -1;
}

int code_view::file_line_at(int editor_line) const {
  return editor_line >= 0 && editor_line < static_cast<int>(numbers_.size())
             ? numbers_[static_cast<std::size_t>(editor_line)]
             : 0;
}

void code_view::mark() {
  editor_->ClearMarkers();
  drawn_.region.clear();
  drawn_.tag.clear();
  drawn_.file.clear();
  drawn_.file_line = 0;
  if (event_ >= walk_.events.size()) return;
  const code_event& e = walk_.events[event_];
  const code_region* r = find_code_region(e.region);
  const std::optional<int> shown = r ? r->line_of(e.tag) : std::nullopt;
  const int line = shown ? editor_line(e.region, *shown) : -1;
  if (line < 0) return;
  editor_->AddMarker(static_cast<std::size_t>(line), IM_COL32(255, 200, 60, 255),
                     IM_COL32(255, 200, 60, 70), e.what, e.what);
  editor_->ScrollToLine(static_cast<std::size_t>(line), TextEditor::Scroll::alignMiddle);
  drawn_.region = e.region;
  drawn_.tag = e.tag;
  drawn_.file = std::string(r->file);
  drawn_.file_line = r->numbers[static_cast<std::size_t>(*shown)];
  drawn_.marked_text = editor_->GetLineText(static_cast<std::size_t>(line));
  drawn_.gutter_line = file_line_at(line);
}

void code_view::draw(float height) {
  if (walk_.regions.empty()) {
    ImGui::TextDisabled(
        "No traced step yet: Step with a few operations (step ops, or your keys) and the device "
        "code that decided each one shows here, the line it is at marked.");
    return;
  }
  if (height > 0 && !walk_.events.empty() && event_ + 1 != walk_.events.size()) {
    event_ = walk_.events.size() - 1;  // a still figure marks the decision that ended it
    marked_ = false;
  }
  ImGui::TextUnformatted(walk_.title.c_str());
  if (ImGui::ArrowButton("code-prev", ImGuiDir_Left)) prev();
  ImGui::SameLine();
  if (ImGui::ArrowButton("code-next", ImGuiDir_Right)) next();
  ImGui::SameLine();
  if (walk_.events.empty())
    ImGui::TextUnformatted("nothing decided: the key was rejected before any slot was read");
  else
    ImGui::Text("decision %zu of %zu: %s", event_ + 1, walk_.events.size(),
                walk_.events[event_].what.c_str());
  ImGui::Checkbox("plain English", &plain_english_);
  if (!marked_) {
    mark();
    marked_ = true;
  }
  drawn_.event = event_;
  drawn_.events = walk_.events.size();
  drawn_.english = plain_english_;
  ++drawn_.frames;
  const float avail =
      height > 0 ? height - ImGui::GetCursorPosY() : ImGui::GetContentRegionAvail().y;
  if (plain_english_) {
    ImGui::BeginChild("code-english", ImVec2(0, std::max(avail, 4 * ImGui::GetFontSize())));
    for (std::size_t i = 0; i < walk_.events.size(); ++i) {
      const code_event& e = walk_.events[i];
      const std::string words = english_ ? english_(e.region, e.tag) : std::string();
      const std::string line = strprintf("%zu. %s %s", i + 1, words.c_str(), e.what.c_str());
      if (i == event_)
        ImGui::TextColored(ImVec4(1.f, 0.78f, 0.24f, 1.f), "%s", line.c_str());
      else
        ImGui::TextWrapped("%s", line.c_str());
    }
    ImGui::EndChild();
    return;
  }
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // the theme's, light or dark
  editor_->SetPalette(bg.x + bg.y + bg.z > 1.5f ? TextEditor::GetLightPalette()
                                                : TextEditor::GetDarkPalette());
  ImGui::PushFont(code_font(), 0.f);  // null: the UI's font
  // The gutter's line numbers (4 digits and margins) and the scroll bar beside the longest line.
  drawn_.width_had = ImGui::GetContentRegionAvail().x;
  drawn_.width_needed =
      ImGui::CalcTextSize("M").x * float(longest_ + 8) + ImGui::GetStyle().ScrollbarSize;
  editor_->Render("code-text", ImVec2(0, std::max(avail, 4 * ImGui::GetFontSize())));
  ImGui::PopFont();
}

std::string code_view::csv() const {
  std::string out = "event,region,tag,file,line,what\n";
  for (std::size_t i = 0; i < walk_.events.size(); ++i) {
    const code_event& e = walk_.events[i];
    const code_region* r = find_code_region(e.region);
    const std::optional<int> shown = r ? r->line_of(e.tag) : std::nullopt;
    out += strprintf("%zu,%s,%s,%s,%d,\"%s\"\n", i + 1, e.region.c_str(), e.tag.c_str(),
                     r ? std::string(r->file).c_str() : "",
                     shown ? r->numbers[static_cast<std::size_t>(*shown)] : 0, e.what.c_str());
  }
  return out;
}

}  // namespace hs::app
