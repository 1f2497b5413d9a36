// The device code the Code panel shows: regions of the kernels' sources marked
// `// teach-region NAME` ... `// teach-region-end`, extracted at build time by
// scripts/extract-code-regions (so the lines are the source's own), with the decisions a step can
// point at tagged `// [teach:TAG]`. Marking code changes no instruction: the tags are comments.
#pragma once
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace hs::app {

struct code_tag {
  const char* tag;
  int line;  ///< index into the region's shown lines
};

/// @brief One marked region as shown: its lines (the marker comments taken out), each with its
/// line number in the source file.
struct code_region {
  std::string_view name;  ///< "linear-insert"
  std::string_view file;  ///< relative to the source tree: "core/linear/linear_ref.cuh"
  std::vector<std::string_view> lines;
  std::span<const int> numbers;  ///< the file's line number of each shown line
  std::span<const code_tag> tags;
  /// @brief The shown line that `tag` marks, or none.
  std::optional<int> line_of(std::string_view tag) const;
};

/// @brief Every marked region, in the order of the files and of their lines.
std::span<const code_region> code_regions();
/// @brief The region named `name`, or null.
const code_region* find_code_region(std::string_view name);

}  // namespace hs::app
