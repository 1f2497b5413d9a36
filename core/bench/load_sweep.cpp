// Load sweeps for the open-addressing suites.
#include "core/bench/load_sweep.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "core/common/error.hpp"

namespace hs::bench {

namespace {
double rounded(double v) { return std::round(v * 1e9) / 1e9; }

double number(const std::string& s, const std::string& whole) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    throw user_error("'" + whole + "' is not FROM:TO:STEP (for example 0.05:0.95:0.05)");
  return v;
}
}  // namespace

std::vector<double> parse_load_sweep(std::string_view text) {
  const std::string whole(text);
  const auto a = whole.find(':'), b = a == std::string::npos ? a : whole.find(':', a + 1);
  if (b == std::string::npos || whole.find(':', b + 1) != std::string::npos)
    throw user_error("'" + whole + "' is not FROM:TO:STEP (for example 0.05:0.95:0.05)");
  const double from = number(whole.substr(0, a), whole),
               to = number(whole.substr(a + 1, b - a - 1), whole),
               step = number(whole.substr(b + 1), whole);
  if (!(from > 0 && from <= to && to < 1))
    throw user_error("'" + whole + "' needs 0 < FROM <= TO < 1 (loads are keys / slots)");
  if (!(step > 0)) throw user_error("'" + whole + "' needs a STEP above 0");
  const double count = std::floor((to - from) / step + 1e-3) + 1;
  if (count > 1000) throw user_error("'" + whole + "' asks for more than 1000 loads");
  std::vector<double> out;
  for (int i = 0; i < static_cast<int>(count); ++i) out.push_back(rounded(from + i * step));
  return out;
}

std::vector<double> default_load_sweep(const std::vector<double>& beyond) {
  std::vector<double> out;
  for (int i = 1; i <= 19; ++i) out.push_back(rounded(0.05 * i));
  out.insert(out.end(), beyond.begin(), beyond.end());
  return out;
}

}  // namespace hs::bench
