// The File menu and its dialogs.
#include "app/ui/file_menu.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

#include <ImFileDialog.h>
#include <imgui.h>

#include "app/scenario/scenario_writer.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "visualizers/gl/gl.hpp"

namespace hs::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_open_key = "hashscope-open-scenario";
constexpr const char* k_save_key = "hashscope-save-scenario";
constexpr const char* k_export_key = "hashscope-export-figures";
constexpr const char* k_keys_key = "hashscope-open-key-file";
constexpr const char* k_open_table_key = "hashscope-open-table";
constexpr const char* k_save_table_key = "hashscope-save-table";

// ImFileDialog draws file icons and previews as textures: made and freed through the GL the
// window draws with (the dialogs only exist inside a frame, with its context current).
void install_textures() {
  ifd::FileDialog& d = ifd::FileDialog::Instance();
  if (d.CreateTexture) return;
  d.CreateTexture = [](std::uint8_t* data, int w, int h, char fmt) -> ImTextureID {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, fmt == 0 ? GL_BGRA : GL_RGBA, GL_UNSIGNED_BYTE,
                 data);
    glBindTexture(GL_TEXTURE_2D, 0);
    return static_cast<ImTextureID>(tex);
  };
  d.DeleteTexture = [](ImTextureID t) {
    const auto tex = static_cast<GLuint>(t);
    glDeleteTextures(1, &tex);
  };
}

std::string start_dir(const frame_state& f) {
  const auto& recent = f.settings.recent;
  std::error_code ec;
  if (!recent.empty() && fs::is_directory(fs::path(recent.front()).parent_path(), ec))
    return fs::path(recent.front()).parent_path().string();
  return fs::current_path(ec).string();
}

}  // namespace

void remember_recent(std::vector<std::string>& recent, const std::string& path) {
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).lexically_normal().string();
  recent.erase(std::remove(recent.begin(), recent.end(), abs), recent.end());
  recent.insert(recent.begin(), abs);
  if (recent.size() > k_recent_max) recent.resize(k_recent_max);
}

bool file_menu::open_scenario(frame_state& f, frame_actions& act, const std::string& path) {
  auto& recent = f.settings.recent;
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    const bool was_recent = std::find(recent.begin(), recent.end(), path) != recent.end();
    recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
    f.error = "cannot open " + path + ": the file does not exist" +
              (was_recent ? " (any more: taken off the recent files)" : "");
    return false;
  }
  try {
    const scenario sc = load_scenario(path);  // parsed whole before anything changes
    act.load_preset(sc);
    remember_recent(recent, path);
    f.error.clear();
    f.notice = "opened " + path + (sc.title.empty() ? "" : ": " + sc.title);
    return true;
  } catch (const std::exception& e) {
    f.error = std::string("cannot open the scenario: ") + e.what();
    return false;
  }
}

bool file_menu::open_table(frame_state& f, frame_actions& act, const std::string& path) {
  try {
    act.open_table(path);
    f.error.clear();
    return true;
  } catch (const std::exception& e) {
    f.error = std::string("cannot open the table: ") + e.what();
    return false;
  }
}

bool file_menu::save_table(frame_state& f, const std::string& path) {
  fs::path p(path);
  if (!p.has_extension()) p += ".hstable";
  try {
    f.sess->save_table(p.string());
    f.error.clear();
    f.notice = f.sess->status().note;
    return true;
  } catch (const std::exception& e) {
    f.error = std::string("cannot save the table: ") + e.what();
    return false;
  }
}

bool file_menu::save_scenario(frame_state& f, const std::string& path) {
  fs::path p(path);
  if (!p.has_extension()) p += ".scn";
  try {
    session_to_save s;
    s.journal = f.sess->journal();
    s.workload = f.sess->workload();
    s.maintenance = f.sess->maintenance();
    s.record_timeline = f.sess->recording_timeline();
    s.backend = f.choice;
    if (const compare_set* c = f.compare.get()) {
      s.journal = c->at(0).journal();  // every compared table ran the same commands
      for (std::size_t i = 0; i < c->size(); ++i)
        s.compare.push_back({c->label(i), c->at(i).config().table});
    }
    s.title = p.stem().string();
    write_file_atomically(p.string(), scenario_text(s));
    remember_recent(f.settings.recent, p.string());
    f.error.clear();
    f.notice =
        "saved " + p.string() + strprintf(": %zu commands, a stage each", s.journal.entries.size());
    return true;
  } catch (const std::exception& e) {
    f.error = std::string("not saved: ") + e.what();
    return false;
  }
}

bool file_menu::export_figures(frame_state& f, frame_actions& act, const std::string& dir) {
  try {
    const std::size_t written = act.export_figures(dir);
    f.error.clear();
    f.notice = strprintf("exported %zu figures (PNG, SVG, PDF) and their numbers into %s", written,
                         dir.c_str());
    return true;
  } catch (const std::exception& e) {
    f.error = std::string("not exported: ") + e.what();
    return false;
  }
}

file_menu::~file_menu() {
  if (shown_ != dialog::none || close_pending_) ifd::FileDialog::Instance().Close();
}

void file_menu::ask(command c) {
  if (c == command::open_scenario) asked_ = dialog::open;
  if (c == command::save_scenario) asked_ = dialog::save;
  if (c == command::open_key_file) asked_ = dialog::key_file;
  if (c == command::export_figures) asked_ = dialog::export_to;
  if (c == command::open_table) asked_ = dialog::open_table;
  if (c == command::save_table) asked_ = dialog::save_table;
}

void file_menu::draw_menu(frame_state& f, frame_actions& act) {
  if (ImGui::MenuItem("Open scenario...", keys_for(command::open_scenario)))
    act.execute(command::open_scenario);
  auto& recent = f.settings.recent;
  if (ImGui::BeginMenu("Open recent", !recent.empty())) {
    const std::vector<std::string> list = recent;  // opening one reorders the list
    for (const std::string& r : list)
      if (ImGui::MenuItem(r.c_str())) open_scenario(f, act, r);
    ImGui::Separator();
    if (ImGui::MenuItem("Clear the list")) recent.clear();
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Open key file...", keys_for(command::open_key_file)))
    act.execute(command::open_key_file);
  ImGui::SetItemTooltip(
      "Your own keys as the workload's: one key per line (decimal, hex or words), a column of a "
      "CSV, or raw little-endian 32-bit words (the column and format are in the Workload "
      "section).");
  if (ImGui::MenuItem("Save session as scenario...", keys_for(command::save_scenario)))
    act.execute(command::save_scenario);
  ImGui::SetItemTooltip(
      "The commands run since the last reset, a stage each: opened again, it plays back to the "
      "same table.");
  if (ImGui::MenuItem("Open table...", keys_for(command::open_table)))
    act.execute(command::open_table);
  if (ImGui::MenuItem("Save table...", keys_for(command::save_table)))
    act.execute(command::save_table);
  ImGui::Separator();
  if (ImGui::MenuItem("Export figures...", keys_for(command::export_figures)))
    act.execute(command::export_figures);
  ImGui::SetItemTooltip(
      "The views shown, as paper figures (PNG, SVG, PDF) with their numbers, into a folder.");
  if (ImGui::MenuItem("Screenshot", keys_for(command::screenshot)))
    act.execute(command::screenshot);
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", keys_for(command::quit))) act.execute(command::quit);
}

void file_menu::draw_dialogs(frame_state& f, frame_actions& act) {
  ifd::FileDialog& d = ifd::FileDialog::Instance();
  // A finished dialog is closed (its icon textures freed) a frame later: the frame it finished in
  // still draws them.
  if (std::exchange(close_pending_, false)) d.Close();
  if (asked_ != dialog::none && shown_ == dialog::none) {
    install_textures();
    const std::string from = start_dir(f);
    d.Close();  // one dialog at a time: one left open by a frame that is gone must not block this
    bool opened = false;
    if (asked_ == dialog::open)
      opened = d.Open(k_open_key, "Open scenario", "Scenario (*.scn){.scn},.*", false, from);
    if (asked_ == dialog::save)
      opened = d.Save(k_save_key, "Save session as scenario", "Scenario (*.scn){.scn}", from);
    if (asked_ == dialog::export_to)
      opened = d.Open(k_export_key, "Export figures into a folder", "", false, from);
    if (asked_ == dialog::open_table)
      opened = d.Open(k_open_table_key, "Open a table file", "Table files (*.hstable){.hstable},.*",
                      false, from);
    if (asked_ == dialog::save_table)
      opened =
          d.Save(k_save_table_key, "Save the table", "Table files (*.hstable){.hstable}", from);
    if (asked_ == dialog::key_file)
      opened = d.Open(k_keys_key, "Open a key file",
                      "Key files (*.txt;*.csv;*.u32;*.bin){.txt,.csv,.u32,.bin},.*", false, from);
    if (opened)
      shown_ = asked_;
    else
      f.error = "the file dialog could not open";
  }
  asked_ = dialog::none;
  const auto done = [&](const char* key, auto&& then) {
    if (!d.IsDone(key)) return;
    if (d.HasResult()) then(d.GetResult().string());  // a cancelled dialog changes nothing
    close_pending_ = true;
    shown_ = dialog::none;
  };
  if (shown_ == dialog::open)
    done(k_open_key, [&](const std::string& p) { open_scenario(f, act, p); });
  if (shown_ == dialog::save) done(k_save_key, [&](const std::string& p) { save_scenario(f, p); });
  if (shown_ == dialog::export_to)
    done(k_export_key, [&](const std::string& p) { export_figures(f, act, p); });
  if (shown_ == dialog::key_file)
    done(k_keys_key, [&](const std::string& p) { act.load_key_file(p); });
  if (shown_ == dialog::open_table)
    done(k_open_table_key, [&](const std::string& p) { open_table(f, act, p); });
  if (shown_ == dialog::save_table)
    done(k_save_table_key, [&](const std::string& p) { save_table(f, p); });
}

}  // namespace hs::app
