// Shared pieces of the linear GPU tests: a GPU table and its model built side by side, for either
// key width (the slot type W).
#pragma once
#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

namespace hs::test {

template <class W>
struct basic_linear_pair {
  static constexpr key_width width = linear::slot_traits<W>::width;
  using key = linear::key_of_t<W>;
  using value = linear::value_of_t<W>;
  std::unique_ptr<table> gpu;
  linear::basic_linear_model<W> model;

  basic_linear_pair(std::uint64_t capacity, hash_kind h, int group)
      : basic_linear_pair(capacity, h, group_of(group)) {}
  basic_linear_pair(std::uint64_t capacity, hash_kind h, linear_tuning tuning,
                    linear_delete_mode mode = linear_delete_mode::value,
                    probe_policy probe = probe_policy::linear)
      : gpu(make_gpu(capacity, h, tuning, mode, probe)),
        model(model_config(capacity, h, mode, probe)) {}

  static table_config model_config(std::uint64_t capacity, hash_kind h, linear_delete_mode mode,
                                   probe_policy probe = probe_policy::linear) {
    table_config c;
    c.capacity = capacity;
    c.hash = h;
    c.linear.deletes = mode;
    c.linear.probe = probe;
    c.width = width;
    return c;
  }
  static std::unique_ptr<table> make_gpu(std::uint64_t capacity, hash_kind h, linear_tuning tuning,
                                         linear_delete_mode mode, probe_policy probe) {
    table_config c = model_config(capacity, h, mode, probe);
    c.backend = backend::gpu;
    c.linear.tuning = tuning;
    return make_table(c);
  }

  /// The GPU table satisfies the invariants and holds exactly the model's live pairs, in the same
  /// set of occupied slots (linear probing's occupied set and total displacement do not depend on
  /// the order of insertion, so concurrent inserts must reproduce them).
  void check_same_contents() {
    const table_stats gst = gpu->stats({});
    const auto slots = linear::copy_slots<W>(*gpu);
    const linear::invariant_report r =
        linear::check_invariants(slots, gpu->config().hash, &gst, gpu->config().linear.deletes,
                                 gpu->config().linear.probe, linear::copy_reach(*gpu));
    INFO(r.describe());
    CHECK(r.ok());
    CHECK(contents<key, value>(*gpu) == contents<key, value>(model));
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

  /// The same keys and values and counts, and the GPU's invariants, where placement depends on
  /// the order of concurrent inserts (double hashing; tombstones two inserts race for).
  void check_same_keys() {
    const table_stats gst = gpu->stats({});
    const table_config c = gpu->config();
    const linear::invariant_report r =
        linear::check_invariants(linear::copy_slots<W>(*gpu), c.hash, &gst, c.linear.deletes,
                                 c.linear.probe, linear::copy_reach(*gpu));
    INFO(r.describe());
    CHECK(r.ok());
    CHECK(contents<key, value>(*gpu) == contents<key, value>(model));
    const table_stats mst = model.stats({});
    CHECK(gst.live == mst.live);
    CHECK(gst.erased == mst.erased);
    CHECK(gst.failed_full == mst.failed_full);
  }
  /// check_same_contents where placement is the model's whatever the order (linear probing with
  /// delete by value), else check_same_keys.
  void check_agrees() {
    const table_config c = gpu->config();
    if (c.linear.probe == probe_policy::linear && c.linear.deletes == linear_delete_mode::value)
      check_same_contents();
    else
      check_same_keys();
  }
};

using linear_pair = basic_linear_pair<linear::slot_word>;
using wide_linear_pair = basic_linear_pair<linear::wide_slot>;

}  // namespace hs::test
