// The terminal's progress line.
#include "app/session/terminal_progress.hpp"

#include <cstdio>
#include <memory>

#include "core/common/format.hpp"

namespace hs::app {

workload::load_progress terminal_progress(std::string what) {
  constexpr std::uint64_t k_worth_showing = 16u << 20;
  auto shown = std::make_shared<int>(-1);  // the last percentage written
  return [what = std::move(what), shown](std::uint64_t done, std::uint64_t total) {
    if (total < k_worth_showing) return;
    const int percent = static_cast<int>(100 * done / total);
    if (percent == *shown) return;
    *shown = percent;
    std::fprintf(stderr, "\r%s: %3d%% of %s", what.c_str(), percent, format_bytes(total).c_str());
    if (done >= total) std::fputc('\n', stderr);
    std::fflush(stderr);
  };
}

}  // namespace hs::app
