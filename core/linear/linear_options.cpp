// The linear family's option names.
#include "core/linear/linear_options.hpp"

namespace hs {

std::string_view to_string(linear_delete_mode m) {
  return m == linear_delete_mode::value ? "value" : "tombstone";
}

std::optional<linear_delete_mode> parse_delete_mode(std::string_view s) {
  if (s == "value") return linear_delete_mode::value;
  if (s == "tombstone") return linear_delete_mode::tombstone;
  return std::nullopt;
}

std::string_view to_string(probe_policy p) {
  return p == probe_policy::linear ? "linear" : "double";
}

std::optional<probe_policy> parse_probe_policy(std::string_view s) {
  if (s == "linear") return probe_policy::linear;
  if (s == "double") return probe_policy::double_hash;
  return std::nullopt;
}

std::string describe(const linear_tuning& t) {
  return "group " + (t.group ? std::to_string(t.group) : std::string("auto")) + ", cas-first " +
         std::string(to_string(t.cas_first)) + ", partition " + std::string(to_string(t.partition));
}

}  // namespace hs
