// `capture animation` in render: a stage recorded as it runs (the heatmap filling, the histogram
// growing) into an MP4 through ffmpeg. The stage's steps are spread over its frames (a fill's
// target and a run's batches advance frame by frame), so the video is the same whatever the
// machine's speed. Without ffmpeg the frames are kept as numbered PNGs and the error says so.
#pragma once
#include <string>
#include <vector>

#include "app/platform/headless_platform.hpp"
#include "app/scenario/scenario.hpp"
#include "app/ui/app_frame.hpp"

namespace hs::app {

struct animation_result {
  std::string file;  ///< the MP4, or the first PNG frame without ffmpeg
  int frames = 0;
  bool video = false;
  std::string error;  ///< why there is no video (ffmpeg missing or failing)
};

/// @brief Runs `stage` (the steps since the previous capture) over the animation's frames and
/// records each frame of `a.view`; writes base.mp4 (through a temporary name).
animation_result record_animation(app_frame& frame, headless_platform& gl,
                                  const std::vector<scenario_step>& stage, const animation_spec& a,
                                  const std::string& base, int width, int height,
                                  const std::string& title);

}  // namespace hs::app
