// Resolves the backend, runs the soak with a line per checkpoint, then each table's counts and
// the verdict as the last line (what a script or CI greps).
#include "app/commands/soak_command.hpp"

#include <iostream>

#include "core/common/format.hpp"

namespace hs::app {

int run_soak_command(const cli_options& o) {
  soak::soak_options opt = o.soak;
  std::string note;
  opt.b = resolve_backend(o.backend, &note);
  opt.progress = &std::cout;
  std::cout << (opt.b == backend::gpu ? "GPU backend: " : "CPU model backend: ") << note << "\n"
            << std::flush;
  const soak::soak_result r = soak::run_soak(opt);
  for (const auto& t : r.tables) {
    std::cout << strprintf(
        "%-24s %s operations in %.1f s, %s checkpoints, %s rebuilds, %s "
        "restores, %s live at the end, %s mismatches\n",
        t.name.c_str(), format_count(t.operations).c_str(), t.seconds,
        format_count(t.checkpoints).c_str(), format_count(t.rebuilds).c_str(),
        format_count(t.restores).c_str(), format_count(t.final_live).c_str(),
        format_count(t.mismatches).c_str());
    for (const auto& m : t.first) std::cout << "    " << m << "\n";
  }
  std::cout << r.verdict() << std::endl;
  return r.pass() ? 0 : 3;
}

}  // namespace hs::app
