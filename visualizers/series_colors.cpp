// The series palette, as bytes so that it reads like the published Okabe-Ito table.
#include "visualizers/series_colors.hpp"

namespace hs::vis {

ImVec4 series_color(int i) {
  static const ImU32 colors[] = {IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255),
                                 IM_COL32(0, 158, 115, 255),  IM_COL32(204, 121, 167, 255),
                                 IM_COL32(240, 228, 66, 255), IM_COL32(213, 94, 0, 255)};
  return ImGui::ColorConvertU32ToFloat4(colors[static_cast<unsigned>(i) % 6]);
}

}  // namespace hs::vis
