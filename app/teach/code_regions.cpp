// The regions scripts/extract-code-regions wrote into code_regions.inc, split into lines once.
#include "app/teach/code_regions.hpp"

#include <cstddef>
#include <string>

namespace hs::app {

namespace {

struct generated_region {
  const char* name;
  const char* file;
  const char* text;  // the shown lines, joined by newlines
  const int* numbers;
  int count;
  const code_tag* tags;
  int tag_count;
};

#include "code_regions.inc"

std::vector<code_region> split_regions() {
  std::vector<code_region> out;
  for (const generated_region& g : k_generated_regions) {
    code_region r;
    r.name = g.name;
    r.file = g.file;
    std::string_view text(g.text);
    for (std::size_t at = 0;;) {
      const std::size_t nl = text.find('\n', at);
      r.lines.push_back(text.substr(at, nl == std::string_view::npos ? nl : nl - at));
      if (nl == std::string_view::npos) break;
      at = nl + 1;
    }
    r.numbers = {g.numbers, static_cast<std::size_t>(g.count)};
    r.tags = {g.tags, static_cast<std::size_t>(g.tag_count)};
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::optional<int> code_region::line_of(std::string_view tag) const {
  for (const code_tag& t : tags)
    if (tag == t.tag) return t.line;
  return std::nullopt;
}

std::span<const code_region> code_regions() {
  static const std::vector<code_region> regions = split_regions();
  return regions;
}

const code_region* find_code_region(std::string_view name) {
  for (const code_region& r : code_regions())
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace hs::app
