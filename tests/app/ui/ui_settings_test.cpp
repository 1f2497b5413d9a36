// The settings file: what it keeps, and how a corrupt or foreign one is set aside, not trusted.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "app/platform/style.hpp"
#include "app/ui/state/ui_settings.hpp"

using namespace hs::app;
namespace fs = std::filesystem;

namespace {
fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / name;
  fs::remove(p);
  fs::remove(p.string() + ".ignored");
  std::ofstream(p, std::ios::binary) << text;
  return p;
}
}  // namespace

TEST_CASE("settings written are read back", "[settings]") {
  ui_settings s;
  s.font_size = 28.f;
  s.ui_theme = theme::light;
  s.window = std::array{10, 20, 1280, 720};
  s.layouts_built = 5;
  const fs::path p = write_file("hs-settings-ok.ini",
                                "[Window][Controls]\nPos=0,0\nSize=400,800\n\n" + settings_text(s));
  std::string notice;
  bool first = true;
  const ui_settings r = check_ini_file(p.string(), notice, first);
  CHECK(notice.empty());
  CHECK_FALSE(first);
  CHECK(r.version == k_settings_version);
  CHECK(r.font_size == 28.f);
  CHECK(r.ui_theme == theme::light);
  CHECK(r.window == std::array{10, 20, 1280, 720});
  CHECK(r.layouts_built == 5u);
  CHECK(fs::exists(p));
}

TEST_CASE("layouts built before the GPUs window are built again", "[settings]") {
  ui_settings s;
  s.layouts_built = 7;
  std::string text = settings_text(s);
  REQUIRE(text.find("Layouts3=7") != std::string::npos);
  text.replace(text.find("Layouts3=7"), 10, "Layouts2=7");  // as the build before wrote it
  const fs::path p = write_file("hs-settings-layouts2.ini", text);
  std::string notice;
  bool first = true;
  const ui_settings r = check_ini_file(p.string(), notice, first);
  CHECK(notice.empty());
  CHECK(r.layouts_built == 0u);  // every family's layout is built again, docking the GPUs window
}

TEST_CASE("a missing settings file is a first launch", "[settings]") {
  std::string notice;
  bool first = false;
  check_ini_file((fs::temp_directory_path() / "hs-settings-none.ini").string(), notice, first);
  CHECK(first);
  CHECK(notice.empty());
}

TEST_CASE("a corrupt or foreign settings file is set aside with a notice", "[settings]") {
  const std::string garbage(
      "\x7f"
      "ELF\x01\x02\x00\x00 binary",
      16);
  const std::string cases[] = {
      garbage,                                              // not text
      "this is not an ini file\njust words\n",              // not ImGui's format
      "[Window][HashScope]\nPos=0,0\nSize=400,800\n",       // an older HashScope (no settings)
      "[HashScope][Settings]\nVersion=999\nFontSize=20\n",  // another version
  };
  int i = 0;
  for (const std::string& text : cases) {
    const fs::path p = write_file("hs-settings-bad-" + std::to_string(i++) + ".ini", text);
    std::string notice;
    bool first = false;
    const ui_settings r = check_ini_file(p.string(), notice, first);
    INFO(text);
    CHECK(first);
    CHECK(notice.find("ignored") != std::string::npos);
    CHECK_FALSE(r.font_size);
    CHECK_FALSE(fs::exists(p));
    CHECK(fs::exists(p.string() + ".ignored"));  // kept, not lost
  }
}

TEST_CASE("a settings file whose section does not end with End=1 was cut short and is set aside",
          "[settings]") {
  ui_settings s;
  s.font_size = 20.f;
  s.ui_theme = theme::dark;
  s.recent = {"/home/teacher/lesson.scn", "/home/teacher/clusters.scn"};
  const std::string section = settings_text(s);
  const std::string end = std::string(k_settings_end_line) + "\n\n";
  REQUIRE(section.size() > end.size());
  REQUIRE(section.compare(section.size() - end.size(), end.size(), end) == 0);
  const std::string windows = "[Window][Controls]\nPos=0,0\nSize=400,800\n\n";
  const std::string docking = "[Docking][Data]\nDockSpace ID=0x1 Window=0x2 Pos=0,0 Size=800,600\n";
  const auto check = [](const std::string& text, bool usable) {
    const fs::path p = write_file("hs-settings-cut.ini", text);
    std::string notice;
    bool first = usable;  // the opposite of what it must say
    const ui_settings r = check_ini_file(p.string(), notice, first);
    INFO(text);
    CHECK(first == !usable);
    CHECK(fs::exists(p) == usable);
    CHECK(fs::exists(p.string() + ".ignored") == !usable);
    CHECK((r.font_size == 20.f) == usable);
    return notice;
  };
  // Whole, wherever ImGui put the section: used.
  CHECK(check(windows + section, true).empty());
  CHECK(check(windows + section + docking, true).empty());
  CHECK(check(section + windows + docking, true).empty());
  // Without its last line, last in the file or followed by another section: set aside.
  const std::string without_end = section.substr(0, section.size() - end.size()) + "\n";
  const std::string truncated = "truncated (its HashScope section does not end with End=1)";
  CHECK(check(windows + without_end, false).find(truncated) != std::string::npos);
  CHECK(check(windows + without_end + docking, false).find(truncated) != std::string::npos);
  // Cut anywhere after its header and before its End=1 is whole: set aside, the reason said.
  const std::size_t body = windows.size() + section.find('\n') + 1;
  const std::string file = windows + section;
  const std::size_t whole_end = file.size() - end.size() + std::string(k_settings_end_line).size();
  for (std::size_t cut = body; cut < whole_end; ++cut) {
    INFO("cut after " << cut << " bytes");
    const std::string notice = check(file.substr(0, cut), false);
    CHECK(notice.find("ignored") != std::string::npos);
    if (file[cut - 1] == '\n') CHECK(notice.find(truncated) != std::string::npos);
  }
}

TEST_CASE("text sizes outside 8-64 px are clamped with a notice", "[settings]") {
  std::string notice;
  CHECK(clamp_font_size(100.f, &notice) == 64.f);
  CHECK(notice.find("64") != std::string::npos);
  notice.clear();
  CHECK(clamp_font_size(2.f, &notice) == 8.f);
  CHECK_FALSE(notice.empty());
  notice.clear();
  CHECK(clamp_font_size(24.f, &notice) == 24.f);
  CHECK(notice.empty());
}
