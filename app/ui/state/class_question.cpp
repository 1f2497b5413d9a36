// Questions for the class, asked before a step and revealed after it.
#include "app/ui/state/class_question.hpp"

#include <imgui.h>

#include <algorithm>

#include "app/ui/state/frame_state.hpp"
#include "core/common/format.hpp"

namespace hs::app {

std::string question_text(const class_question& q) {
  const std::string key = "key " + key_text(q.op.key, q.radix);
  const std::string op = std::string(to_string(q.op.kind));
  if (q.what == question_kind::where)
    return q.op.kind == op_kind::insert
               ? "Where will " + key + " land? Pick its slot."
               : "Where will the " + op + " of " + key + " stop? Pick the slot.";
  if (q.what == question_kind::bucket)
    return q.op.kind == op_kind::insert
               ? "Which bucket will " + key + " go to? Click a slot of it."
               : "In which bucket will the " + op + " of " + key + " decide? Click a slot of it.";
  return "How many slots will the " + op + " of " + key + " read?";
}

void update_question(frame_state& f) {
  if (f.question) f.question->radix = f.keys_radix();
  // First the reveal of an answered question whose step has run, then a new question.
  if (f.question && f.question->answered && f.question->reveal.empty()) {
    const auto trace = f.sess->last_step();
    if (trace && trace->serial > f.question->steps_before && !trace->ops.empty()) {
      const auto truth = f.hooks().answer ? f.hooks().answer(f.question->what, *trace,
                                                             f.sess->config().table, f.sample)
                                          : std::nullopt;
      class_question& q = *f.question;
      if (!truth) {
        q.reveal = "this table cannot tell";
      } else {
        q.right = *truth == static_cast<std::uint64_t>(std::max<std::int64_t>(q.answer, 0));
        f.sess->count_answer(q.right);
        const auto n = static_cast<unsigned long long>(*truth);
        const std::string told = q.what == question_kind::where    ? strprintf("slot %llu", n)
                                 : q.what == question_kind::bucket ? strprintf("bucket %llu", n)
                                                                   : strprintf("%llu slots", n);
        q.reveal = strprintf("The table says %s; the class said %lld: %s.", told.c_str(),
                             static_cast<long long>(q.answer), q.right ? "right" : "not this time");
      }
    }
  }
  const session_status st = f.sess->status();
  if (f.question && !f.question->answered && !st.question)
    f.question.reset();  // the session asks no more (another scenario, a reset)
  if (st.question && (!f.question || (f.question->answered && !f.question->reveal.empty()))) {
    class_question q;
    q.what = st.question->first;
    q.op = st.question->second;
    q.radix = f.keys_radix();  // written as the lesson gives its keys from the first frame on
    f.question = q;
  }
}

void submit_answer(frame_state& f) {
  if (!f.question || f.question->answered) return;
  const auto trace = f.sess->last_step();
  f.question->steps_before = trace ? trace->serial : 0;
  f.question->answered = true;
  f.sess->continue_script();
}

bool question_keys(frame_state& f) {
  if (!f.question || f.question->answered || ImGui::GetIO().WantTextInput) return false;
  std::int64_t& a = f.question->answer;
  if (ImGui::IsKeyPressed(ImGuiKey_RightArrow) || ImGui::IsKeyPressed(ImGuiKey_UpArrow)) {
    ++a;
    return true;
  }
  if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow) || ImGui::IsKeyPressed(ImGuiKey_DownArrow)) {
    a = std::max<std::int64_t>(0, a - 1);
    return true;
  }
  if (ImGui::IsKeyPressed(ImGuiKey_Enter) || ImGui::IsKeyPressed(ImGuiKey_KeypadEnter)) {
    submit_answer(f);
    return true;
  }
  return false;
}

void draw_question(frame_state& f) {
  if (!f.question) return;
  class_question& q = *f.question;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 60.f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.f));
  bool open = true;
  if (ImGui::Begin("Question", q.answered && !q.reveal.empty() ? &open : nullptr,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDocking |
                       ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::TextUnformatted(question_text(q).c_str());
    if (!q.answered) {
      ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
      const std::int64_t step = 1;
      ImGui::InputScalar(q.what == question_kind::where    ? "slot"
                         : q.what == question_kind::bucket ? "bucket"
                                                           : "slots read",
                         ImGuiDataType_S64, &q.answer, &step);
      q.answer = std::max<std::int64_t>(q.answer, 0);
      ImGui::SameLine();
      if (ImGui::Button("Answer")) submit_answer(f);
      ImGui::TextDisabled(q.what == question_kind::probes
                              ? "the arrows and Enter, or type it"
                              : "click the slot in the heatmap, or the arrows and Enter");
    } else if (q.reveal.empty()) {
      ImGui::TextDisabled("the class said %lld: the step runs...",
                          static_cast<long long>(q.answer));
    } else {
      ImGui::TextColored(q.right ? ImVec4(0.4f, 0.9f, 0.5f, 1.f) : ImVec4(1.f, 0.55f, 0.3f, 1.f),
                         "%s", q.reveal.c_str());
    }
    const session_status st = f.sess->status();
    ImGui::TextDisabled("this session: %d right of %d", st.questions_right, st.questions_asked);
  }
  ImGui::End();
  if (!open) f.question.reset();
}

}  // namespace hs::app
