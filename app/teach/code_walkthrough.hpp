// What one traced operation did, told as the device code that decided it: the regions of code
// it ran (code_regions.hpp) and, in order, each decision as the line that made it and what it
// found there. A family turns its replay of a traced step into one (linear: linear_code.hpp).
#pragma once
#include <span>
#include <string>
#include <vector>

namespace hs::app {

struct code_event {
  std::string region;  ///< the region whose line decided ("linear-insert-windowed")
  std::string tag;     ///< the tagged line in it ("compare")
  std::string what;    ///< what it found: "slot 13 holds key 0x0000004c: not the key, walk on"
};

struct code_walkthrough {
  std::string title;                 ///< "insert(0x0000000c) -> inserted"
  std::vector<std::string> regions;  ///< the code the operation ran, in the order shown
  std::vector<code_event> events;    ///< empty: the operation decided nothing (a rejected key)
};

/// @brief A tagged line told in plain English (a family's table of them).
struct english_line {
  const char *region, *tag, *words;
};

/// @brief The words for (region, tag) in `lines`, or empty.
inline std::string english_of(std::span<const english_line> lines, const std::string& region,
                              const std::string& tag) {
  for (const english_line& l : lines)
    if (region == l.region && tag == l.tag) return l.words;
  return {};
}

}  // namespace hs::app
