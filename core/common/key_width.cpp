// Reading and writing a key width: the one place its spellings live.
#include "core/common/key_width.hpp"

#include "core/common/error.hpp"

namespace hs {

std::string_view to_string(key_width w) { return k_key_width_names[static_cast<unsigned>(w)]; }

std::optional<key_width> parse_key_width(std::string_view s) {
  for (unsigned i = 0; i < std::size(k_key_width_names); ++i)
    if (s == k_key_width_names[i]) return static_cast<key_width>(i);
  return std::nullopt;
}

key_width key_width_from(std::string_view s) {
  if (const auto w = parse_key_width(s)) return *w;
  throw user_error("'" + std::string(s) + "' is not " + std::string(k_key_width_choices));
}

}  // namespace hs
