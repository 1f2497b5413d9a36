// How often the window draws. A frame drawn on the GPU that runs the table takes time from it: on
// the H200 the switch to graphics and back costs about half a millisecond of the table's work a
// frame even when the frame is empty, and the window's 1920x1080 frame 0.7 ms of graphics time
// more (`hashscope bench live`, app/README.md). While the user only watches a running table (no
// input for a moment), the window draws at a watching rate; input, and a table at rest, get the
// display's full rate (vsync paces it).
#pragma once

namespace hs::app {

struct frame_pacing {
  double watching_hz = 30;   ///< frames a second while the table runs untouched (0: the display's)
  double input_grace_s = 1;  ///< after input, the display's rate for this long

  /// @brief Seconds to wait for input before the next frame begins, `since_input` seconds after
  /// the last input and `since_frame` after this frame began, `table_changing` whether batches or
  /// a rebuild are running; 0: draw the next frame at once.
  double wait_before_next(double since_input, double since_frame, bool table_changing) const;
};

}  // namespace hs::app
