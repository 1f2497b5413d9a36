// Reading back what a test wrote (a file's whole text or bytes), and writing a file plainly, for
// the old file a crash test starts from (not the code under test).
#pragma once
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace hs::test {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_plain(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace hs::test
