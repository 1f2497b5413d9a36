// The command line: any arguments (the input's lines) parse, or are refused with hs::user_error;
// --help and --version give their text. Nothing else escapes, nothing exits the process.
#include <cstdint>
#include <string>
#include <vector>

#include "app/commands/cli.hpp"
#include "core/common/error.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size && args.size() <= 32; ++i) {
    if (data[i] == '\n')
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  if (args.back().empty()) args.pop_back();
  try {
    const hs::app::cli_options o = hs::app::parse_cli(args);
    if (o.command == hs::app::command_kind::help)
      HS_FUZZ_CHECK(!o.help_text.empty(), "help without text");
  } catch (const hs::user_error& e) {
    HS_FUZZ_CHECK(std::string(e.what()).size() > 5, e.what());
  }
  return 0;
}
