// The windows that draw what the session records per batch (not samples): throughput against
// time and load, and the churn timeline.
#include "app/ui/panels/panel.hpp"
#include "app/ui/panels/throughput_panel.hpp"
#include "app/ui/state/record_views.hpp"
#include "visualizers/views/churn_view.hpp"

namespace hs::app {

namespace {

class timeline_panel final : public panel {
 public:
  const char* title() const override { return "Churn timeline"; }
  void draw(frame_state& f) override {
    session& s = *f.sess;
    bool record = s.recording_timeline();
    if (ImGui::Checkbox("record churn timeline (a census per batch)", &record))
      s.set_record_timeline(record);
    const auto explains = f.hooks().explains_tombstone_inserts;
    view_.draw(churn_input_of(s.timeline(), s.rebuilds()), explains && explains(s.config().table));
  }

 private:
  vis::churn_view view_;
};

}  // namespace

void throughput_panel::draw(frame_state& f) {
  drawn_ = throughput_input_of(f.sess->throughput());
  view_.draw(drawn_);
}

std::unique_ptr<panel> make_throughput_panel() { return std::make_unique<throughput_panel>(); }
std::unique_ptr<panel> make_timeline_panel() { return std::make_unique<timeline_panel>(); }

}  // namespace hs::app
