// Reading name=value words of a family's scenario line.
#include "core/table/option_words.hpp"

#include <charconv>

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs {

void check_arity(const std::vector<std::string>& words, std::size_t lo, std::size_t hi,
                 std::string_view usage) {
  const std::size_t n = words.empty() ? 0 : words.size() - 1;
  if (n < lo || n > hi) throw user_error("usage: " + std::string(usage));
}

std::pair<std::string, std::string> split_option(const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos) throw user_error("'" + word + "' should be name=value");
  return {word.substr(0, eq), word.substr(eq + 1)};
}

double option_number(const std::string& value, std::string_view what) {
  double v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (r.ec != std::errc{} || r.ptr != value.data() + value.size())
    throw user_error("'" + value + "' is not a number (" + std::string(what) + ")");
  return v;
}

std::uint64_t option_size(const std::string& value, std::string_view what) {
  const auto v = parse_size(value);
  if (!v)
    throw user_error("'" + value + "' is not a " + std::string(what) +
                     " (examples: 1048576, 1M, 2^20)");
  return *v;
}

}  // namespace hs
