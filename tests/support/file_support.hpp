// Reading back what a test wrote: a file's whole text.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hs::test {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace hs::test
