// The timeline under the Run controls: the session's commands as marks (history.hpp), oldest
// first, each with its command and the stage's caption in its tooltip; a click takes the table
// back to before that command. Where the history's budget let older states go, or a table is too
// large for one state, the strip says so.
#pragma once

namespace hs::app {

struct frame_state;

/// @brief Draws the strip (inside the Controls window).
void draw_history_strip(frame_state& f);

}  // namespace hs::app
