// A switch that can also be left to the code that uses it: automatic, forced on, forced off.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs {

/// @brief A switch that can also be left to the table: automatic, forced on, forced off.
enum class auto_on_off : std::uint8_t { automatic, on, off };
std::string_view to_string(auto_on_off t);
std::optional<auto_on_off> parse_auto_on_off(std::string_view s);

}  // namespace hs
