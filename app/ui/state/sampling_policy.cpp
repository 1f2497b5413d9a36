// The window's sampling policy and the freshness label.
#include "app/ui/state/sampling_policy.hpp"

#include <algorithm>

#include "core/common/format.hpp"

namespace hs::app {

double sampling_policy::wait_after(double last_seconds) const {
  const double by_share = last_seconds / std::clamp(share, 0.01, 1.0);
  return std::max(period_s, std::min(by_share, max_wait_s));
}

bool sampling_policy::due(double since_request, double last_seconds, bool changed,
                          bool at_rest) const {
  if (changed && at_rest) return true;  // nothing to slow down: show the change now
  return since_request >= wait_after(last_seconds);
}

std::string sample_freshness::label() const {
  if (before_fault)
    return never ? "nothing was sampled before the GPU fault"
                 : "showing the table as sampled before the GPU fault: nothing newer can be read";
  if (never) return "sampling...";
  std::string s;
  if (old)
    s = "showing the table before its last change";
  else if (age_s > k_stale_after_s)
    s = strprintf("sample %.1f s old", age_s);
  if (!s.empty() && sampling) s += ": sampling...";
  return s;
}

}  // namespace hs::app
