// The window's panels, made in one place: the common ones, and a window per view of the family.
#include "app/ui/panels/compare_panel.hpp"
#include "app/ui/panels/controls_panel.hpp"
#include "app/ui/panels/devices_panel.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "app/ui/panels/panel.hpp"

namespace hs::app {

std::unique_ptr<panel> make_throughput_panel();
std::unique_ptr<panel> make_timeline_panel();

namespace {

// One of the family's views in a window of its own; its contents come from a sample, so it says
// how fresh that is.
class family_view_panel final : public panel {
 public:
  explicit family_view_panel(const view_entry& v) : view_(v) {}
  const char* title() const override { return view_.title; }
  void draw(frame_state& f) override {
    draw_freshness(f);
    view_context ctx = f.context(0, ImGui::GetTime());
    view_.draw(*f.views, ctx);
  }

 private:
  const view_entry& view_;
};

}  // namespace

std::vector<std::unique_ptr<panel>> common_panels() {
  std::vector<std::unique_ptr<panel>> p;
  p.push_back(std::make_unique<controls_panel>());
  p.push_back(std::make_unique<numbers_panel>());
  p.push_back(std::make_unique<heatmap_panel>());
  p.push_back(make_throughput_panel());
  p.push_back(make_timeline_panel());
  p.push_back(std::make_unique<compare_panel>());
  p.push_back(std::make_unique<devices_panel>());
  return p;
}

std::vector<std::unique_ptr<panel>> family_panels(const family_ui& ui) {
  std::vector<std::unique_ptr<panel>> p;
  for (const view_entry& v : ui.views)
    if (v.title) p.push_back(std::make_unique<family_view_panel>(v));
  return p;
}

}  // namespace hs::app
