// The replay behind step mode's outlines: where each operation kind decides on a list image.
#include <catch2/catch_test_macros.hpp>

#include "core/slab/slab_layout.hpp"
#include "core/slab/slab_trace.hpp"

using namespace hs;
using namespace hs::slab;

namespace {
/// A list of `slabs` slabs holding keys 100, 101, ... in order (value = key + 1), `filled` pairs in
/// all.
slab_chain list_of(int slabs, int filled) {
  slab_chain c;
  c.bucket = 3;
  for (int s = 0; s < slabs; ++s) {
    slab_record r;
    if (s > 0) r.address = 1000 + s;
    for (int p = 0; p < k_slab_pairs; ++p) {
      const int i = s * k_slab_pairs + p;
      r.words[2 * p] = i < filled ? 100 + i : k_empty;
      r.words[2 * p + 1] = i < filled ? 101 + i : k_empty;
    }
    r.words[k_next_word] = s + 1 < slabs ? 1001 + s : k_null_address;
    c.slabs.push_back(r);
  }
  c.total = c.slabs.size();
  return c;
}
}  // namespace

TEST_CASE("replay: SEARCH stops at the key's slab, a miss reads the whole list", "[slab][trace]") {
  slab_chain c = list_of(3, 40);
  const op_trace hit =
      replay_op(c, op_kind::find, 100 + 17, 0, op_status::found, slab_mode::unique);
  CHECK(hit.slabs_read == 2);
  CHECK(*hit.slab == 1);
  CHECK(hit.pair == 2);
  CHECK_FALSE(hit.changed);
  const op_trace miss = replay_op(c, op_kind::find, 7, 0, op_status::missing, slab_mode::unique);
  CHECK(miss.slabs_read == 3);
  CHECK_FALSE(miss.slab);
}

TEST_CASE("replay: REPLACE takes the key's pair or the first empty; INSERT (multi) the first empty",
          "[slab][trace]") {
  slab_chain c = list_of(3, 40);
  const op_trace rep =
      replay_op(c, op_kind::insert, 105, 9, op_status::replaced, slab_mode::unique);
  CHECK(*rep.slab == 0);
  CHECK(rep.pair == 5);
  CHECK(c.slabs[0].words[11] == 9);
  const op_trace ins = replay_op(c, op_kind::insert, 7, 8, op_status::inserted, slab_mode::unique);
  CHECK(*ins.slab == 2);
  CHECK(ins.pair == 10);
  CHECK(c.slabs[2].words[20] == 7);
  const op_trace dup = replay_op(c, op_kind::insert, 105, 4, op_status::inserted, slab_mode::multi);
  CHECK(*dup.slab == 2);
  CHECK(dup.pair == 11);  // a second copy, not the first one replaced
  CHECK(c.slabs[0].words[11] == 9);
}

TEST_CASE("replay: DELETE leaves a tombstone (unique) or an empty pair (multi)", "[slab][trace]") {
  slab_chain u = list_of(1, 10), m = list_of(1, 10);
  CHECK(replay_op(u, op_kind::erase, 104, 0, op_status::erased, slab_mode::unique).changed);
  CHECK(u.slabs[0].words[8] == k_tombstone);
  CHECK(replay_op(m, op_kind::erase, 104, 0, op_status::erased, slab_mode::multi).changed);
  CHECK(m.slabs[0].words[8] == k_empty);
  CHECK(m.slabs[0].words[9] == k_empty);
  const op_trace again =
      replay_op(u, op_kind::erase, 104, 0, op_status::missing, slab_mode::unique);
  CHECK_FALSE(again.changed);
  CHECK(again.slabs_read == 1);
}

TEST_CASE("replay: a full list links a new slab; failed_full and rejected change nothing",
          "[slab][trace]") {
  slab_chain c = list_of(2, 30);
  slab_chain full = c;
  const op_trace failed =
      replay_op(full, op_kind::insert, 5, 6, op_status::failed_full, slab_mode::unique);
  CHECK(failed.slabs_read == 2);
  CHECK_FALSE(failed.changed);
  CHECK(full.slabs.size() == 2);
  const op_trace rejected =
      replay_op(full, op_kind::insert, k_tombstone, 6, op_status::rejected_key, slab_mode::unique);
  CHECK(rejected.slabs_read == 0);
  const op_trace linked =
      replay_op(c, op_kind::insert, 5, 6, op_status::inserted, slab_mode::unique);
  CHECK(linked.linked_new_slab);
  CHECK(linked.slabs_read == 2);
  CHECK(*linked.slab == 2);
  CHECK(linked.pair == 0);
  REQUIRE(c.slabs.size() == 3);
  CHECK(c.slabs[2].words[0] == 5);
  CHECK(c.slabs[2].words[1] == 6);
  CHECK(c.total == 3);
}
