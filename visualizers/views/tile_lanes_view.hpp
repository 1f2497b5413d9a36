// The lanes of one warp-cooperative operation (the slab hash, the hive): the tile of T threads
// that serves one operation reads a whole slab or bucket at once, each lane a few of its words;
// a ballot gathers every lane's vote ("I hold the key") into one mask, the lowest lane voting
// yes is elected, and one lane issues the atomic that decides. One round a row of T lane columns,
// each lane's words stacked in it; voting lanes outlined, the elected lane and the lane that
// issued the atomic marked. The family builds the rounds from its replayed step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "visualizers/figure/figure.hpp"

namespace hs::vis {

/// @brief The words' colours, shared by the families that build rounds.
inline constexpr ImU32 k_tile_empty = IM_COL32(70, 74, 82, 255);
inline constexpr ImU32 k_tile_other = IM_COL32(52, 92, 150, 255);     ///< another key
inline constexpr ImU32 k_tile_key = IM_COL32(46, 150, 90, 255);       ///< the operation's key
inline constexpr ImU32 k_tile_claimed = IM_COL32(215, 120, 40, 255);  ///< the slot it takes
inline constexpr ImU32 k_tile_aux = IM_COL32(100, 80, 130, 255);      ///< values, pointers

/// @brief One slot (or word) as a lane holds it.
struct tile_word {
  std::string text;  ///< "12" (a key), "" for an empty slot
  ImU32 fill = 0;
};

/// @brief One read of a slab or bucket by the whole tile, and what its lanes decided there.
struct tile_round {
  std::string label;                          ///< "bucket 5 (candidate 0), read by the first pass"
  std::vector<std::vector<tile_word>> lanes;  ///< per lane, the words it holds, in order
  std::string vote;                           ///< what the ballot asked ("holds the key")
  std::uint32_t ballot = 0;                   ///< bit l: lane l voted yes
  int elected = -1;                           ///< the lowest lane voting yes (-1: none)
  int actor = -1;                             ///< the lane that issued the atomic (-1: none)
  std::string action;                         ///< "lane 0: atomicAnd takes slot 5: won"
  int word_base = 0;  ///< the first word's number (slot or word of the slab) for the CSV
};

class tile_lanes_view {
 public:
  /// @brief The rounds of the operation shown, titled ("insert 0x0000000c -> inserted"), and what
  /// the words' colours mean.
  void set(std::string title, std::vector<tile_round> rounds,
           std::vector<std::pair<ImU32, std::string>> legend);
  void clear(std::string why);
  void draw(float height);
  /// @brief The operation for print: each read a row of cells (one a word, the lane number over
  /// each lane's first), voting lanes outlined in gold and the acting lane in red, with the
  /// ballot and the action under it.
  fig::figure paper_figure() const;
  /// @brief "round,label,lane,word,text,voted,elected,actor" rows.
  std::string csv() const;
  const std::string& title() const { return title_; }

  /// @brief What the last frame drew (tests read it).
  struct drawn_state {
    std::string title;
    std::size_t rounds = 0, lanes = 0;
    std::vector<std::uint32_t> ballots;
    std::vector<int> elected, actors;
    int frames = 0;
  };
  const drawn_state& drawn() const { return drawn_; }

 private:
  std::string title_, why_empty_;
  std::vector<tile_round> rounds_;
  std::vector<std::pair<ImU32, std::string>> legend_;
  drawn_state drawn_;
};

}  // namespace hs::vis
