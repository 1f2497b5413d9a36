// Scenario files: any text either parses, or is refused with an error that names the file and a
// line ("fuzz.scn:12: ..."), never anything else. A scenario that parses prints (print_scenario)
// as lines that parse again, to a scenario that prints the same.
#include <cctype>
#include <cstdint>
#include <string>

#include "app/scenario/scenario.hpp"
#include "app/scenario/scenario_writer.hpp"
#include "core/common/error.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {
bool names_file_and_line(const std::string& e) {
  const std::string head = "fuzz.scn:";
  if (e.rfind(head, 0) != 0) return false;
  std::size_t i = head.size();
  const std::size_t digits = i;
  while (i < e.size() && std::isdigit(static_cast<unsigned char>(e[i]))) ++i;
  return i > digits && e.compare(i, 2, ": ") == 0;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hs::app::scenario sc;
  try {
    sc = hs::app::parse_scenario(text, "fuzz.scn");
  } catch (const hs::user_error& e) {
    HS_FUZZ_CHECK(names_file_and_line(e.what()), e.what());
    return 0;
  }
  const std::string printed = hs::app::print_scenario(sc);
  hs::app::scenario again;
  try {
    again = hs::app::parse_scenario(printed, "printed.scn");
  } catch (const hs::user_error& e) {
    HS_FUZZ_CHECK(false, std::string(e.what()) + "\n--- printed:\n" + printed);
  }
  const std::string reprinted = hs::app::print_scenario(again);
  HS_FUZZ_CHECK(reprinted == printed,
                "--- printed:\n" + printed + "--- printed again:\n" + reprinted);
  return 0;
}
