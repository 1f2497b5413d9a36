// What the lanes of every warp-cooperative operation share: the legend, the title, the words.
#include "app/ui/family_views/tile_lanes.hpp"

#include "core/common/format.hpp"

namespace hs::app {

std::vector<std::pair<ImU32, std::string>> tile_legend() {
  return {{vis::k_tile_key, "the key"},
          {vis::k_tile_other, "another key"},
          {vis::k_tile_empty, "empty"},
          {vis::k_tile_claimed, "the slot it takes"},
          {vis::k_tile_aux, "value / next pointer"}};
}

std::string tile_title(const stepped_op& op, int tile, key_radix radix) {
  return strprintf("%s %s -> %s: a tile of %d lanes serves it",
                   std::string(to_string(op.kind)).c_str(), key_text(op.key, radix).c_str(),
                   std::string(to_string(op.status)).c_str(), tile);
}

}  // namespace hs::app
