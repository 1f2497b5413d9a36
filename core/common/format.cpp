// Formatting and parsing of sizes, rates and counts.
#include "core/common/format.hpp"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstdarg>
#include <cstdio>

namespace hs {

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  return u == 0 ? strprintf("%llu B", static_cast<unsigned long long>(bytes))
                : strprintf("%.2f %s", v, units[u]);
}

std::string format_rate(double per_second) {
  if (per_second >= 1e9) return strprintf("%.2f G/s", per_second / 1e9);
  if (per_second >= 1e6) return strprintf("%.1f M/s", per_second / 1e6);
  if (per_second >= 1e3) return strprintf("%.1f k/s", per_second / 1e3);
  return strprintf("%.0f /s", per_second);
}

std::string format_count(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  int lead = static_cast<int>(digits.size()) % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (static_cast<int>(i) - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::optional<std::uint64_t> parse_size(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t.starts_with("2^")) {
    unsigned e = 0;
    auto r = std::from_chars(t.data() + 2, t.data() + t.size(), e);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || e > 63) return std::nullopt;
    return std::uint64_t{1} << e;
  }
  std::uint64_t v = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec != std::errc{}) return std::nullopt;
  std::string_view rest(r.ptr, t.data() + t.size() - r.ptr);
  unsigned shift = 0;
  if (rest == "k" || rest == "K")
    shift = 10;
  else if (rest == "M" || rest == "m")
    shift = 20;
  else if (rest == "G" || rest == "g")
    shift = 30;
  else if (!rest.empty())
    return std::nullopt;
  if (shift && v > (~std::uint64_t{0} >> shift)) return std::nullopt;
  return v << shift;
}

std::string format_size(std::uint64_t n) {
  if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

std::string strprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string s(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, ap2);
  va_end(ap2);
  return s;
}

std::string key_text(std::uint64_t key, key_radix r, bool prefix) {
  if (r == key_radix::decimal) return std::to_string(key);
  return strprintf(prefix ? "0x%08llx" : "%08llx", static_cast<unsigned long long>(key));
}

}  // namespace hs
