// The Throughput window: every retired batch's rate against time and against the load it ran at.
// It keeps what it drew last, for the tests that read what a person sees.
#pragma once
#include "app/ui/panels/panel.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

class throughput_panel final : public panel {
 public:
  const char* title() const override { return "Throughput"; }
  void draw(frame_state& f) override;
  /// @brief The series and the "last batch" line drawn in the last frame.
  const vis::throughput_input& drawn() const { return drawn_; }

 private:
  vis::throughput_view view_;
  vis::throughput_input drawn_;
};

}  // namespace hs::app
