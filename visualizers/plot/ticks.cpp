// Tick math, independent of ImGui so that it can be tested.
#include "visualizers/plot/ticks.hpp"

#include <cmath>

#include "core/common/format.hpp"

namespace hs::vis {

std::vector<double> linear_ticks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || target < 1) return {lo};
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi > lo)) return ticks;
  const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  const int count = last - first + 1;
  const int every = count > max_ticks ? (count + max_ticks - 1) / max_ticks : 1;
  for (int e = first; e <= last; e += every) ticks.push_back(std::pow(10.0, e));
  return ticks;
}

std::string tick_label(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 1e9) return strprintf("%gG", v / 1e9);
  if (a >= 1e6) return strprintf("%gM", v / 1e6);
  if (a >= 1e4) return strprintf("%gk", v / 1e3);
  if (a < 1e-3) return strprintf("%.0e", v);
  return strprintf("%g", v);
}

}  // namespace hs::vis
