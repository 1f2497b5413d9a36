// A warp's lanes side by side: the operations one warp runs at once (one thread an operation),
// each a row of the slots its walk read, one probe after another. A warp issues one instruction
// for all its lanes, so it moves on only when its longest walk ends: the cells after a lane's end
// are time it spends waiting, which is why long clusters cost a GPU more than their mean probe.
// The family builds the lanes from its replayed step (the linear family: linear_ui.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "visualizers/figure/figure.hpp"

namespace hs::vis {

inline constexpr std::size_t k_warp_lanes = 32;

struct lane_row {
  std::string label;         ///< "insert 0x0000000c"
  std::vector<ImU32> cells;  ///< one a probe, coloured by what the operation did there
  std::string outcome;       ///< "inserted"
};

/// @brief How busy a warp's lanes were: the probes they made over (lanes x the longest walk).
double lanes_busy_share(const std::vector<lane_row>& lanes, std::size_t first, std::size_t count);

class warp_lanes_view {
 public:
  /// @brief The lanes of a whole step (warp w: lanes [32 w, 32 w + 32)) and what the cells'
  /// colours mean; shows the first warp.
  void set(std::vector<lane_row> lanes, std::vector<std::pair<ImU32, std::string>> legend);
  std::size_t warps() const;
  void show_warp(std::size_t w);
  void draw(float height);
  /// @brief The warp shown, for print: each lane's probes as markers by what they found, and the
  /// rounds it waits for the longest walk.
  fig::figure paper_figure() const;
  /// @brief "warp,lane,operation,probes,outcome,waited" rows.
  std::string csv() const;

  /// @brief What the last frame drew (tests read it).
  struct drawn_state {
    std::size_t warp = 0, warps = 0, lanes = 0, rounds = 0;
    double busy = 0;
    int frames = 0;
  };
  const drawn_state& drawn() const { return drawn_; }

 private:
  std::vector<lane_row> lanes_;
  std::vector<std::pair<ImU32, std::string>> legend_;
  std::size_t warp_ = 0;
  drawn_state drawn_;
};

}  // namespace hs::vis
