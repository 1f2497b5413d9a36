// The step box: keys a class types into the Controls, which Step (the button or S, with the
// Controls shown or not) then runs one by one as traced operations. The Controls panel edits it
// and the frame's Step reads it, so it lives with what they share (frame_state), as one piece.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/session/command_state.hpp"
#include "core/common/format.hpp"
#include "core/common/key_width.hpp"

namespace hs::app {

class step_box {
 public:
  /// @brief New text: its keys for a table of width `w`, or why it holds none (an entry that is no
  /// key steps nothing, the whole list waits). Returns how the keys were written, when they are.
  std::optional<key_radix> read(std::string text, key_width w);
  const std::string& text() const { return text_; }
  /// @brief The entry that is no key, or empty.
  const std::string& error() const { return error_; }
  op_kind kind() const { return kind_; }
  void set_kind(op_kind k) { kind_ = k; }

  const std::vector<std::uint64_t>& keys() const { return keys_; }
  /// @brief The next key's operation, or nothing once every key stepped.
  std::optional<given_op> next() const;
  /// @brief How many stepped (the next is keys()[stepped()]).
  std::size_t stepped() const { return next_; }
  /// @brief The next key stepped: a key a table refused stays next, so only a step that ran
  /// moves on.
  void advance() { ++next_; }

 private:
  std::string text_;
  std::vector<std::uint64_t> keys_;
  std::size_t next_ = 0;
  op_kind kind_ = op_kind::insert;
  std::string error_;
};

}  // namespace hs::app
