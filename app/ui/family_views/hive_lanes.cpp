// The hive's bucket reads of one operation as the lanes of its tile, by the kernel's rules.
#include "app/ui/family_views/hive_lanes.hpp"

#include <algorithm>
#include <bit>

#include "core/common/format.hpp"

namespace hs::app {

std::vector<vis::tile_round> hive_lane_rounds(const stepped_op& op, const hive::op_trace& t,
                                              int tile, key_radix radix) {
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
        tw = {key_text(op.key, radix, false), vis::k_tile_claimed};
      } else if (w == hive::k_empty_word) {
        tw = {"", vis::k_tile_empty};
      } else {
        tw = {key_text(hive::key_of(w), radix, false),
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

}  // namespace hs::app
