// Asset lookup: environment first, then places relative to the executable (installed, or a build
// tree), then the source tree.
#include "core/common/assets.hpp"

#include <cstdlib>
#include <vector>

#include "core/common/error.hpp"

namespace hs {

namespace fs = std::filesystem;

fs::path assets_dir() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("HASHSCOPE_ASSETS")) candidates.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / "share" /
                         "hashscope");  // installed: bin/../share/hashscope
    candidates.push_back(exe.parent_path().parent_path() / "assets");
    candidates.push_back(exe.parent_path().parent_path().parent_path() / "assets");
  }
  candidates.push_back(fs::current_path(ec) / "assets");
#ifdef HS_SOURCE_ASSETS_DIR
  candidates.emplace_back(HS_SOURCE_ASSETS_DIR);
#endif
  for (const fs::path& c : candidates)
    if (fs::is_directory(c / "colormaps", ec)) return c;
  throw user_error(
      "cannot find the assets folder (colormaps, scenarios); set HASHSCOPE_ASSETS to it");
}

fs::path asset_path(const std::string& relative) {
  const fs::path p = assets_dir() / relative;
  if (!fs::exists(p)) throw user_error("missing asset " + p.string());
  return p;
}

}  // namespace hs
