// Axis labels with SI-style suffixes: counts and rates span many powers of ten, and "%g" would
// write 1.2e+07 where 12M reads at a glance.
#include "visualizers/axis_format.hpp"

#include <cmath>
#include <cstdio>

#include "core/common/format.hpp"

namespace hs::vis {

std::string tick_label(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 1e9) return strprintf("%gG", v / 1e9);
  if (a >= 1e6) return strprintf("%gM", v / 1e6);
  if (a >= 1e4) return strprintf("%gk", v / 1e3);
  if (a < 1e-3) return strprintf("%.0e", v);
  return strprintf("%g", v);
}

int format_tick(double value, char* buf, int size, void*) {
  return std::snprintf(buf, static_cast<std::size_t>(size), "%s", tick_label(value).c_str());
}

}  // namespace hs::vis
