// The slot occupancy window: the backend, what the session does and the load of the sample
// shown, how fresh that sample is, and the heatmap. It keeps what it drew last (the sample's
// version and stats), for the tests that read what a person sees.
#pragma once
#include <string>
#include <vector>

#include "app/ui/panels/panel.hpp"

namespace hs::app {

class heatmap_panel final : public panel {
 public:
  const char* title() const override;
  ImGuiWindowFlags flags() const override { return ImGuiWindowFlags_NoScrollbar; }
  void draw(frame_state& f) override;

  struct drawn_sample {
    std::uint64_t version = 0;
    table_stats stats;
    bool marked_old = false;
    int frames = 0;                  ///< frames drawn
    std::vector<std::string> bands;  ///< the shards' bands labelled in view ("device 0", ...)
  };
  const drawn_sample& drawn() const { return drawn_; }

 private:
  drawn_sample drawn_;
};

/// @brief A table over several devices: a band a shard, labelled with its device ("GPU 1"); else
/// none.
std::vector<vis::slot_band> shard_bands(const sample_result& s);

/// @brief "CPU model backend | idle | load 0.5000 | 4,194,304", with the session's note.
void draw_status_line(const frame_state& f);
void draw_backend_label(const frame_state& f);
/// @brief The session's last note (errors in the theme's error colour), after `prefix`.
void draw_note(const frame_state& f, const session_status& st, const char* prefix);

}  // namespace hs::app
