// Checks a session's last traced step against the table: replaying every operation on the list
// its bucket had before the step must give the list the table holds now, and each operation's
// status and result must agree with where the replay says it decided.
#pragma once
#include <cstddef>
#include <map>

#include <catch2/catch_test_macros.hpp>

#include "app/session/session.hpp"
#include "core/slab/slab_layout.hpp"
#include "core/slab/slab_trace.hpp"

namespace hs::test {

inline void check_step_against_table(app::session& s, std::size_t ops) {
  const auto t = s.last_step();
  REQUIRE(t);
  REQUIRE(t->ops.size() == ops);
  const slab_mode mode = s.config().table.slab.mode;
  std::map<std::uint64_t, slab_chain>
      replayed;  // bucket -> its list after the step's operations on it
  for (const stepped_op& op : t->ops) {
    REQUIRE(op.list_before);
    REQUIRE(op.status != op_status::none);
    auto it = replayed.try_emplace(op.list_before->bucket, *op.list_before).first;
    const slab_chain before_op = it->second;
    const slab::op_trace path =
        slab::replay_op(it->second, op.kind, op.key, op.value, op.status, mode);
    CHECK(path.slabs_read >= 1);
    const bool decided = path.slab.has_value();
    switch (op.kind) {
      case op_kind::find:
        CHECK((op.status == op_status::found) == decided);
        if (decided) CHECK(op.result == before_op.slabs[*path.slab].words[2 * path.pair + 1]);
        break;
      case op_kind::erase: CHECK((op.status == op_status::erased) == path.changed); break;
      case op_kind::insert:
        REQUIRE(path.changed);
        if (!path.linked_new_slab)
          CHECK((op.status == op_status::replaced) ==
                (before_op.slabs[*path.slab].words[2 * path.pair] == op.key));
        break;
    }
  }
  for (const auto& [bucket, expected] : replayed) {
    inspect_request ir;
    ir.slab.chain_bucket = bucket;
    inspect_result now;
    s.tbl().inspect(ir, now, {});
    REQUIRE(now.slab.chain.slabs.size() == expected.slabs.size());
    for (std::size_t sl = 0; sl < expected.slabs.size(); ++sl)
      for (int w = 0; w < 2 * slab::k_slab_pairs; ++w)
        CHECK(now.slab.chain.slabs[sl].words[w] == expected.slabs[sl].words[w]);
  }
}

}  // namespace hs::test
