// The frame a histogram's axes were last set to (plot_helpers' setup_histogram_axes). The view
// that draws the histogram keeps it, one per plot, so the frame lives and goes with its plot.
#pragma once

namespace hs::vis {

struct histogram_frame {
  double x_min = 0, x_max = 0, top = 0;
  bool log = false;
  bool operator==(const histogram_frame&) const = default;
};

}  // namespace hs::vis
