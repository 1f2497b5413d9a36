// The lanes of one warp-cooperative operation, by the kernels' rules.
#include "app/ui/families/tile_lanes.hpp"

#include <algorithm>
#include <bit>

#include "core/common/format.hpp"
#include "core/slab/slab_layout.hpp"

namespace hs::app {

namespace {
std::string key_text(key_type k) { return k < 1000000 ? std::to_string(k) : strprintf("%08x", k); }
}  // namespace

std::vector<std::pair<ImU32, std::string>> tile_legend() {
  return {{vis::k_tile_key, "the key"},
          {vis::k_tile_other, "another key"},
          {vis::k_tile_empty, "empty"},
          {vis::k_tile_claimed, "the slot it takes"},
          {vis::k_tile_aux, "value / next pointer"}};
}

std::string tile_title(const stepped_op& op, int tile) {
  return strprintf("%s 0x%08x -> %s: a tile of %d lanes serves it",
                   std::string(to_string(op.kind)).c_str(), op.key,
                   std::string(to_string(op.status)).c_str(), tile);
}

std::vector<vis::tile_round> hive_lane_rounds(const stepped_op& op, const hive::op_trace& t,
                                              int tile) {
  std::vector<vis::tile_round> out;
  for (std::size_t i = 0; i < t.reads.size(); ++i) {
    const hive::bucket_read& r = t.reads[i];
    const int slots = static_cast<int>(r.words.size());
    const int lanes = std::clamp(tile, 1, slots), per = slots / lanes;
    const bool decides = static_cast<int>(i) == t.decided;
    vis::tile_round round;
    round.label =
        strprintf("bucket %llu (candidate %d)%s%s", static_cast<unsigned long long>(r.bucket),
                  r.candidate, r.pass == hive::kernel_pass::none ? "" : ", read by ",
                  r.pass == hive::kernel_pass::none ? "" : to_string(r.pass));
    round.lanes.resize(static_cast<std::size_t>(lanes));
    for (int s = 0; s < slots; ++s) {
      const hive::word_type w = r.words[static_cast<std::size_t>(s)];
      vis::tile_word tw;
      if (decides && t.step == hive::insert_step::claim && s == t.slot) {
        tw = {key_text(op.key), vis::k_tile_claimed};
      } else if (w == hive::k_empty_word) {
        tw = {"", vis::k_tile_empty};
      } else {
        tw = {key_text(hive::key_of(w)),
              hive::key_of(w) == op.key ? vis::k_tile_key : vis::k_tile_other};
      }
      round.lanes[static_cast<std::size_t>(s / per)].push_back(std::move(tw));
    }
    round.vote = r.pass == hive::kernel_pass::first || r.pass == hive::kernel_pass::common
                     ? "holds the key or a claim in flight"
                     : "holds the key";
    if (r.match >= 0) {
      round.elected = r.match / per;
      round.ballot = 1u << round.elected;
    }
    if (decides) {
      // The first pass: the operation's own thread (its place in the batch, modulo the tile)
      // acts, every thread of the warp at once; the later passes: lane 0 of the tile.
      const bool own = r.pass == hive::kernel_pass::first;
      round.actor = own ? static_cast<int>(t.position % static_cast<std::size_t>(lanes)) : 0;
      const std::string who =
          own ? strprintf("lane %d (the operation's own)", round.actor) : std::string("lane 0");
      if (op.kind == op_kind::find) {
        round.actor = round.elected;
        round.action = strprintf("lane %d shuffles the word of slot %d to the tile: found",
                                 round.elected, t.slot);
      } else if (op.kind == op_kind::erase) {
        round.action =
            strprintf("%s: CAS slot %d to empty, then sets its free bit: won", who.c_str(), t.slot);
      } else if (t.step == hive::insert_step::replace) {
        round.action = strprintf("%s: CAS slot %d to the new value: replaced", who.c_str(), t.slot);
      } else {
        round.action = strprintf(
            "%s: atomicAnd on the free mask takes slot %d (lane %d's), then stores the word",
            who.c_str(), t.slot, t.slot / per);
      }
    }
    out.push_back(std::move(round));
  }
  if (t.path && !out.empty()) {
    out.back().actor = 0;
    out.back().action = strprintf(
        "every candidate full: lane 0 alone finds and runs a %u-hop "
        "eviction path to bucket %llu",
        t.path->length, static_cast<unsigned long long>(t.path->dest));
  }
  return out;
}

std::vector<vis::tile_round> slab_lane_rounds(const stepped_op& op, const slab_chain& list,
                                              const slab::op_trace& t, int tile, slab_mode mode) {
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
        tw = {word == k_empty ? "" : key_text(word), vis::k_tile_aux};
      } else if (decides && insert && w == 2 * t.pair) {
        tw = {key_text(op.key), vis::k_tile_claimed};
      } else if (word == k_empty) {
        tw = {"", vis::k_tile_empty};
      } else {
        tw = {key_text(word), word == op.key ? vis::k_tile_key : vis::k_tile_other};
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
