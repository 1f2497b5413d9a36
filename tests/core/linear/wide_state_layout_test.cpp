// 64-bit table files saved before homes moved to the first slot of their 64-byte line
// (linear_state.hpp): opened on either backend, every key is placed again from its new home, so
// none is lost behind an empty slot; a state taken since carries its home_line and opens as it is.
#include <cstring>
#include <filesystem>

#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "core/linear/linear_state.hpp"
#include "core/table/table_file.hpp"
#include "core/table/table_state.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {

constexpr wide_key k_high = wide_key{1} << 32;

table_config identity_wide(std::uint64_t capacity, backend b) {
  table_config cfg;
  cfg.backend = b;
  cfg.capacity = capacity;
  cfg.hash = hash_kind::identity;
  cfg.width = key_width::bits64;
  return cfg;
}

/// A file as the build before line-start homes saved it: 16 slots under the identity hash, each
/// key placed from home = key mod 16, and no home_line number. From the line-start homes (5, 6
/// and 5 + 2^32 start at slot 4), slot 4 is empty: read as they are, the keys would be lost.
std::string old_layout_file(const std::string& name) {
  wide_linear_model empty(identity_wide(16, backend::cpu));
  table_state st = empty.save_state({});
  std::erase_if(st.numbers, [](const auto& n) { return n.first == k_home_line_number; });
  for (auto& [number, value] : st.numbers)
    if (number == k_longest_probe) value = 1;
  std::vector<wide_slot> slots(16, slot_traits<wide_slot>::empty());
  slots[5] = {5, 50};
  slots[6] = {5 + k_high, 51};                            // home 5, one slot on
  slots[7] = {6, 60};                                     // home 6, one slot on
  slots[9] = {9, slot_traits<wide_slot>::empty().value};  // erased by value: the key keeps its slot
  slots[14] = {14, 140};
  for (state_part& p : st.parts)
    if (p.name == k_slots_part) std::memcpy(p.bytes.data(), slots.data(), p.bytes.size());
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  write_table_file(path, st, {});
  return path;
}

void check_every_key_kept(table& t) {
  const std::vector<wide_key> keys = {5, 5 + k_high, 6, 14, 9};
  const auto found = test::find(t, keys);
  CHECK(found.status == std::vector<op_status>{op_status::found, op_status::found, op_status::found,
                                               op_status::found, op_status::missing});
  CHECK(found.values[0] == 50);
  CHECK(found.values[1] == 51);
  CHECK(found.values[2] == 60);
  CHECK(found.values[3] == 140);
  const table_stats st = t.stats({});
  CHECK(st.live == 4);
  CHECK(st.occupied == 5);  // the erased key still holds a slot
  const std::vector<wide_slot> slots = copy_slots<wide_slot>(t);
  CHECK(slots[4].key == 5);  // placed again from its line's first slot
  CHECK(slots[8].key == 9);
  CHECK(check_invariants(std::span<const wide_slot>(slots), hash_kind::identity, &st).ok());
}

}  // namespace

TEST_CASE("a 64-bit table file saved before line-start homes opens with every key placed again",
          "[linear][model][wide]") {
  const std::string path = old_layout_file("hs_old_wide_layout.hstable");
  auto t = open_table(path, backend::cpu, {});
  check_every_key_kept(*t);
  // Saved again, it carries its homes' alignment and opens as it is.
  const table_state again = t->save_state({});
  CHECK(again.number(k_home_line_number) == 4);
  auto copy = make_table(identity_wide(16, backend::cpu));
  copy->restore_state(again, {});
  CHECK(copy_slots<wide_slot>(*copy) == copy_slots<wide_slot>(*t));
  std::filesystem::remove(path);
}

TEST_CASE("a 64-bit table file saved before line-start homes opens on the GPU with every key kept",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const std::string path = old_layout_file("hs_old_wide_layout_gpu.hstable");
  auto t = open_table(path, backend::gpu, {});
  check_every_key_kept(*t);
  auto model = open_table(path, backend::cpu, {});
  CHECK(copy_slots<wide_slot>(*t) == copy_slots<wide_slot>(*model));
  std::filesystem::remove(path);
}
