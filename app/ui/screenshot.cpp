// Ctrl+S: the window as a PNG named by date and time, and the numbers behind it as the CSV that
// `render` writes beside its figures.
#include <chrono>
#include <ctime>
#include <filesystem>

#include "app/platform/png.hpp"
#include "app/ui/app_frame.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

std::string numbers_csv(const number_rows& rows) {
  const auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string csv = "name,value\n";
  for (const auto& [k, v] : rows) csv += quoted(k) + "," + quoted(v) + "\n";
  return csv;
}

std::string app_frame::save_screenshot(const std::vector<std::uint8_t>& rgba, int width,
                                       int height) {
  namespace fs = std::filesystem;
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&t, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  // Two shots in one second get a suffix instead of overwriting the first.
  fs::path png;
  for (int n = 0; n < 100; ++n) {
    png = fs::path(screenshot_dir) /
          (std::string("hashscope-") + stamp + (n ? strprintf("-%d", n) : "") + ".png");
    if (!fs::exists(png)) break;
  }
  fs::path csv = png;
  csv.replace_extension(".csv");
  try {
    write_png(png.string(), width, height, rgba);
    write_file_atomically(csv, numbers_csv(numbers()));
    notify("screenshot saved: " + png.string() + " (numbers: " + csv.filename().string() + ")");
  } catch (const std::exception& e) {
    notify(std::string("screenshot failed: ") + e.what());
    return {};
  }
  return png.string();
}

}  // namespace hs::app
