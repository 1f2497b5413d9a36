// The window's settings in imgui.ini: any file is used or set aside (renamed, with a notice),
// never read half; the settings section's lines read back to what writes them the same.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/ui/state/ui_settings.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  const std::string text(reinterpret_cast<const char*>(data), size);
  static const fs::path path =
      fs::temp_directory_path() / ("hashscope-fuzz-" + std::to_string(::getpid()) + ".ini");
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  std::string notice;
  bool first_launch = false;
  const hs::app::ui_settings s = hs::app::check_ini_file(path.string(), notice, first_launch);
  const bool set_aside = fs::exists(path.string() + ".ignored");
  HS_FUZZ_CHECK(set_aside == !notice.empty(), notice);  // set aside exactly when it says so
  if (set_aside) HS_FUZZ_CHECK(first_launch && !fs::exists(path), notice);
  std::error_code ec;
  fs::remove(path, ec);
  fs::remove(path.string() + ".ignored", ec);
  // The section as written, read back line by line, writes the same.
  const std::string written = hs::app::settings_text(s);
  hs::app::ui_settings back;
  std::istringstream in(written);
  for (std::string line; std::getline(in, line);) hs::app::read_settings_line(line.c_str(), back);
  HS_FUZZ_CHECK(hs::app::settings_text(back) == written, written);
  // Any single line reads without harm.
  hs::app::ui_settings any;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) hs::app::read_settings_line(line.c_str(), any);
  return 0;
}
