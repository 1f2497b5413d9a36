// The frame code shared by the window and headless renders: one session, its views, sampling at
// display rate, the panel layout of the window, and single-view figures with their numbers.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/scenario.hpp"
#include "app/session.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/histogram_view.hpp"
#include "visualizers/views/hive_view.hpp"
#include "visualizers/views/slab_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

class app_frame {
 public:
  /// @brief `choice` is how the backend was chosen; the config's backend is the resolved one.
  app_frame(session_config cfg, backend_choice choice, std::string backend_note);
  ~app_frame();

  /// @brief The whole window: controls, heatmap, histogram, throughput, stats.
  void draw_window(float width, float height, bool first_frame);
  /// @brief One view filling the area, with the numbers beside it; returns the view's rectangle
  /// (x, y, w, h) inside the figure.
  std::array<float, 4> draw_figure(view_kind v, float width, float height, const std::string& title);

  /// @brief Samples now, for the heatmap area the last draw_figure() laid out.
  void sample_now();
  session& sess() { return *sess_; }
  vis::heatmap_view& heatmap() { return heatmap_; }
  const sample_result& last_sample() const { return last_; }
  const vis::heatmap_request& last_request() const { return last_req_; }
  const vis::heatmap_image& image() const { return *image_; }
  std::vector<std::pair<std::string, std::string>> numbers() const;

  /// @brief A font size the user asked for this frame (0: none), applied by the platform.
  float requested_font_size() const { return font_request_; }
  float font_size = 16.f;
  double sample_period_s = 0.0;  ///< 0: every frame
  bool quit_requested = false;

  /// @brief Applies a scenario as a preset: config, view settings, and its script.
  void load_preset(const scenario& sc);

 private:
  void sample(bool force);
  void rebuild(const session_config& cfg);
  void draw_controls();
  void draw_stats();
  void draw_status_line();

  std::unique_ptr<session> sess_;
  backend_choice choice_;
  std::string backend_note_;
  session_config pending_;
  vis::heatmap_view heatmap_;
  vis::histogram_view histogram_;
  vis::throughput_view throughput_;
  vis::churn_view churn_;
  vis::slab_view slab_;
  vis::hive_view hive_;
  bool slab() const { return sess_->config().table.family == family::slab; }
  bool hive() const { return sess_->config().table.family == family::hive; }
  void draw_hive_tabs();
  void draw_hive_controls();
  std::unique_ptr<vis::heatmap_image> image_;
  vis::heatmap_request last_req_{};
  sample_result last_;
  double last_sample_time_ = -1e9;
  float font_request_ = 0;
  float font_slider_ = 16.f;
  std::string error_;
  std::vector<std::string> presets_;
  int preset_ = 0;
  double target_load_ = 0.5;
  int step_ops_ = 0;
};

}  // namespace hs::app
