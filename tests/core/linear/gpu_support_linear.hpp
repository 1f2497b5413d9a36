// Shared pieces of the linear GPU tests: a GPU table and its model built side by side.
#pragma once
#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

namespace hs::test {

struct linear_pair {
  std::unique_ptr<table> gpu;
  linear::linear_model model;

  linear_pair(std::uint64_t capacity, hash_kind h, int group)
      : linear_pair(capacity, h, group_of(group)) {}
  linear_pair(std::uint64_t capacity, hash_kind h, linear_tuning tuning,
              linear_delete_mode mode = linear_delete_mode::value)
      : gpu(make(backend::gpu, capacity, h, tuning, mode)),
        model(model_config(capacity, h, mode)) {}

  static table_config model_config(std::uint64_t capacity, hash_kind h, linear_delete_mode mode) {
    table_config c;
    c.capacity = capacity;
    c.hash = h;
    c.linear.deletes = mode;
    return c;
  }

  /// The GPU table satisfies the invariants and holds exactly the model's live pairs, in the same
  /// set of occupied slots (linear probing's occupied set and total displacement do not depend on
  /// the order of insertion, so concurrent inserts must reproduce them).
  void check_same_contents() {
    const table_stats gst = gpu->stats({});
    const auto slots = linear::copy_slots(*gpu);
    const linear::invariant_report r =
        linear::check_invariants(slots, gpu->config().hash, &gst, gpu->config().linear.deletes,
                                 gpu->config().linear.probe, linear::copy_reach(*gpu));
    INFO(r.describe());
    CHECK(r.ok());
    CHECK(contents(*gpu) == contents(model));
    const table_stats mst = model.stats({});
    CHECK(gst.live == mst.live);
    CHECK(gst.erased == mst.erased);
    CHECK(gst.occupied == mst.occupied);
    std::size_t occupied_differs = 0;
    for (std::size_t s = 0; s < slots.size(); ++s)
      occupied_differs += linear::occupies(slots[s]) != linear::occupies(model.slots()[s]);
    CHECK(occupied_differs == 0);
    const linear::invariant_report mr = linear::check_invariants(model.slots(), gpu->config().hash);
    CHECK(r.displacement_sum == mr.displacement_sum);
  }
};

}  // namespace hs::test
