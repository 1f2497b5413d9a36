// The Code panel: the device code a traced operation ran (the source's own lines, syntax
// highlighted by ImGuiColorTextEdit, read-only), with the line of the current decision marked and
// scrolled to; its arrows move through the decisions, and a toggle tells them in plain English
// instead. The family's view hands it a walkthrough for the operation its step view shows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/teach/code_walkthrough.hpp"
#include "app/teach/step_follower.hpp"

class TextEditor;

namespace hs::app {

/// @brief A short plain-English version of a tagged line (the family's words), or empty.
using code_english = std::string (*)(const std::string& region, const std::string& tag);

class code_view {
 public:
  explicit code_view(code_english english);
  ~code_view();
  code_view(const code_view&) = delete;
  code_view& operator=(const code_view&) = delete;

  /// @brief Shows an operation's walkthrough from its first decision.
  void show(code_walkthrough w);
  /// @brief Shows operation `op` of traced step `serial` through `make` (returning an optional
  /// walkthrough), unless that operation is shown already: a family asks every frame, a
  /// walkthrough is made once.
  template <class Make>
  void follow(std::uint64_t serial, std::size_t op, Make&& make) {
    if (followed_.showing(serial, op)) return;
    if (auto w = make()) {
      show(std::move(*w));
      followed_.show(serial, op);
    }
  }
  /// @brief The next follow() makes its walkthrough again, whatever it shows.
  void forget_followed() { followed_.forget(); }
  void next();
  void prev();
  /// @brief The panel (in a window, height 0, or a figure's height), its colours the theme's.
  void draw(float height);
  /// @brief The decisions as CSV: "event,region,tag,file,line,what".
  std::string csv() const;

  /// @brief What the last frame drew (tests read it): the marked line's region, file and line
  /// number in that file, which decision of how many, whether in plain English.
  struct drawn_state {
    std::string region, tag, file;
    int file_line = 0;
    std::string marked_text;  ///< the editor's text on the marked line
    int gutter_line = 0;      ///< the file line number its gutter shows there
    std::size_t event = 0, events = 0;
    bool english = false;
    int frames = 0;
    /// The editor's width as drawn, and the width its longest line and gutter need in its font
    /// (the teaching layout widens the view until they fit).
    float width_had = 0, width_needed = 0;
  };
  const drawn_state& drawn() const { return drawn_; }
  std::size_t event() const { return event_; }
  /// @brief The operation shown (empty regions: none yet).
  const code_walkthrough& walkthrough() const { return walk_; }
  std::size_t events() const { return walk_.events.size(); }
  /// @brief The editor line (from 0) of a region's shown line, or -1.
  int editor_line(const std::string& region, int shown_line) const;

 private:
  void build_text();
  void mark();
  int file_line_at(int editor_line) const;  // 0 for a header or blank line

  code_english english_;
  code_walkthrough walk_;
  step_follower followed_;  // the operation follow() showed last
  std::size_t event_ = 0;
  bool plain_english_ = false, marked_ = false;
  std::unique_ptr<TextEditor> editor_;
  struct placed {
    std::string region;
    int first_line;  // the editor line of the region's first shown line
  };
  std::vector<placed> placed_;
  std::vector<int> numbers_;  // the file's line number of each editor line (0: none)
  std::size_t longest_ = 0;   // characters in the longest editor line (tabs as the editor's 4)
  drawn_state drawn_;
};

}  // namespace hs::app
