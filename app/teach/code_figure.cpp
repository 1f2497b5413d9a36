// The code a traced operation ran, as a diagram panel.
#include "app/teach/code_figure.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "app/teach/code_regions.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {
constexpr int k_context = 2;  // lines kept on each side of a decision
constexpr fig::rgb k_decision{1.0, 0.93, 0.70}, k_last{1.0, 0.80, 0.55};
}  // namespace

fig::figure code_figure(const code_walkthrough& w) {
  fig::panel p;
  p.title = w.title;
  fig::diagram_panel d;
  // Which decisions point at each shown line, by region.
  std::map<std::string, std::map<int, std::vector<std::size_t>>> at;
  for (std::size_t e = 0; e < w.events.size(); ++e)
    if (const code_region* r = find_code_region(w.events[e].region))
      if (const auto line = r->line_of(w.events[e].tag))
        at[w.events[e].region][*line].push_back(e + 1);
  for (const std::string& name : w.regions) {
    const code_region* r = find_code_region(name);
    if (!r || r->lines.empty()) continue;
    const auto& marks = at[name];
    d.lines.push_back({strprintf("%s, lines %d-%d", std::string(r->file).c_str(),
                                 r->numbers.front(), r->numbers.back())});
    const int n = static_cast<int>(r->lines.size());
    const auto kept = [&](int i) {  // the first line, and lines near a decision
      if (i == 0) return true;
      for (const auto& [line, events] : marks)
        if (std::abs(line - i) <= k_context) return true;
      return false;
    };
    for (int i = 0; i < n;) {
      if (!kept(i)) {
        int j = i;
        while (j < n && !kept(j)) ++j;
        d.lines.push_back({strprintf("    ... %d line%s", j - i, j - i == 1 ? "" : "s"), "", true});
        i = j;
        continue;
      }
      fig::diagram_line l{std::string(r->lines[static_cast<std::size_t>(i)]),
                          std::to_string(r->numbers[static_cast<std::size_t>(i)]), true};
      if (const auto it = marks.find(i); it != marks.end()) {
        std::string numbers;
        for (std::size_t e : it->second)
          numbers += (numbers.empty() ? "" : ",") + std::to_string(e);
        l.text += "  <- " + numbers;
        l.mark = it->second.back() == w.events.size() ? k_last : k_decision;
      }
      d.lines.push_back(std::move(l));
      ++i;
    }
  }
  if (w.events.empty())
    d.lines.push_back({"Nothing decided: the key was refused before anything was read."});
  for (std::size_t e = 0; e < w.events.size(); ++e)
    d.lines.push_back({strprintf("%zu. %s", e + 1, w.events[e].what.c_str())});
  fig::figure f;
  f.text_lines = static_cast<int>(d.lines.size());
  for (const fig::diagram_line& l : d.lines)
    if (l.mono) f.text_columns = std::max(f.text_columns, static_cast<int>(l.text.size() + 6));
  p.diagram = std::move(d);
  f.panels.push_back(std::move(p));
  return f;
}

}  // namespace hs::app
