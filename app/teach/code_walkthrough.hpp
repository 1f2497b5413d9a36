// What one traced operation did, told as the device code that decided it: the regions of code
// it ran (code_regions.hpp) and, in order, each decision as the line that made it and what it
// found there. A family turns its replay of a traced step into one (linear: linear_code.hpp).
#pragma once
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

}  // namespace hs::app
