// The Code and Warp lanes entries a family's view table holds, the same for every family with a
// step it can tell: `Views` (the family's family_views) has draw_code and draw_lanes, and code()
// and lanes() whose csv() and paper figure the entries hand on.
#pragma once
#include <optional>

#include "app/teach/code_figure.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/family_views/family_ui.hpp"

namespace hs::app {

template <class Views>
constexpr view_entry code_entry() {
  return {
      "Code",
      "code",
      [](family_views& v, view_context& ctx) { static_cast<Views&>(v).draw_code(ctx); },
      [](const family_views& v, const session&, const sample_result&) {
        return static_cast<const Views&>(v).code().csv();
      },
      [](const family_views& v, const session&,
         const sample_result&) -> std::optional<fig::figure> {
        return code_figure(static_cast<const Views&>(v).code().walkthrough());
      },
      [](const family_views& v) { return drawn_view::of(static_cast<const Views&>(v).code()); }};
}

template <class Views>
constexpr view_entry lanes_entry() {
  return {
      "Warp lanes",
      "lanes",
      [](family_views& v, view_context& ctx) { static_cast<Views&>(v).draw_lanes(ctx); },
      [](const family_views& v, const session&, const sample_result&) {
        return static_cast<const Views&>(v).lanes().csv();
      },
      [](const family_views& v, const session&,
         const sample_result&) -> std::optional<fig::figure> {
        return static_cast<const Views&>(v).lanes().paper_figure();
      },
      [](const family_views& v) { return drawn_view::of(static_cast<const Views&>(v).lanes()); }};
}

}  // namespace hs::app
