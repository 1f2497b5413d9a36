// One warp-cooperative operation's lanes: a row of lane columns per read, votes and the atomic.
#include "visualizers/views/tile_lanes_view.hpp"

#include <algorithm>
#include <cmath>

#include "core/common/format.hpp"

namespace hs::vis {

namespace {
// A window colour for print: lightened, so black text on it reads.
fig::rgb paper_rgb(ImU32 c) {
  const ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  return {0.45 + 0.55 * v.x, 0.45 + 0.55 * v.y, 0.45 + 0.55 * v.z};
}
constexpr fig::rgb k_vote_rgb{0.85, 0.62, 0.05}, k_actor_rgb{0.80, 0.15, 0.10};

std::string ballot_text(const tile_round& r) {
  if (r.vote.empty()) return {};
  std::string bits;
  for (std::size_t l = r.lanes.size(); l-- > 0;) bits += ((r.ballot >> l) & 1u) ? '1' : '0';
  return "ballot(" + r.vote + ") = " + bits +
         (r.elected >= 0 ? strprintf(": lane %d elected", r.elected) : std::string(": no lane"));
}

constexpr ImU32 k_vote_col = IM_COL32(250, 200, 60, 255), k_actor_col = IM_COL32(240, 90, 70, 255);

void draw_swatches(ImDrawList* dl, const std::vector<std::pair<ImU32, std::string>>& legend) {
  const float fs = ImGui::GetFontSize();
  bool first_swatch = true;
  auto swatch = [&](ImU32 c, const char* what, bool outline) {
    // On this line while it fits, else on the next: a narrow window wraps the legend.
    const float w = fs * 0.8f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(what).x;
    if (!first_swatch) ImGui::SameLine();
    if (!first_swatch && ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    first_swatch = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const ImVec2 a(p.x, p.y + 2.f), b(p.x + fs * 0.8f, p.y + 2.f + fs * 0.8f);
    if (outline)
      dl->AddRect(a, b, c, 0.f, 2.f);
    else
      dl->AddRectFilled(a, b, c);
    ImGui::Dummy(ImVec2(fs * 0.8f, fs * 0.8f));
    ImGui::SameLine();
    ImGui::TextUnformatted(what);
  };
  for (const auto& [c, what] : legend) swatch(c, what.c_str(), false);
  swatch(k_vote_col, "voted yes in the ballot", true);
  swatch(k_actor_col, "issued the atomic", true);
}

// One lane's column of words below its number, from `top`.
void draw_lane_words(ImDrawList* dl, const std::vector<tile_word>& words, float x, float top,
                     float col, float cell_h, ImU32 text) {
  const float fs = ImGui::GetFontSize();
  for (std::size_t w = 0; w < words.size(); ++w) {
    const tile_word& tw = words[w];
    const ImVec2 a(x + 1.f, top + fs * 1.2f + static_cast<float>(w) * cell_h);
    const ImVec2 b(x + col - 1.f, a.y + cell_h - 1.f);
    dl->AddRectFilled(a, b, tw.fill);
    // A key too wide for its cell shows its last digits.
    std::string shown = tw.text;
    if (ImGui::CalcTextSize(shown.c_str()).x >= col - 2.f && shown.size() > 3)
      shown = ".." + shown.substr(shown.size() - 3);
    const ImVec2 ts = ImGui::CalcTextSize(shown.c_str());
    if (ts.x < col - 2.f)
      dl->AddText(ImVec2(a.x + (col - 2.f - ts.x) * 0.5f, a.y + (cell_h - ts.y) * 0.5f), text,
                  shown.c_str());
  }
}

void draw_round(ImDrawList* dl, const tile_round& r, float avail, ImU32 text, ImU32 dim) {
  const float fs = ImGui::GetFontSize();
  ImGui::Spacing();
  ImGui::TextUnformatted(r.label.c_str());
  const std::size_t lanes = r.lanes.size();
  std::size_t words = 1;
  for (const auto& l : r.lanes) words = std::max(words, l.size());
  const float col =
      std::min(4.f * fs, (avail - fs) / static_cast<float>(std::max<std::size_t>(lanes, 1)));
  const float cell_h = fs * 1.25f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  // Lane numbers every `every` lanes where two digits do not fit a column (and always the
  // elected lane's).
  const float digits = ImGui::CalcTextSize("00").x + 2.f;
  const std::size_t every = col >= digits ? 1 : col * 2 >= digits ? 2 : col * 4 >= digits ? 4 : 8;
  for (std::size_t l = 0; l < lanes; ++l) {
    const float x = p.x + static_cast<float>(l) * col;
    const std::string head = std::to_string(l);
    if (l % every == 0 || static_cast<int>(l) == r.elected)
      dl->AddText(ImVec2(x + (col - ImGui::CalcTextSize(head.c_str()).x) * 0.5f, p.y),
                  static_cast<int>(l) == r.elected ? k_vote_col : dim, head.c_str());
    draw_lane_words(dl, r.lanes[l], x, p.y, col, cell_h, text);
    const ImVec2 top(x, p.y + fs * 1.1f),
        bottom(x + col, p.y + fs * 1.3f + static_cast<float>(words) * cell_h);
    if ((r.ballot >> l) & 1u) dl->AddRect(top, bottom, k_vote_col, 0.f, 2.f);
    if (static_cast<int>(l) == r.actor)
      dl->AddRect(ImVec2(top.x + 2.f, top.y + 2.f), ImVec2(bottom.x - 2.f, bottom.y - 2.f),
                  k_actor_col, 0.f, 2.f);
  }
  ImGui::Dummy(
      ImVec2(static_cast<float>(lanes) * col, fs * 1.4f + static_cast<float>(words) * cell_h));
  const std::string votes = ballot_text(r);
  if (!votes.empty()) ImGui::TextUnformatted(votes.c_str());
  if (!r.action.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(k_actor_col), "%s", r.action.c_str());
}
}  // namespace

void tile_lanes_view::set(std::string title, std::vector<tile_round> rounds,
                          std::vector<std::pair<ImU32, std::string>> legend) {
  title_ = std::move(title);
  rounds_ = std::move(rounds);
  legend_ = std::move(legend);
  why_empty_.clear();
}

void tile_lanes_view::clear(std::string why) {
  title_.clear();
  rounds_.clear();
  why_empty_ = std::move(why);
}

void tile_lanes_view::draw(float height) {
  (void)height;
  drawn_.title = title_;
  drawn_.rounds = rounds_.size();
  drawn_.lanes = rounds_.empty() ? 0 : rounds_.front().lanes.size();
  drawn_.ballots.clear();
  drawn_.elected.clear();
  drawn_.actors.clear();
  ++drawn_.frames;
  if (rounds_.empty()) {
    ImGui::TextWrapped("%s", why_empty_.empty() ? "No traced step yet: Step to see the lanes of "
                                                  "the tile that serves one operation."
                                                : why_empty_.c_str());
    return;
  }
  ImGui::TextUnformatted(title_.c_str());
  const float fs = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text),
              dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw_swatches(dl, legend_);
  const float avail = std::max(ImGui::GetContentRegionAvail().x, 20.f * fs);
  for (const tile_round& r : rounds_) {
    drawn_.ballots.push_back(r.ballot);
    drawn_.elected.push_back(r.elected);
    drawn_.actors.push_back(r.actor);
    draw_round(dl, r, avail, text, dim);
  }
}

fig::figure tile_lanes_view::paper_figure() const {
  fig::panel p;
  p.title = rounds_.empty() ? (why_empty_.empty() ? "no traced step" : why_empty_) : title_;
  fig::diagram_panel d;
  if (!rounds_.empty()) {
    fig::diagram_line legend;
    for (const auto& [c, what] : legend_) legend.cells.push_back({paper_rgb(c), what, {}, {}});
    legend.cells.push_back({{1, 1, 1}, "voted yes", {}, k_vote_rgb});
    legend.cells.push_back({{1, 1, 1}, "issued the atomic", {}, k_actor_rgb});
    d.lines.push_back(std::move(legend));
  }
  for (const tile_round& r : rounds_) {
    d.lines.push_back({r.label});
    fig::diagram_line row;
    for (std::size_t l = 0; l < r.lanes.size(); ++l)
      for (std::size_t w = 0; w < r.lanes[l].size(); ++w) {
        fig::diagram_cell c{paper_rgb(r.lanes[l][w].fill),
                            r.lanes[l][w].text,
                            w == 0 ? std::to_string(l) : std::string(),
                            {}};
        if (static_cast<int>(l) == r.actor)
          c.outline = k_actor_rgb;
        else if ((r.ballot >> l) & 1u)
          c.outline = k_vote_rgb;
        row.cells.push_back(std::move(c));
      }
    d.lines.push_back(std::move(row));
    if (const std::string b = ballot_text(r); !b.empty()) d.lines.push_back({b});
    if (!r.action.empty()) d.lines.push_back({r.action});
  }
  fig::figure f;
  double lines = 0;  // a row of cells with numbers over it is 2.3 text lines high
  std::size_t cells = 0;
  for (const fig::diagram_line& l : d.lines) {
    lines += l.cells.empty() ? 1 : 2.3;
    cells = std::max(cells, l.cells.size());
  }
  f.text_lines = static_cast<int>(std::ceil(lines));
  f.text_columns = static_cast<int>(cells * 4);  // a key of a few digits in each cell
  p.diagram = std::move(d);
  f.panels.push_back(std::move(p));
  return f;
}

std::string tile_lanes_view::csv() const {
  std::string out = "round,label,lane,word,text,voted,elected,actor\n";
  for (std::size_t r = 0; r < rounds_.size(); ++r) {
    const tile_round& t = rounds_[r];
    int word = t.word_base;
    for (std::size_t l = 0; l < t.lanes.size(); ++l)
      for (const tile_word& w : t.lanes[l])
        out += strprintf("%zu,\"%s\",%zu,%d,%s,%d,%d,%d\n", r + 1, t.label.c_str(), l, word++,
                         w.text.c_str(), static_cast<int>((t.ballot >> l) & 1u),
                         static_cast<int>(static_cast<int>(l) == t.elected),
                         static_cast<int>(static_cast<int>(l) == t.actor));
  }
  return out;
}

}  // namespace hs::vis
