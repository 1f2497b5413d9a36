// Finding the assets folder (shaders, scenarios, colormaps) from wherever hashscope runs.
#pragma once
#include <filesystem>
#include <string>

namespace hs {

/// @brief The assets folder: $HASHSCOPE_ASSETS, else the first of <exe>/../assets,
/// <exe>/../../assets, ./assets and the source tree's that exists. Throws hs::user_error if none.
std::filesystem::path assets_dir();

/// @brief A file under the assets folder (throws hs::user_error naming it if it is missing).
std::filesystem::path asset_path(const std::string& relative);

}  // namespace hs
