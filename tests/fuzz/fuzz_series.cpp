// plot --series files: any text is a set of series every figure can draw (a label, loads in 0-1
// in ascending order, rates not negative, each range around its rate) or refused with an error
// naming the file.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "app/plot/plot_series_csv.hpp"
#include "core/common/error.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // read_series_csv reads a file, as plot does: one per process, rewritten for each input.
  static const std::string path = "/tmp/hs-fuzz-series-" + std::to_string(getpid()) + ".csv";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  std::vector<hs::app::extra_series> all;
  try {
    all = hs::app::read_series_csv(path);
  } catch (const hs::user_error& e) {
    HS_FUZZ_CHECK(std::string(e.what()).find(path) != std::string::npos, e.what());
    return 0;
  }
  HS_FUZZ_CHECK(!all.empty(), "a file read without error holds a series");
  for (const auto& s : all) {
    HS_FUZZ_CHECK(!s.label.empty(), s.file);
    HS_FUZZ_CHECK(!s.load.empty() && s.load.size() == s.rate.size(), s.label);
    HS_FUZZ_CHECK(s.lo.empty() || (s.lo.size() == s.load.size() && s.hi.size() == s.load.size()),
                  s.label);
    for (std::size_t i = 0; i < s.load.size(); ++i) {
      HS_FUZZ_CHECK(s.load[i] > 0 && s.load[i] <= 1, s.label);
      HS_FUZZ_CHECK(i == 0 || s.load[i - 1] < s.load[i], s.label);
      HS_FUZZ_CHECK(s.rate[i] >= 0, s.label);
      HS_FUZZ_CHECK(s.lo.empty() || (s.lo[i] <= s.rate[i] && s.rate[i] <= s.hi[i]), s.label);
    }
  }
  return 0;
}
