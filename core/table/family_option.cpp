// Checking and applying a family's options.
#include "core/table/family_option.hpp"

#include <algorithm>
#include <cmath>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/option_words.hpp"

namespace hs {

const family_option* find_option(std::span<const family_option> options, std::string_view name) {
  for (const family_option& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

void apply_option(const family_option& o, table_config& cfg, const std::string& value) {
  if (!o.choices.empty()) {
    const bool listed = std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end();
    if (!listed && !o.open) {
      std::string list;
      for (std::string_view c : o.choices) list += (list.empty() ? "" : ", ") + std::string(c);
      throw user_error("unknown " + std::string(o.label) + " '" + value + "' (" + list + ")");
    }
  } else {
    const double v = option_number(value, o.label);
    if (!(v >= o.lo && v <= o.hi) || (o.whole && v != std::floor(v)))
      throw user_error(strprintf("%s must be %s from %g to %g", std::string(o.label).c_str(),
                                 o.whole ? "a whole number" : "a number", o.lo, o.hi));
  }
  o.set(cfg, value);
}

std::string option_names(std::span<const family_option> options) {
  std::string s;
  for (const family_option& o : options) s += (s.empty() ? "" : ", ") + std::string(o.name);
  return s;
}

}  // namespace hs
