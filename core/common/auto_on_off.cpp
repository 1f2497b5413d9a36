// The three-way switch shared by the families' options.
#include "core/common/auto_on_off.hpp"

namespace hs {

std::string_view to_string(auto_on_off t) {
  switch (t) {
    case auto_on_off::automatic: return "auto";
    case auto_on_off::on: return "on";
    case auto_on_off::off: return "off";
  }
  return "?";
}

std::optional<auto_on_off> parse_auto_on_off(std::string_view s) {
  for (auto_on_off t : {auto_on_off::automatic, auto_on_off::on, auto_on_off::off})
    if (to_string(t) == s) return t;
  return std::nullopt;
}

}  // namespace hs
