// The GPUs window of a table over several devices: how they are linked, each device's load, probe
// lengths and virtual shards, the exchange matrix of the last batch (keys from GPU i to GPU j, a
// heat grid with its numbers), and each device's phases with the slowest one marked as the critical
// path. It keeps what it drew last, for the tests that read it back.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/ui/panels/panel.hpp"

namespace hs::app {

struct devices_drawn {
  std::uint32_t devices = 0;  ///< 0: the table is on one device (the window says so)
  std::string link;
  std::vector<std::uint64_t> live;    ///< each device's live keys
  std::vector<std::uint64_t> probed;  ///< each device's slots in its probe-length histogram
  std::vector<std::uint64_t> matrix;  ///< [i * devices + j]: keys from i to j, last batch
  std::vector<double> phase_ms;       ///< [i * k_shard_phases + phase]
  std::uint32_t slowest = 0;
  double wall_ms = 0;      ///< the last batch on the host clock
  std::string host_steps;  ///< what the window says of the time the phases leave
};

/// @brief What the GPUs window shows, drawn at the cursor (the window, and `capture gpus`).
void draw_devices(frame_state& f, devices_drawn& d);

/// @brief The control that moves the table to another number of devices (regpus), between
/// batches; `choice` keeps the number chosen from frame to frame.
void draw_regpus(frame_state& f, int& choice);

class devices_panel final : public panel {
 public:
  const char* title() const override { return "GPUs"; }
  void draw(frame_state& f) override;
  /// @brief Brings the window to the front when the table becomes sharded.
  void place(frame_state& f) override;
  const devices_drawn& drawn() const { return drawn_; }

 private:
  devices_drawn drawn_;
  int regpus_choice_ = 0;       ///< the devices the move control offers (0: not chosen yet)
  bool sharded_ = false;        ///< the table was sharded at the last frame
  bool focus_pending_ = false;  ///< sharded since: to the front once it draws
};

}  // namespace hs::app
