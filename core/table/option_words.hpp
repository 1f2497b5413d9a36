// Reading a family's scenario line ("hive slots=16 depth=2"): name=value words and their values,
// with messages that say what to write. Errors are hs::user_error without file and line (the
// scenario parser adds them).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hs {

/// @brief Throws unless the line has lo..hi words after its keyword.
void check_arity(const std::vector<std::string>& words, std::size_t lo, std::size_t hi,
                 std::string_view usage);
/// @brief "name=value" split at the first '='; throws for a word without one.
std::pair<std::string, std::string> split_option(const std::string& word);
/// @brief A number; throws naming `what`.
double option_number(const std::string& value, std::string_view what);
/// @brief A count such as 1048576, 1M or 2^20; throws naming `what`.
std::uint64_t option_size(const std::string& value, std::string_view what);

}  // namespace hs
