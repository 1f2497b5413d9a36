// Step mode of open addressing: replay, the step line, the walk's cells, the heatmap marks.
#include "visualizers/views/linear_walk_view.hpp"

#include <algorithm>

#include <imgui.h>

#include "core/common/format.hpp"

namespace hs::vis {

ImU32 walk_color(linear::walk_role r) {
  switch (r) {
    case linear::walk_role::passed: return IM_COL32(200, 200, 200, 255);
    case linear::walk_role::first_free: return IM_COL32(255, 150, 40, 255);
    case linear::walk_role::found: return IM_COL32(80, 220, 255, 255);
    case linear::walk_role::claimed: return IM_COL32(255, 235, 60, 255);
    case linear::walk_role::stop_empty: return IM_COL32(255, 80, 200, 255);
  }
  return IM_COL32_WHITE;
}

void linear_walk_view::follow_step(std::shared_ptr<const step_trace> t, linear_delete_mode mode) {
  if (!t || (step_ && step_->serial == t->serial)) return;
  step_ = std::move(t);
  mode_ = mode;
  walks_.clear();
  for (const stepped_op& op : step_->ops)
    walks_.push_back(
        linear::replay_walk(op.probe_before, op.kind, op.key, op.status, mode, op.probe_truncated));
  show_op(0);
}

void linear_walk_view::show_op(std::size_t i) {
  if (!step_ || i >= walks_.size()) return;
  op_ = i;
  const auto& cells = walks_[i].cells;
  if (cells.empty()) return;
  // The walk with a few slots either side, at least 32: one cell per slot, keys readable.
  const std::uint64_t first = cells.front().slot,
                      span = std::max<std::uint64_t>(cells.size() + 8, 32);
  focus_ = std::pair{first >= 4 ? first - 4 : 0, span};
}

std::vector<slot_mark> linear_walk_view::marks() const {
  std::vector<slot_mark> m;
  if (!step_ || op_ >= walks_.size()) return m;
  int probe = 0;
  for (const linear::walk_cell& c : walks_[op_].cells)
    m.push_back({c.slot, walk_color(c.role), probe++});
  return m;
}

namespace {

constexpr ImU32 k_arrow_color = IM_COL32(255, 200, 60, 255);

// Where the insert landed, and, when the same operations ran before from the same point (Back,
// then Step), whether this run ended otherwise: concurrent inserts racing for one run of slots
// may land elsewhere on the GPU; the CPU model runs them in order and never does.
void draw_run_line(const step_trace& step, const stepped_op& op) {
  const std::string landed =
      op.slot_after ? strprintf("landed in slot %s", format_count(*op.slot_after).c_str()) : "";
  if (step.run <= 1) {
    if (!landed.empty()) ImGui::TextDisabled("%s", landed.c_str());
    return;
  }
  const std::string was =
      op.slot_last_run ? strprintf(" (slot %s then)", format_count(*op.slot_last_run).c_str()) : "";
  if (op.changed)
    ImGui::TextColored(ImVec4(1.f, 0.45f, 0.3f, 1.f),
                       "%s%srun %llu: ended otherwise than the run before%s; %llu of the step's "
                       "operations did",
                       landed.c_str(), landed.empty() ? "" : "; ", (unsigned long long)step.run,
                       was.c_str(), (unsigned long long)step.changed);
  else
    ImGui::TextDisabled(
        "%s%srun %llu: as in the run before (%llu of the step's operations ended "
        "otherwise)",
        landed.c_str(), landed.empty() ? "" : "; ", (unsigned long long)step.run,
        (unsigned long long)step.changed);
}

void draw_op_line(const step_trace& step, const stepped_op& op, std::size_t op_index,
                  std::size_t op_count, key_radix radix) {
  const std::string key = key_text(op.key, radix, false);
  const std::string args =
      op.kind == op_kind::insert
          ? strprintf("%s, %llu", key.c_str(), static_cast<unsigned long long>(op.value))
          : key;
  ImGui::TextColored(ImVec4(1.f, 0.86f, 0.24f, 1.f),
                     "step %llu, operation %zu of %zu: %s(%s) -> %s",
                     (unsigned long long)step.serial, op_index + 1, op_count,
                     std::string(to_string(op.kind)).c_str(), args.c_str(),
                     std::string(to_string(op.status)).c_str());
  draw_run_line(step, op);
}

void draw_walk_summary(const linear::probe_walk& w, bool tombstone_insert) {
  ImGui::Text(
      "home slot %s; walked %zu slot%s%s%s", format_count(w.cells.front().slot).c_str(),
      w.cells.size(), w.cells.size() == 1 ? "" : "s",
      w.decided ? strprintf(", decided at slot %s", format_count(*w.decided).c_str()).c_str() : "",
      w.truncated ? " (the walk goes on past the slots captured)" : "");
  if (tombstone_insert)
    ImGui::TextWrapped(
        "Tombstone mode: the insert remembers the first free slot it passes (orange) but walks on "
        "to its "
        "key or an empty slot before it claims it, so the key is never stored twice.");
}

// The cells' sizes, sized by the text so presenter mode's larger text makes them readable on a
// projector, and where each cell goes: rows that wrap at the window's width.
struct walk_grid {
  float fs, cw, ch, gap, row_h;
  int per_row;
  ImVec2 at;                         ///< the grid's top left
  key_radix radix = key_radix::hex;  ///< how the cells write keys

  ImVec2 cell_at(int i) const {
    return ImVec2(at.x + static_cast<float>(i % per_row) * (cw + gap),
                  at.y + 1.2f * fs + static_cast<float>(i / per_row) * row_h);
  }
};

walk_grid walk_grid_at_cursor() {
  const float fs = ImGui::GetFontSize(), cw = 7.f * fs, ch = 3.4f * fs, gap = 1.8f * fs;
  const float row_h = ch + 2.6f * fs;  // the home mark above, the outcome below
  const int per_row =
      std::max(1, static_cast<int>((ImGui::GetContentRegionAvail().x + gap) / (cw + gap)));
  return {fs, cw, ch, gap, row_h, per_row, ImGui::GetCursorScreenPos()};
}

// Probe i's cell: the slot's number and the key it held, outlined by what happened there.
void draw_walk_cell(ImDrawList* dl, const walk_grid& g, const linear::walk_cell& c,
                    const slot_record& rec, int i) {
  const float fs = g.fs;
  const ImVec2 p0 = g.cell_at(i), p1(p0.x + g.cw, p0.y + g.ch);
  dl->AddRectFilled(p0, p1, IM_COL32(40, 40, 48, 255));
  dl->AddRect(p0, p1, walk_color(c.role), 0.f, std::max(2.f, fs * 0.15f));
  const std::string key = rec.state == slot_state::empty       ? "empty"
                          : rec.state == slot_state::tombstone ? "tombstone"
                                                               : key_text(rec.key, g.radix, false);
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), IM_COL32(170, 170, 180, 255),
              strprintf("slot %s", format_count(c.slot).c_str()).c_str());
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2 + fs), IM_COL32_WHITE, key.c_str());
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2 + 2 * fs), walk_color(c.role),
              strprintf("#%d %s", i, linear::to_string(c.role)).c_str());
}

// The home slot, where the hash sends the key: marked above the first cell.
void draw_home_mark(ImDrawList* dl, const walk_grid& g) {
  const float fs = g.fs;
  const ImVec2 p0 = g.cell_at(0);
  const float mx = p0.x + g.cw * 0.5f;
  dl->AddTriangleFilled(ImVec2(mx - 0.35f * fs, p0.y - 0.5f * fs),
                        ImVec2(mx + 0.35f * fs, p0.y - 0.5f * fs), ImVec2(mx, p0.y - 0.1f * fs),
                        k_arrow_color);
  dl->AddText(ImVec2(mx + 0.5f * fs, p0.y - 1.15f * fs), ImGui::GetColorU32(ImGuiCol_Text),
              "home slot");
}

// An arrow from probe i to the next: along the row, or down to the next row.
void draw_probe_arrow(ImDrawList* dl, const walk_grid& g, int i) {
  const float fs = g.fs, cw = g.cw, ch = g.ch, row_h = g.row_h;
  const ImVec2 p0 = g.cell_at(i), p1(p0.x + cw, p0.y + ch);
  const ImVec2 q0 = g.cell_at(i + 1);
  const bool same_row = (i + 1) % g.per_row != 0;
  const ImVec2 a = same_row ? ImVec2(p1.x + 2, p0.y + ch * 0.5f)
                            : ImVec2(p0.x + cw * 0.5f, p1.y + 2),
               b = same_row ? ImVec2(q0.x - 2, q0.y + ch * 0.5f)
                            : ImVec2(q0.x + cw * 0.5f, q0.y - 2);
  const float t = std::max(1.5f, fs * 0.12f), h = 0.45f * fs;
  if (same_row) {
    dl->AddLine(a, ImVec2(b.x - h, b.y), k_arrow_color, t);
    dl->AddTriangleFilled(ImVec2(b.x - h, b.y - h * 0.6f), ImVec2(b.x - h, b.y + h * 0.6f), b,
                          k_arrow_color);
  } else {
    dl->AddBezierCubic(a, ImVec2(a.x, a.y + row_h * 0.4f), ImVec2(b.x, b.y - row_h * 0.4f),
                       ImVec2(b.x, b.y - h), k_arrow_color, t);
    dl->AddTriangleFilled(ImVec2(b.x - h * 0.6f, b.y - h), ImVec2(b.x + h * 0.6f, b.y - h), b,
                          k_arrow_color);
  }
}

// Where the walk ended, and what the operation did there: under the last cell.
void draw_outcome(ImDrawList* dl, const walk_grid& g, const linear::walk_cell& c, int i) {
  const ImVec2 p0 = g.cell_at(i);
  const char* outcome = c.role == linear::walk_role::found        ? "the key: decided here"
                        : c.role == linear::walk_role::claimed    ? "claimed: inserted here"
                        : c.role == linear::walk_role::stop_empty ? "empty: the walk ends"
                                                                  : "walks on";
  dl->AddText(ImVec2(p0.x, p0.y + g.ch + 0.2f * g.fs), walk_color(c.role), outcome);
}

// Hovering probe i's cell tells all the slot held.
void cell_tooltip(const walk_grid& g, const linear::walk_cell& c, const slot_record& rec, int i) {
  ImGui::SetCursorScreenPos(g.cell_at(i));
  ImGui::InvisibleButton(strprintf("walk-cell-%d", i).c_str(), ImVec2(g.cw, g.ch));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("probe %d: slot %s\nkey %s, value %s\nhome %s (displacement %llu)\n%s", i,
                      format_count(c.slot).c_str(), key_text(rec.key, g.radix, false).c_str(),
                      rec.value == k_empty ? "empty" : std::to_string(rec.value).c_str(),
                      format_count(rec.home).c_str(), (unsigned long long)rec.displacement,
                      linear::to_string(c.role));
}

// The walk as a row of cells, wrapping: each slot's number and the key it held, outlined by what
// happened there; an arrow from each probe to the next, the home slot marked above the first, and
// the outcome under the cell where it was decided.
void draw_walk_cells(const linear::probe_walk& w, const stepped_op& op, key_radix radix) {
  walk_grid g = walk_grid_at_cursor();
  g.radix = radix;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int shown = static_cast<int>(std::min<std::size_t>(w.cells.size(), 256));
  for (int i = 0; i < shown; ++i) {
    const linear::walk_cell& c = w.cells[i];
    const slot_record& rec = op.probe_before[i];
    draw_walk_cell(dl, g, c, rec, i);
    if (i == 0) draw_home_mark(dl, g);
    if (i + 1 < shown) draw_probe_arrow(dl, g, i);
    if (i == shown - 1) draw_outcome(dl, g, c, i);
    cell_tooltip(g, c, rec, i);
  }
  ImGui::SetCursorScreenPos(ImVec2(
      g.at.x,
      g.at.y + 1.2f * g.fs + static_cast<float>((shown + g.per_row - 1) / g.per_row) * g.row_h));
  ImGui::Dummy(ImVec2(1, 1));
}

}  // namespace

void linear_walk_view::draw(float height) {
  (void)height;
  if (!step_) {
    ImGui::TextWrapped(
        "No traced step yet: Step with a few operations (the Run section's step ops, or a "
        "scenario's "
        "'step N') traces each operation's probe walk from its home slot.");
    return;
  }
  const stepped_op& op = step_->ops[op_];
  const linear::probe_walk& w = walks_[op_];
  if (ImGui::ArrowButton("walk-prev", ImGuiDir_Left) && op_ > 0) show_op(op_ - 1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("walk-next", ImGuiDir_Right) && op_ + 1 < walks_.size()) show_op(op_ + 1);
  ImGui::SameLine();
  draw_op_line(*step_, op, op_, walks_.size(), radix_);
  if (w.cells.empty()) {
    ImGui::TextDisabled("a reserved key: rejected before any slot is read");
    return;
  }
  draw_walk_summary(w, mode_ == linear_delete_mode::tombstone && op.kind == op_kind::insert);
  draw_walk_cells(w, op, radix_);
}

std::string linear_walk_view::csv() const {
  std::string s = "op,kind,key,status,probe,slot,role,key_there,landed,run,changed\n";
  if (!step_) return s;
  for (std::size_t i = 0; i < walks_.size(); ++i) {
    const stepped_op& op = step_->ops[i];
    const std::string landed = op.slot_after ? std::to_string(*op.slot_after) : "";
    for (std::size_t p = 0; p < walks_[i].cells.size(); ++p)
      s += strprintf(
          "%zu,%s,%llu,%s,%zu,%llu,%s,%llu,%s,%llu,%d\n", i,
          std::string(to_string(op.kind)).c_str(), (unsigned long long)op.key,
          std::string(to_string(op.status)).c_str(), p, (unsigned long long)walks_[i].cells[p].slot,
          linear::to_string(walks_[i].cells[p].role), (unsigned long long)op.probe_before[p].key,
          landed.c_str(), (unsigned long long)step_->run, int(op.changed));
  }
  return s;
}

fig::figure linear_walk_view::paper_figure(const std::string& probing) const {
  fig::panel p;
  std::size_t longest = 0;
  for (const auto& w : walks_) longest = std::max(longest, w.cells.size());
  p.title =
      step_ ? strprintf("%s, step %llu: %zu operations, the longest walk %zu slots",
                        probing.c_str(), (unsigned long long)step_->serial, walks_.size(), longest)
            : probing + ": no traced step (step N in the scenario traces one)";
  p.x = {"probe (0: the home slot)"};
  p.y = {"operation of the step"};
  constexpr linear::walk_role roles[] = {linear::walk_role::passed, linear::walk_role::first_free,
                                         linear::walk_role::found, linear::walk_role::claimed,
                                         linear::walk_role::stop_empty};
  for (int r = 0; r < 5; ++r) {
    fig::series s;
    s.kind = fig::series::points;
    s.name = linear::to_string(roles[r]);
    s.color = r;
    for (std::size_t i = 0; i < walks_.size(); ++i)
      for (std::size_t c = 0; c < walks_[i].cells.size(); ++c)
        if (walks_[i].cells[c].role == roles[r])
          s.x.push_back(double(c)), s.y.push_back(double(i + 1));
    if (!s.x.empty()) p.data.push_back(std::move(s));
  }
  return {{p}, {}};
}

}  // namespace hs::vis
