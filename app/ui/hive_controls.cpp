// The hive family's table controls: bucket size, threads per operation, hash policy, eviction
// depth, stash size and automatic resizing (applied by rebuilding), and instrumentation, which
// the running table switches at once.
#include <imgui.h>

#include "app/ui/app_frame.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_family.hpp"

namespace hs::app {

namespace {
// The policies bench hive compares: the default pair first.
constexpr const char* k_policies[] = {"bithash1+bithash2", "murmur3+city", "murmur3+bithash1", "crc32+murmur3",
                                      "bithash1+bithash2+city", "murmur3+city+crc32"};
}  // namespace

void app_frame::draw_hive_controls() {
  hive_options& o = pending_.table.hive;
  const int slots = o.bucket_slots ? o.bucket_slots : hive::k_default_slots;
  ImGui::TextDisabled("%s buckets of %d slots, %s of buckets", format_count(pending_.table.capacity / slots).c_str(), slots,
                      format_bytes(pending_.table.capacity * 8).c_str());
  int s = slots == 8 ? 0 : slots == 16 ? 1 : 2;
  if (ImGui::Combo("slots/bucket", &s, "8\00016 (fastest)\00032 (paper)\0")) {
    o.bucket_slots = 8 << s;
    if (o.tile > o.bucket_slots) o.tile = 0;
  }
  int t = o.tile == 0 ? 0 : o.tile == 2 ? 1 : o.tile == 4 ? 2 : o.tile == 8 ? 3 : o.tile == 16 ? 4 : 5;
  if (ImGui::Combo("threads/op", &t, "auto\0002\0004\0008\00016\00032 (paper)\0")) o.tile = t == 0 ? 0 : 1 << t;
  const std::string policy = o.hashes.empty() ? k_policies[0] : o.hashes;
  if (ImGui::BeginCombo("hashes", policy.c_str())) {
    for (const char* p : k_policies)
      if (ImGui::Selectable(p, policy == p)) o.hashes = p;
    ImGui::EndCombo();
  }
  ImGui::SliderInt("eviction depth", &o.eviction_depth, 0, hive::k_max_eviction_depth);
  float stash = static_cast<float>(o.stash_fraction * 100);
  if (ImGui::SliderFloat("stash", &stash, 0.f, 5.f, "%.1f%% of slots")) o.stash_fraction = stash / 100.0;
  ImGui::Checkbox("resize itself (linear hashing, 0.25 .. 0.9)", &o.auto_resize);
  if (auto* h = hive::as_hive(sess_->tbl()); h && hive()) {
    bool on = last_.stats.hive.instrumented;
    if (ImGui::Checkbox("instrumentation (applies now)", &on)) {
      h->set_instrumentation(on);
      o.instrument = on;
    }
  }
}

}  // namespace hs::app
