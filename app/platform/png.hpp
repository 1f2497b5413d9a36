// PNG files for figures and screenshots (stb_image_write from Debian's libstb).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs::app {

/// @brief Writes top-row-first RGBA8 pixels through a temporary file committed into place
/// (hs::commit_file); throws hs::user_error naming the path on failure.
void write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba);
/// @brief Reads a PNG as RGBA8 (tests and tools); throws hs::user_error if it cannot.
std::vector<std::uint8_t> read_png(const std::string& path, int& width, int& height);

}  // namespace hs::app
