// Questions for the class: a scenario's `ask where|probes|bucket` holds the script before a step,
// the window asks ("Where will key 0x0000004c land?"), the class answers (a click on the heatmap's
// slot, the arrows and Enter, or the number typed), and once the step has run the reveal tells
// the answer the real table gave beside theirs and keeps a tally for the session.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "app/session/command_state.hpp"
#include "core/common/format.hpp"
#include "core/table/step_trace.hpp"

namespace hs::app {

struct frame_state;

struct class_question {
  question_kind what = question_kind::where;
  given_op op;  ///< the step's first operation, the one asked about
  std::int64_t answer = 0;
  bool answered = false;
  std::uint64_t steps_before = 0;  ///< traced steps when it was answered: the next one reveals
  std::string reveal;              ///< after the step: the table's answer and the verdict
  bool right = false;
  key_radix radix = key_radix::hex;  ///< how its key is written (the frame's choice)
};

/// @brief The question in words: "Where will key 0x0000004c land?".
std::string question_text(const class_question& q);

/// @brief Takes a question the session asks, and reveals an answered one once its step's trace is
/// there (the family's `answer` tells the truth). Call every frame.
void update_question(frame_state& f);
/// @brief The class's answer: the step runs (the script goes on).
void submit_answer(frame_state& f);
/// @brief The arrows change the answer and Enter gives it, while a question waits; whether a key
/// was taken (then no shortcut sees it).
bool question_keys(frame_state& f);
/// @brief The question's window (shown while there is a question or its reveal).
void draw_question(frame_state& f);

}  // namespace hs::app
