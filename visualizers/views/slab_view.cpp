// Slab views: the list-length histogram on ImPlot; the strip, the lists and the allocator on the
// draw list, where each cell is a bucket, a pair or a memory block rather than a data point.
#include "visualizers/views/slab_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <imgui.h>

#include "core/common/format.hpp"
#include "core/slab/slab_layout.hpp"
#include "core/slab/slab_trace.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::vis {

namespace {
ImU32 to_u32(rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }
constexpr ImU32 k_live = IM_COL32(68, 190, 112, 255);
constexpr ImU32 k_tomb = IM_COL32(215, 60, 60, 255);
constexpr ImU32 k_empty_col = IM_COL32(48, 50, 58, 255);
constexpr ImU32 k_trace = IM_COL32(255, 220, 60, 255);
}  // namespace

slab_view::slab_view() : cmap_(load_colormap("viridis")) {}

void slab_view::trace_key(key_type k, hash_kind hash, std::uint64_t buckets) {
  if (!buckets) return;
  traced_ = k;
  step_shown_ = false;
  bucket_ = dispatch_hash(
      hash, [&](auto h) { return slab::bucket_of(h, k, static_cast<std::uint32_t>(buckets)); });
  chosen_ = true;
}

void slab_view::follow_step(std::shared_ptr<const step_trace> t, slab_mode mode) {
  if (!t || (step_ && step_->serial == t->serial)) return;
  step_ = std::move(t);
  step_mode_ = mode;
  // Replay in batch order on the lists as the step found them, each bucket's list carrying the
  // effects of the earlier operations on it (the device's order among those may differ).
  std::vector<slab_chain> lists;
  step_paths_.clear();
  step_lists_.clear();
  for (const stepped_op& op : step_->ops) {
    if (!op.list_before) {
      step_paths_.push_back({});
      step_lists_.push_back({});
      continue;
    }
    auto it = std::find_if(lists.begin(), lists.end(),
                           [&](const slab_chain& c) { return c.bucket == op.list_before->bucket; });
    if (it == lists.end()) it = lists.insert(lists.end(), *op.list_before);
    step_lists_.push_back(*it);
    step_paths_.push_back(slab::replay_op(*it, op.kind, op.key, op.value, op.status, mode));
  }
  show_step_op(0);
}

void slab_view::show_step_op(std::size_t i) {
  if (!step_ || i >= step_->ops.size() || !step_->ops[i].list_before) return;
  step_op_ = i;
  step_shown_ = true;
  traced_.reset();
  bucket_ = step_->ops[i].list_before->bucket;
  chosen_ = true;
}

void slab_view::draw_step_line() {
  const stepped_op& op = step_->ops[step_op_];
  const bool unique = step_mode_ == slab_mode::unique;
  const char* name = op.kind == op_kind::insert ? (unique ? "REPLACE" : "INSERT")
                     : op.kind == op_kind::find ? "SEARCH"
                                                : "DELETE";
  if (ImGui::ArrowButton("step-prev", ImGuiDir_Left) && step_op_ > 0) show_step_op(step_op_ - 1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("step-next", ImGuiDir_Right) && step_op_ + 1 < step_->ops.size())
    show_step_op(step_op_ + 1);
  ImGui::SameLine();
  const std::string args = op.kind == op_kind::insert
                               ? strprintf("%llu, %llu", static_cast<unsigned long long>(op.key),
                                           static_cast<unsigned long long>(op.value))
                               : std::to_string(op.key);
  const std::string found = op.kind == op_kind::find && op.status == op_status::found
                                ? strprintf(" = %llu", static_cast<unsigned long long>(op.result))
                                : "";
  ImGui::TextColored(ImVec4(1.f, 0.86f, 0.24f, 1.f),
                     "step %llu, operation %zu of %zu: %s(%s) -> %s%s | outlined: the lanes it "
                     "read; white: where it decided",
                     (unsigned long long)step_->serial, step_op_ + 1, step_->ops.size(), name,
                     args.c_str(), std::string(to_string(op.status)).c_str(), found.c_str());
}

void slab_view::follow_longest(const inspect_result& r, const table_stats& st) {
  // Until a bucket is chosen, the list worth showing: the longest (its bucket comes with the next
  // sample; with a strip pixel per bucket it is exact, on tables of more buckets the first bucket
  // of the pixel holding the longest).
  if (!chosen_ && !r.strip.empty() && st.slab.buckets) {
    std::size_t best = 0;
    for (std::size_t p = 1; p < r.strip.size(); ++p)
      if (r.strip[p].max_chain > r.strip[best].max_chain) best = p;
    bucket_ = best * st.slab.buckets / r.strip.size();
  }
}

void slab_view::draw_chains(const inspect_result& r, const table_stats& st, hash_kind hash,
                            float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  ImGui::Text(
      "%s buckets, %s chained slabs, longest list %llu slabs, utilization %.3f, load (beta) %.3f",
      format_count(st.slab.buckets).c_str(), format_count(st.slab.chained_slabs).c_str(),
      (unsigned long long)st.slab.longest_chain, st.slab.utilization, st.load_factor());
  ImGui::SetNextItemWidth(8 * fs);
  if (ImGui::InputText("key: show its bucket", key_text_, sizeof key_text_,
                       ImGuiInputTextFlags_EnterReturnsTrue)) {
    unsigned long long k = 0;
    if (std::sscanf(key_text_, "%llu", &k) == 1 && k < k_tombstone)
      trace_key(static_cast<key_type>(k), hash, st.slab.buckets);
  }
  ImGui::SameLine();
  ImGui::Text(chosen_ ? "| bucket %llu" : "| bucket %llu, the longest list",
              (unsigned long long)bucket_);
  if (traced_) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.f, 0.86f, 0.24f, 1.f), "| outlined: the lanes SEARCH(%u) reads",
                       *traced_);
  }
  const bool stepping = step_shown_ && step_ && step_op_ < step_->ops.size();
  if (stepping) draw_step_line();
  const float rest = total - (stepping ? 4.f : 2.6f) * fs;
  draw_length_histogram(r.slab.chains, rest * 0.34f);
  draw_strip(r, st.slab.buckets, rest * 0.16f);
  // What to outline: the stepped operation's path (on its own bucket's list), or the typed key's
  // SEARCH replayed on the list as it is now.
  std::optional<slab::op_trace> outline;
  if (stepping && r.slab.chain.bucket == step_->ops[step_op_].list_before->bucket)
    outline = step_paths_[step_op_];
  if (traced_) {
    slab_chain copy = r.slab.chain;
    outline = slab::replay_op(copy, op_kind::find, *traced_, 0, op_status::found, step_mode_);
  }
  if (!chosen_ && r.slab.chain.bucket != bucket_)
    ImGui::TextDisabled("the longest list comes with the next sample");
  else
    draw_list(r.slab.chain, outline ? &*outline : nullptr, rest * 0.5f - fs);
}

void slab_view::draw_length_histogram(const probe_histogram& h, float height) {
  const std::uint32_t shown = std::min<std::uint32_t>(std::max<std::uint32_t>(h.max, 1), 64);
  std::vector<double> counts(shown);
  for (std::uint32_t i = 1; i <= shown; ++i) counts[i - 1] = double(h.counts[probe_bin(i)]);
  if (const auto i = colormap_histogram(lengths_frame_, "List lengths##chain-lengths",
                                        ImVec2(-1, std::max(height, 60.f)),
                                        "slabs in the list (base included)", "buckets", "buckets",
                                        counts, 1, true, implot_colormap(cmap_)))
    ImGui::SetTooltip("%zu slabs: %s buckets", *i + 1,
                      format_count(h.counts[probe_bin(std::uint32_t(*i + 1))]).c_str());
}

void slab_view::draw_strip(const inspect_result& r, std::uint64_t buckets, float height) {
  ImGui::TextUnformatted(
      "Buckets, coloured by list length (mean per pixel); click to show a bucket's list");
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x,
              h = std::max(height - ImGui::GetFontSize() * 1.4f, 8.f);
  ImGui::InvisibleButton("strip", ImVec2(w, h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::size_t n = r.strip.size();
  float top = 1;
  for (const auto& px : r.strip) top = std::max(top, px.max_chain);
  // One rectangle per screen pixel column at most (the strip may hold a pixel per bucket).
  const std::size_t cols =
      std::min<std::size_t>(n, std::max<std::size_t>(1, static_cast<std::size_t>(w)));
  for (std::size_t c = 0; c < cols; ++c) {
    const std::size_t p0 = c * n / cols, p1 = std::max(p0 + 1, (c + 1) * n / cols);
    double mean = 0;
    for (std::size_t p = p0; p < p1; ++p) mean += r.strip[p].mean_chain;
    mean /= double(p1 - p0);
    const float x0 = at.x + w * float(c) / float(cols), x1 = at.x + w * float(c + 1) / float(cols);
    const float t = top > 1 ? (float(mean) - 1.f) / (top - 1.f) : 0.f;
    dl->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1 + 0.5f, at.y + h), to_u32(cmap_.at(t)));
  }
  if (n && buckets) {
    const float sel = at.x + w * float(double(bucket_) / double(buckets));
    dl->AddLine(ImVec2(sel, at.y - 2), ImVec2(sel, at.y + h + 2), IM_COL32(255, 255, 255, 255),
                2.f);
  }
  if (ImGui::IsItemHovered() && n && buckets) {
    const float fx = std::clamp((ImGui::GetMousePos().x - at.x) / w, 0.f, 0.9999f);
    const auto p = static_cast<std::size_t>(fx * n);
    const auto b = static_cast<std::uint64_t>(double(fx) * double(buckets));
    ImGui::SetTooltip("buckets near %llu: mean %.2f slabs, longest %.0f (colour scale 1..%.0f)",
                      (unsigned long long)b, r.strip[p].mean_chain, r.strip[p].max_chain, top);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      bucket_ = b;
      chosen_ = true;
      traced_.reset();
      step_shown_ = false;
    }
  }
}

void slab_view::draw_list(const slab_chain& c, const slab::op_trace* outline, float height) {
  const float fs = ImGui::GetFontSize();
  ImGui::Text(
      "Bucket %llu: %llu slab%s%s", (unsigned long long)c.bucket, (unsigned long long)c.total,
      c.total == 1 ? "" : "s",
      c.slabs.size() < c.total ? strprintf(" (first %zu drawn)", c.slabs.size()).c_str() : "");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.27f, 0.75f, 0.44f, 1), "live");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.84f, 0.24f, 0.24f, 1), "deleted");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.5f, 0.5f, 0.55f, 1), "empty");
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float cell = std::clamp(fs * 1.1f, 6.f, 28.f), gap = cell * 1.6f;
  const float box_w = cell * 16;  // 15 pairs and the next pointer
  const int per_row = std::max(1, int((w + gap) / (box_w + gap)));
  const int rows = int((c.slabs.size() + per_row - 1) / per_row);
  const float row_h = cell * 2.2f;
  ImGui::InvisibleButton("list", ImVec2(w, std::max(height, rows * row_h + cell)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetMousePos();
  const bool hover = ImGui::IsItemHovered();
  for (std::size_t s = 0; s < c.slabs.size(); ++s) {
    const slab_record& rec = c.slabs[s];
    const float x = at.x + float(s % per_row) * (box_w + gap),
                y = at.y + float(s / per_row) * row_h;
    for (int p = 0; p < slab::k_slab_pairs; ++p) {
      const std::uint32_t k = rec.words[2 * p], v = rec.words[2 * p + 1];
      const ImU32 col = slab::is_live_key(k) ? k_live : k == k_tombstone ? k_tomb : k_empty_col;
      const ImVec2 a(x + p * cell, y), b(x + (p + 1) * cell - 1, y + cell);
      dl->AddRectFilled(a, b, col);
      if (outline && outline->slab == s && outline->pair == p)
        dl->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0.f, 3.f);
      else if (outline && s < outline->slabs_read)
        dl->AddRect(a, b, k_trace, 0.f, 1.5f);
      if (hover && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
        ImGui::SetTooltip("slab %zu (%s), pair %d\nkey %s\nvalue %s", s,
                          rec.address == slab_record::k_base_address
                              ? "base"
                              : strprintf("address %08x", rec.address).c_str(),
                          p,
                          slab::is_live_key(k) ? std::to_string(k).c_str()
                          : k == k_tombstone   ? "tombstone"
                                               : "empty",
                          v == k_empty ? "empty" : std::to_string(v).c_str());
    }
    const ImVec2 np(x + 15 * cell, y);
    dl->AddRectFilled(np, ImVec2(np.x + cell - 1, np.y + cell), IM_COL32(90, 110, 170, 255));
    dl->AddRect(ImVec2(x - 1, y - 1), ImVec2(x + box_w, y + cell + 1),
                IM_COL32(200, 200, 210, 255));
    if (s + 1 < c.slabs.size()) {  // the next pointer, as an arrow to the following box
      const float nx = at.x + float((s + 1) % per_row) * (box_w + gap),
                  ny = at.y + float((s + 1) / per_row) * row_h;
      const ImVec2 from(np.x + cell * 0.5f, np.y + cell * 0.5f);
      const ImVec2 to =
          (s + 1) % per_row ? ImVec2(nx - 2, ny + cell * 0.5f) : ImVec2(nx + cell * 0.5f, ny - 2);
      dl->AddLine(from, to, IM_COL32(230, 230, 240, 255), 1.5f);
      dl->AddCircleFilled(to, cell * 0.18f, IM_COL32(230, 230, 240, 255));
    }
  }
}

void slab_view::draw_allocator(const allocator_image& a, const table_stats& st, float height) {
  const float fs = ImGui::GetFontSize();
  ImGui::Text(
      "SlabAlloc: %u super blocks x %u memory blocks x 1024 slabs; %s of %s slabs in lists; %s "
      "resident changes, %s failed allocations",
      a.super_blocks, a.blocks_per_super, format_count(st.slab.chained_slabs).c_str(),
      format_count(st.slab.pool_slabs).c_str(), format_count(st.slab.resident_changes).c_str(),
      format_count(st.slab.alloc_failures).c_str());
  ImGui::TextUnformatted(
      "each cell a memory block, coloured by its allocated slabs (0..1024); one band per super "
      "block");
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = std::max((height > 0 ? height : ImGui::GetContentRegionAvail().y) - 3 * fs, 20.f);
  ImGui::InvisibleButton("blocks", ImVec2(w, h));
  const std::size_t blocks = a.block_fill.size();
  if (!blocks || !a.blocks_per_super) return;
  // Square-ish cells: columns so that all blocks fit the area.
  const double area = double(w) * h / double(blocks);
  const int cols = std::max(1, int(w / std::max(1.0, std::sqrt(area))));
  const int rows = int((blocks + cols - 1) / cols);
  const float cw = w / float(cols), ch = std::min(h / float(rows), cw * 2);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (std::size_t b = 0; b < blocks; ++b) {
    const float x = at.x + float(b % cols) * cw, y = at.y + float(b / cols) * ch;
    dl->AddRectFilled(ImVec2(x, y),
                      ImVec2(x + std::max(cw - (cw > 4), 1.f), y + std::max(ch - (ch > 4), 1.f)),
                      to_u32(cmap_.at(a.block_fill[b] / 1024.f)));
    if (b % a.blocks_per_super == 0 && b)
      dl->AddLine(ImVec2(x, y), ImVec2(x, y + ch), IM_COL32(255, 255, 255, 255), 2.f);
  }
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    const auto b = std::size_t((m.y - at.y) / ch) * cols + std::size_t((m.x - at.x) / cw);
    if (b < blocks)
      ImGui::SetTooltip("super block %zu, memory block %zu: %u of 1024 slabs allocated",
                        b / a.blocks_per_super, b % a.blocks_per_super, unsigned(a.block_fill[b]));
  }
}

std::string chain_lengths_csv(const probe_histogram& h) {
  std::string s = "slabs,buckets\n";
  for (const display_bin& b : h.display_bins())
    if (b.count)
      s += strprintf("%llu,%llu\n", (unsigned long long)b.lo, (unsigned long long)b.count);
  return s;
}

std::string allocator_csv(const allocator_image& a) {
  std::string s = "super_block,memory_block,allocated_slabs\n";
  for (std::size_t b = 0; b < a.block_fill.size(); ++b)
    s += strprintf("%zu,%zu,%u\n", b / std::max<std::uint32_t>(a.blocks_per_super, 1),
                   b % std::max<std::uint32_t>(a.blocks_per_super, 1), unsigned(a.block_fill[b]));
  return s;
}

}  // namespace hs::vis
