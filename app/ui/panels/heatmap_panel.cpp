// The slot occupancy window and the status line every sampled figure shows.
#include "app/ui/panels/heatmap_panel.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/common/format.hpp"

namespace hs::app {

const char* heatmap_panel::title() const { return "Slot occupancy"; }

void draw_backend_label(const frame_state& f) {
  const bool cpu = !f.sess->gpu();
  ImGui::TextColored(role_color(cpu ? ui_role::cpu_backend : ui_role::gpu_backend, f.ui_theme),
                     "%s", cpu ? "CPU model backend" : f.sess->backend_label().c_str());
}

void draw_note(const frame_state& f, const session_status& st, const char* prefix) {
  if (st.note.empty()) return;
  const ImVec4 c = st.error ? role_color(ui_role::error, f.ui_theme)
                            : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  ImGui::TextColored(c, "%s%s", prefix, st.note.c_str());
}

void draw_status_line(const frame_state& f) {
  const session_status st = f.sess->status();
  draw_backend_label(f);
  ImGui::SameLine();
  ImGui::Text("| %s | load %.4f | %s", to_string(st.act), f.sample.stats.load_factor(),
              format_count(f.sample.stats.capacity).c_str());
  if (!st.note.empty()) ImGui::SameLine();
  draw_note(f, st, "| ");
}

void draw_freshness(const frame_state& f) {
  if (!f.sampling_error.empty())
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", f.sampling_error.c_str());
  const std::string label = f.freshness.label();
  if (label.empty()) return;
  ImGui::TextColored(role_color(ui_role::cpu_backend, f.ui_theme), "%s", label.c_str());
}

std::vector<vis::slot_band> shard_bands(const sample_result& s) {
  std::vector<vis::slot_band> bands;
  if (!s.shards) return bands;
  std::uint64_t first = 0;
  for (std::size_t d = 0; d < s.shards->devices.size(); ++d) {
    bands.push_back({first, (s.shards->simulated ? "device " : "GPU ") + std::to_string(d)});
    first += s.shards->devices[d].capacity;
  }
  return bands;
}

void heatmap_panel::draw(frame_state& f) {
  draw_status_line(f);
  draw_freshness(f);
  f.heatmap.set_bands(shard_bands(f.sample));
  f.heatmap.draw(*f.image, f.request, f.sample.inspected.slots, f.sess->capacity());
  if (const auto clicked = f.heatmap.take_clicked();
      clicked && f.question && !f.question->answered && f.question->what != question_kind::probes) {
    // The class points at the slot, or at a slot of the bucket.
    const auto per_bucket = f.hooks().slots_per_bucket;
    const std::uint64_t per = f.question->what == question_kind::bucket && per_bucket
                                  ? std::max<std::uint32_t>(per_bucket(f.sample.stats), 1)
                                  : 1;
    f.question->answer = static_cast<std::int64_t>(*clicked / per);
  }
  drawn_ = {f.sample.version, f.sample.stats, f.freshness.old, drawn_.frames + 1,
            f.heatmap.bands_drawn()};
}

}  // namespace hs::app
