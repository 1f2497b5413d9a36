// A switch that can also be left to the code that uses it: automatic, forced on, forced off.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs {

/// @brief A switch that can also be left to the table: automatic, forced on, forced off.
enum class tri : std::uint8_t { automatic, on, off };
std::string_view to_string(tri t);
std::optional<tri> parse_tri(std::string_view s);

}  // namespace hs
