// What a scenario's `ask` puts to the class about the next step's first operation: where it
// lands (a slot), how many slots it reads, or which bucket it goes to. One enum from the
// scenario's line to the family's answer, so no layer matches the question's words.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace hs::app {

enum class question_kind : std::uint8_t { where, probes, bucket };

inline constexpr question_kind k_question_kinds[] = {question_kind::where, question_kind::probes,
                                                     question_kind::bucket};

/// @brief The scenario's word for q: "where", "probes" or "bucket".
constexpr std::string_view to_string(question_kind q) {
  return q == question_kind::where ? "where" : q == question_kind::probes ? "probes" : "bucket";
}

/// @brief The question a scenario's word names, or nullopt.
constexpr std::optional<question_kind> parse_question(std::string_view word) {
  for (const question_kind q : k_question_kinds)
    if (to_string(q) == word) return q;
  return std::nullopt;
}

}  // namespace hs::app
