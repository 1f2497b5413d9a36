// The three-way switch shared by the families' options.
#include "core/common/tri.hpp"

namespace hs {

std::string_view to_string(tri t) {
  switch (t) {
    case tri::automatic: return "auto";
    case tri::on: return "on";
    case tri::off: return "off";
  }
  return "?";
}

std::optional<tri> parse_tri(std::string_view s) {
  for (tri t : {tri::automatic, tri::on, tri::off})
    if (to_string(t) == s) return t;
  return std::nullopt;
}

}  // namespace hs
