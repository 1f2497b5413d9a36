// PNG encode/decode through libstb.
#include "app/platform/png.hpp"

#include <filesystem>

#include <stb_image.h>
#include <stb_image_write.h>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"

namespace hs::app {

void write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba) {
  const std::string tmp = temp_path_for(path);  // committed whole: never a torn PNG
  if (!stbi_write_png(tmp.c_str(), width, height, 4, rgba.data(), width * 4)) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw user_error("cannot write " + path);
  }
  commit_file(tmp, path);
}

std::vector<std::uint8_t> read_png(const std::string& path, int& width, int& height) {
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
  if (!data)
    throw user_error("cannot read " + path + ": " +
                     (stbi_failure_reason() ? stbi_failure_reason() : "?"));
  std::vector<std::uint8_t> out(data, data + static_cast<std::size_t>(width) * height * 4);
  stbi_image_free(data);
  return out;
}

}  // namespace hs::app
