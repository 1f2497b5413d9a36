// Compare mode in the window: the Compare window (a row of controls that drive every compared
// table, then a column per table and the overlaid plots; while it has focus the keys drive the
// compared tables), and its setup dialog (per table a family and that family's options as
// widgets, with the entry's text form kept for typing).
#pragma once
#include <array>
#include <string>

#include "app/ui/panels/panel.hpp"

namespace hs::app {

class compare_panel final : public panel {
 public:
  const char* title() const override { return "Compare"; }
  bool shown(const frame_state& f) const override { return f.compare != nullptr; }
  void draw(frame_state& f) override;
  /// Floats over the middle of the screen at first, in front when comparing starts.
  void place(frame_state& f) override;
  bool closable() const override { return true; }
  void closed(frame_state& f) override { f.actions->stop_compare(); }
  void hidden(frame_state& f) override { f.compare_focused = false; }
};

class compare_setup {
 public:
  compare_setup();
  void open() { open_ = true; }
  /// @brief The dialog, when open (call every frame).
  void draw(frame_state& f);
  /// @brief The entries as their text forms ("linear:probe=double").
  const std::array<std::string, compare_set::k_max_tables>& texts() const { return texts_; }

 private:
  /// Widgets for table i: its family, hash, capacity and the family's options.
  void draw_entry(frame_state& f, std::size_t i);
  bool open_ = false;
  std::array<bool, compare_set::k_max_tables> used_{true, true, true};
  std::array<table_config, compare_set::k_max_tables> tables_;
  std::array<std::string, compare_set::k_max_tables> texts_;
  std::array<std::string, compare_set::k_max_tables> text_errors_;
  bool primed_ = false;
};

}  // namespace hs::app
