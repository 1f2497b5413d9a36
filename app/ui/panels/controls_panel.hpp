// The controls: run, pause, step, reset, fill to a target; presets; the workload (applied to the
// next batch); the table (applied by rebuilding); maintenance; display (text size, theme,
// sampling). Hidden in presenter mode.
#pragma once
#include <string>
#include <vector>

#include "app/ui/panels/panel.hpp"

namespace hs::app {

class controls_panel final : public panel {
 public:
  controls_panel();
  const char* title() const override;
  bool shown(const frame_state& f) const override { return !f.presenting; }
  void draw(frame_state& f) override;

  /// @brief What the preset combo showed last frame: the loaded preset's name, "NAME (a file)",
  /// or "none loaded" (tests read it).
  const std::string& preset_shown() const { return preset_shown_; }

 private:
  void draw_run(frame_state& f, const session_status& st);
  void draw_workload(frame_state& f);
  void draw_typed_keys(frame_state& f);
  void draw_key_file(frame_state& f, const workload::workload_spec& w);
  void draw_table(frame_state& f);
  void draw_maintenance(frame_state& f);
  void draw_display(frame_state& f);

  session_config pending_;  // the Table section's settings until Apply
  std::uint64_t pending_serial_ =
      ~0ull;  // the table they were taken from (frame_state::table_serial)
  std::vector<std::string> presets_;
  std::string preset_shown_;                       // what the preset combo drew last
  int preset_ = -1;                                // the preset the combo shows (-1: none)
  std::uint64_t loaded_seen_ = ~std::uint64_t{0};  // frame_state::loaded_serial it showed
  float font_slider_ = 16.f;
};

}  // namespace hs::app
