// What the window tests of the Controls panel and the views share: the Controls panel's run-section
// buttons by their ID paths, a small table to drive, and a workload that runs until paused.
#pragma once
#include "app/session/session.hpp"

namespace hs::test {

inline constexpr const char* run_button = "//Controls/run-section/Run";
inline constexpr const char* pause_button = "//Controls/run-section/Pause";
inline constexpr const char* step_button = "//Controls/run-section/Step";
inline constexpr const char* reset_button = "//Controls/run-section/Reset";
inline constexpr const char* fill_button = "//Controls/run-section/Fill or drain to target";

inline app::session_config small_table(backend b = backend::cpu) {
  app::session_config cfg;
  cfg.table.backend = b;
  cfg.table.capacity = b == backend::gpu ? (1u << 24) : (1u << 14);
  cfg.workload.batch_size = b == backend::gpu ? (1u << 18) : (1u << 9);
  return cfg;
}

// A workload that runs until paused: half inserts of keys from a quarter of the table's size
// (they soon only overwrite), half lookups, so the table never fills and Run never stops itself.
inline workload::workload_spec endless(const app::session_config& cfg) {
  workload::workload_spec w = cfg.workload;
  w.keys.dist = workload::distribution::uniform_dup;
  w.keys.universe = cfg.table.capacity / 4;
  w.mix = {0.5, 0.5, 0, 0};
  return w;
}

}  // namespace hs::test
