// The window's frame pacing.
#include "app/ui/state/frame_pacing.hpp"

#include <algorithm>

namespace hs::app {

double frame_pacing::wait_before_next(double since_input, double since_frame,
                                      bool table_changing) const {
  if (!table_changing || watching_hz <= 0 || since_input < input_grace_s) return 0;
  return std::max(0.0, 1.0 / watching_hz - since_frame);
}

}  // namespace hs::app
