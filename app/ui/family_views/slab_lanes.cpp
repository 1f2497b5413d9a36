// The slab hash's slab reads of one operation as the lanes of its tile, by slab_ops.cuh's rules.
#include "app/ui/family_views/slab_lanes.hpp"

#include <algorithm>
#include <bit>

#include "core/common/format.hpp"
#include "core/slab/slab_layout.hpp"

namespace hs::app {

std::vector<vis::tile_round> slab_lane_rounds(const stepped_op& op, const slab_chain& list,
                                              const slab::op_trace& t, int tile, slab_mode mode,
                                              key_radix radix) {
  std::vector<vis::tile_round> out;
  const int lanes = std::clamp(tile, 1, slab::k_slab_words), per = slab::k_slab_words / lanes;
  const bool insert = op.kind == op_kind::insert;
  const std::size_t shown =
      std::min(t.slabs_read + (t.linked_new_slab ? 1 : 0), list.slabs.size() + 1);
  for (std::size_t s = 0; s < shown; ++s) {
    const bool fresh = s >= list.slabs.size();  // the slab an insert linked
    vis::tile_round round;
    round.label = fresh ? std::string("a new slab from SlabAlloc, linked at the end")
                        : strprintf("slab %zu of bucket %llu's list", s,
                                    static_cast<unsigned long long>(list.bucket));
    round.lanes.resize(static_cast<std::size_t>(lanes));
    const bool decides = t.slab && *t.slab == s;
    for (int w = 0; w < slab::k_slab_words; ++w) {
      const std::uint32_t word = fresh ? (w == slab::k_next_word ? slab::k_null_address : k_empty)
                                       : list.slabs[s].words[w];
      vis::tile_word tw;
      if (w == slab::k_next_word) {
        tw = {word == slab::k_null_address ? "null" : "next", vis::k_tile_aux};
      } else if (w == slab::k_aux_word) {
        tw = {"", vis::k_tile_aux};
      } else if (w % 2 == 1) {
        tw = {word == k_empty ? "" : key_text(word, radix, false), vis::k_tile_aux};
      } else if (decides && insert && w == 2 * t.pair) {
        tw = {key_text(op.key, radix, false), vis::k_tile_claimed};
      } else if (word == k_empty) {
        tw = {"", vis::k_tile_empty};
      } else {
        tw = {key_text(word, radix, false), word == op.key ? vis::k_tile_key : vis::k_tile_other};
      }
      round.lanes[static_cast<std::size_t>(w / per)].push_back(std::move(tw));
    }
    round.word_base = 0;
    // The ballot's vote, lane by lane: a key word matching what the operation looks for.
    const bool unique = mode == slab_mode::unique;  // REPLACE also stops at the key
    for (int p = 0; p < slab::k_slab_pairs; ++p) {
      const std::uint32_t key = fresh ? k_empty : list.slabs[s].words[2 * p];
      const bool vote = insert ? key == k_empty || (unique && key == op.key) : key == op.key;
      if (vote) round.ballot |= 1u << ((2 * p) / per);
    }
    round.vote = insert ? "an empty pair (or the key)" : "holds the key";
    if (round.ballot) round.elected = std::countr_zero(round.ballot);
    if (decides) {
      round.actor = op.kind == op_kind::find ? round.elected : 0;
      round.action = op.kind == op_kind::find
                         ? strprintf("lane %d shuffles pair %d's value to the tile: found",
                                     round.elected, t.pair)
                         : strprintf("lane 0: one 64-bit CAS on pair %d (key and value): %s",
                                     t.pair, op.kind == op_kind::erase ? "erased" : "won");
    } else if (s + 1 < shown) {
      round.actor = (slab::k_next_word) / per;
      round.action = strprintf(
          "no pair decides: lane %d holds the next pointer, shuffled to the "
          "tile, and it reads the next slab",
          round.actor);
    }
    out.push_back(std::move(round));
  }
  return out;
}

}  // namespace hs::app
