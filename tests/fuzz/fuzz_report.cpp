// Bench reports as `plot` reads them back: any text is a report, no report, or refused with an
// error naming the file; a report that is read yields its figures' series without failing.
#include <cstdint>
#include <string>

#include "app/plot/plot_figures.hpp"
#include "app/plot/report_reader.hpp"
#include "core/common/error.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<hs::app::bench_report> r;
  try {
    r = hs::app::parse_report(text, "fuzz.json");
  } catch (const hs::user_error& e) {
    HS_FUZZ_CHECK(std::string(e.what()).find("fuzz.json") != std::string::npos, e.what());
    return 0;
  }
  if (!r) return 0;
  for (const auto& f : hs::app::figures_from_reports({*r}))
    for (const auto& p : f.figure.panels)
      for (const auto& s : p.data) HS_FUZZ_CHECK(s.x.size() == s.y.size(), f.file);
  return 0;
}
