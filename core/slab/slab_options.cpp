// The slab family's option names.
#include "core/slab/slab_options.hpp"

namespace hs {

std::string_view to_string(slab_mode m) { return m == slab_mode::unique ? "unique" : "multi"; }

std::optional<slab_mode> parse_slab_mode(std::string_view s) {
  if (s == "unique") return slab_mode::unique;
  if (s == "multi") return slab_mode::multi;
  return std::nullopt;
}

}  // namespace hs
