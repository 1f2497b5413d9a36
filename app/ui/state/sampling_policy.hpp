// When the window samples its table, and how fresh what it shows is. A sample of a huge table
// reads it whole several times and competes with the table's own work, so while batches run the
// views sample within a share of the time. But a table at rest has no work to slow: when it has
// changed (a reset, a step, a rebuild) it is sampled at once, and every view shows the change
// within one sample's time. A wait after a slow sample is capped, so one slow sample never
// starves the views for long; a view whose sample is old says so.
#pragma once
#include <string>

namespace hs::app {

/// @brief A sample older than this is labelled with its age.
inline constexpr double k_stale_after_s = 1.0;

struct sampling_policy {
  double share = 0.05;      ///< of the time sampling may take while batches run (1: every frame)
  double period_s = 0;      ///< the least time between samples the user (or bench live) set
  double max_wait_s = 1.5;  ///< the most the share may hold a sample back after a slow one

  /// @brief Seconds between two samples while batches run, after one that took `last_seconds`.
  double wait_after(double last_seconds) const;
  /// @brief Whether to ask for a sample now: `since_request` seconds after the last request,
  /// `last_seconds` the last sample's duration, `changed` whether the table changed since the
  /// newest sample began, `at_rest` whether it will not change until told.
  bool due(double since_request, double last_seconds, bool changed, bool at_rest) const;
};

/// @brief How fresh the shown sample is.
struct sample_freshness {
  bool old = false;       ///< the table changed since it was taken (and a newer one is on its way)
  double age_s = 0;       ///< seconds since it finished
  bool sampling = false;  ///< a sample is being taken now
  bool never = false;     ///< nothing sampled yet
  bool before_fault = false;  ///< the GPU faulted: no later sample will come (session::lost)

  /// @brief Empty when fresh; else what a view writes above itself: "sampling...", "showing the
  /// table before its last change: sampling...", "sample 3.2 s old", or that the view shows the
  /// table as it was before the GPU fault.
  std::string label() const;
};

}  // namespace hs::app
